package notify

import (
	"context"
	"io"
	"os"

	"jig/status"
)

// Watcher follows sessions' status files and acts on each transition asked
// for (On), in order: Print, then Exec, then Notify, each when set. A
// failed run or notification is said to Warn and the watch goes on; a
// failed Print (its output gone) stops it. Idle it costs nothing: it waits
// on the files' events (status.Dir.Watch, WatchAll).
type Watcher struct {
	Dir    *status.Dir
	Live   status.Liveness
	On     []string
	Print  func(Event) error
	Exec   *Exec
	Notify *Notifier
	Warn   func(error)
}

// Session follows one session until it ends (then its End) or ctx is done.
// Its state when watching begins is no transition.
func (w *Watcher) Session(ctx context.Context, id string) error {
	t := NewTracker(w.On)
	started := false
	err := w.Dir.Watch(ctx, id, w.Live, func(s *status.Status, _ []byte) error {
		if !started {
			started = true
			t.Start(s)
			return nil
		}
		return w.take(t.Update(s))
	})
	if err != nil || ctx.Err() != nil {
		return err
	}
	return w.take(t.Ended(id))
}

// All follows every session, those that start later too, until ctx is
// done.
func (w *Watcher) All(ctx context.Context) error {
	t := NewTracker(w.On)
	return w.Dir.WatchAll(ctx, w.Live, func(s *status.Status, first bool) error {
		if first {
			t.Start(s)
			return nil
		}
		return w.take(t.Update(s))
	}, func(session string) error {
		return w.take(t.Ended(session))
	})
}

// take acts on a transition, if there is one.
func (w *Watcher) take(ev Event, ok bool) error {
	if !ok {
		return nil
	}
	if w.Print != nil {
		if err := w.Print(ev); err != nil {
			return err
		}
	}
	if w.Exec != nil {
		w.warn(w.Exec.Run(ev))
	}
	if w.Notify != nil {
		w.warn(w.Notify.Run(ev))
	}
	return nil
}

func (w *Watcher) warn(err error) {
	if err != nil && w.Warn != nil {
		w.Warn(err)
	}
}

// Terminal is the terminal this process runs in, for the terminal's own
// notifications (OSC 9/777): /dev/tty, else fallback. It is opened once;
// close does nothing for the fallback.
func Terminal(fallback io.Writer) (w io.Writer, close func()) {
	f, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0)
	if err != nil {
		return fallback, func() {}
	}
	return f, func() { f.Close() }
}
