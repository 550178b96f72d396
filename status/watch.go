package status

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/fsnotify/fsnotify"
)

// How Watch notices what no file event says. A session that dies without
// removing its file writes nothing, so its process is checked now and then,
// and so is the sessions folder: a state dir moved away and made again
// sends no event on the folder watched. Without inotify (fsnotify failed)
// the file's stat is compared instead.
var (
	watchLiveCheck = 2 * time.Second
	watchPoll      = time.Second
	newWatcher     = fsnotify.NewWatcher
)

// Watch calls fn with the session's status, and again at each change of
// its file, until the file is removed, the session's process ends or ctx
// is done (then nil). fn gets the file's bytes with it; a write that left
// the bytes as they were, or that is not a whole status (a foreign
// write), is no change. Idle, Watch costs nothing: it waits on file
// events, or polls the file's stat where those are not available. When the
// sessions folder is replaced (the state dir moved away and made again),
// Watch follows the one now at its path: the file missing there is not
// the session's end, only its process's end is.
func (d *Dir) Watch(ctx context.Context, session string, live Liveness, fn func(*Status, []byte) error) error {
	w := &watcher{path: d.SessionPath(session), folder: d.Path(SessionsDir), changed: make(chan struct{}, 1)}
	w.folderSeen, _ = os.Lstat(w.folder)
	w.start()
	defer w.stop()
	check := time.NewTicker(watchLiveCheck)
	defer check.Stop()
	for {
		if ended, err := w.show(fn); ended || err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return nil
		case <-w.changed:
		case <-w.pollC():
			if !w.fileChanged() {
				continue
			}
		case <-check.C:
			if !live.Alive(w.cur) {
				return nil
			}
		}
	}
}

// watcher is one Watch's state.
type watcher struct {
	path, folder string
	events       *fsnotify.Watcher // nil: polling
	poll         *time.Ticker
	changed      chan struct{} // one pending change is all a reread needs
	folderSeen   fs.FileInfo   // the sessions folder watched; nil while none is there
	lost         bool          // the folder was replaced and the file not seen in it since
	fileSeen     fs.FileInfo   // the file as the last poll saw it
	last         []byte
	cur          *Status
}

// start watches the sessions folder (the folder, not the file: a write
// replaces the file by rename), or polls when it cannot.
func (w *watcher) start() {
	ev, err := newWatcher()
	if err == nil {
		if err = ev.Add(w.folder); err != nil {
			ev.Close()
		}
	}
	if err != nil {
		w.poll = time.NewTicker(watchPoll)
		return
	}
	w.events = ev
	go func() {
		for {
			select {
			case e, ok := <-ev.Events:
				if !ok {
					return
				}
				if w.path == "" || e.Name == w.path || e.Name == w.folder { // no path: every file of the folder (WatchAll)
					w.poke()
				}
			case _, ok := <-ev.Errors:
				if !ok {
					return
				}
				w.poke() // events were lost (an overflow): read again
			}
		}
	}()
}

func (w *watcher) stop() {
	if w.events != nil {
		w.events.Close()
	}
	if w.poll != nil {
		w.poll.Stop()
	}
}

func (w *watcher) poke() {
	select {
	case w.changed <- struct{}{}:
	default:
	}
}

// pollC ticks when polling; nil (never) on file events.
func (w *watcher) pollC() <-chan time.Time {
	if w.poll == nil {
		return nil
	}
	return w.poll.C
}

// fileChanged reports whether the polled file may have changed since the
// last poll.
func (w *watcher) fileChanged() bool {
	fi, err := os.Lstat(w.path)
	same := err == nil && w.fileSeen != nil && os.SameFile(fi, w.fileSeen) &&
		fi.ModTime().Equal(w.fileSeen.ModTime()) && fi.Size() == w.fileSeen.Size()
	w.fileSeen = fi
	return !same
}

// show reads the file and calls fn when it changed; ended when it is gone
// from the folder it was last seen in.
func (w *watcher) show(fn func(*Status, []byte) error) (ended bool, err error) {
	if w.follow() {
		w.lost = true
	}
	data, err := ReadFileNoFollow(w.path)
	if errors.Is(err, fs.ErrNotExist) {
		return !w.lost, nil
	}
	if err != nil {
		return false, err
	}
	w.lost = false
	if bytes.Equal(data, w.last) {
		return false, nil
	}
	s, err := Decode(data)
	if err != nil {
		return false, nil // not a whole status: wait for the next
	}
	w.last, w.cur = data, s
	return false, fn(s, data)
}

// follow notices the sessions folder replaced or gone and watches the one
// now at its path; it reports whether the folder is another than the one
// watched until now.
func (w *watcher) follow() bool {
	fi, err := os.Lstat(w.folder)
	if err != nil {
		fi = nil
	}
	if fi == nil && w.folderSeen == nil || fi != nil && w.folderSeen != nil && os.SameFile(fi, w.folderSeen) {
		return false
	}
	w.folderSeen = fi
	if w.events != nil {
		w.events.Remove(w.folder) // the old folder's watch, if it is not gone with it
		if fi != nil && w.events.Add(w.folder) != nil {
			w.events.Close()
			w.events, w.poll = nil, time.NewTicker(watchPoll)
		}
	}
	return true
}

// idlePoll is how often WaitIdle reads the session again. Polling, not file
// events: a session that dies writes nothing, so only rereading (and
// checking its process) notices it, and one small read every 200 ms costs
// microseconds.
var idlePoll = 200 * time.Millisecond

// WaitIdle waits until the session t names is idle: nil then, the error of
// Resolve when there is none or it ends meanwhile, ErrTimeout when timeout
// (if above 0) runs out. It uses timers, not a clock, so a fixed test clock
// does not stop it.
func (d *Dir) WaitIdle(t Target, live Liveness, timeout time.Duration) error {
	var deadline <-chan time.Time
	if timeout > 0 {
		timer := time.NewTimer(timeout)
		defer timer.Stop()
		deadline = timer.C
	}
	tick := time.NewTicker(idlePoll)
	defer tick.Stop()
	for {
		s, err := d.Resolve(t, live)
		if err != nil || s.State == Idle {
			return err
		}
		select {
		case <-deadline:
			return markf(ErrTimeout, fmt.Sprintf("%s still busy after %s", t.what(), timeout))
		case <-tick.C:
		}
	}
}

// what names the session t means, for a message.
func (t Target) what() string {
	switch {
	case t.Session != "":
		return "session " + t.Session
	case t.Terminal != "":
		return "terminal " + t.Terminal
	case len(t.Here) > 0:
		return "terminal " + t.Here[0].ID
	}
	return "the session"
}
