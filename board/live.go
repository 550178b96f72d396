package board

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"jig/panel"
	"jig/status"
)

// How the live board learns of changes. This machine's sessions are read
// again only when a file event says one changed; the processes behind them
// are checked (no file is read) for one that died without removing its
// file. A remote host has no file events here: it is asked again after
// each answer. The clock only redraws what is in memory, for the ages.
var (
	liveCheck  = 2 * time.Second
	hostRepeat = 2 * time.Second
	clockTick  = time.Second
)

// Live is the full-screen board: the rows of Board, a View over them, and
// what its keys ask done.
type Live struct {
	Board *Board
	Steer Steer
	Now   func() time.Time

	mu     sync.Mutex
	view   View
	dirty  bool // this machine's files changed since they were read
	local  []Row
	heads  []*status.Head
	remote map[string][]Row
	keys   keyReader
}

// Run shows the board on t until q, a signal or ctx's end.
func (l *Live) Run(ctx context.Context, t panel.Terminal) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	changed := make(chan struct{}, 1)
	notify := func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	}
	l.dirty, l.remote = true, map[string][]Row{}
	l.watchLocal(ctx, notify)
	for _, h := range l.Board.Hosts {
		go l.pollHost(ctx, h, notify)
	}
	go func() {
		tick := time.NewTicker(clockTick)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				notify()
			}
		}
	}()
	return panel.Run(ctx, t, changed, l.draw, func(k panel.Key) bool {
		return l.key(ctx, k, notify)
	})
}

// watchLocal marks this machine's rows dirty at each event in the sessions
// folder, and when a listed session's process is gone.
func (l *Live) watchLocal(ctx context.Context, notify func()) {
	if l.Board.Dir == nil {
		return
	}
	w, err := fsnotify.NewWatcher()
	if err == nil {
		if l.Board.Dir.Ensure(status.SessionsDir) != nil || w.Add(l.Board.Dir.Path(status.SessionsDir)) != nil {
			w.Close()
			w = nil
		}
	} else {
		w = nil
	}
	mark := func() {
		l.mu.Lock()
		l.dirty = true
		l.mu.Unlock()
		notify()
	}
	go func() {
		check := time.NewTicker(liveCheck)
		defer check.Stop()
		var events chan fsnotify.Event
		if w != nil {
			defer w.Close()
			events = w.Events
		}
		for {
			select {
			case <-ctx.Done():
				return
			case <-events:
				mark()
			case <-check.C:
				if w == nil || l.someoneDied() {
					mark() // without inotify, the folder is read each time
				}
			}
		}
	}()
}

// someoneDied reports whether a listed session's process has ended.
func (l *Live) someoneDied() bool {
	l.mu.Lock()
	heads := slices.Clone(l.heads)
	l.mu.Unlock()
	live := l.Board.Live.Memo()
	for _, h := range heads {
		if !live.Alive(h.Status()) {
			return true
		}
	}
	return false
}

// pollHost asks host for its rows again and again, one question at a
// time, each bounded by the host timeout.
func (l *Live) pollHost(ctx context.Context, host string, notify func()) {
	for {
		rows := l.Board.HostRows(ctx, host)
		l.mu.Lock()
		l.remote[host] = rows
		l.mu.Unlock()
		notify()
		select {
		case <-ctx.Done():
			return
		case <-time.After(hostRepeat):
		}
	}
}

// draw is the screen now: this machine's rows read again if they changed,
// with every host's latest.
func (l *Live) draw(width, height int) []string {
	l.mu.Lock()
	dirty := l.dirty
	l.dirty = false
	l.mu.Unlock()
	if dirty {
		rows, heads, err := l.Board.LocalRows()
		l.mu.Lock()
		if err != nil {
			l.view.Say("cannot read this machine's sessions: " + err.Error())
		}
		l.local, l.heads = rows, heads
		l.mu.Unlock()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	rows := slices.Clone(l.local)
	for _, h := range l.Board.Hosts {
		rows = append(rows, l.remote[h]...)
	}
	Sort(rows)
	l.view.SetRows(rows)
	return l.view.Lines(width, height, l.Now())
}

// key hands a key to the view and does what it asks, away from the loop:
// a jump or a request to another machine may take its time.
func (l *Live) key(ctx context.Context, k panel.Key, notify func()) bool {
	name, ok := l.keys.next(byte(k))
	if !ok {
		return false
	}
	l.mu.Lock()
	a := l.view.Key(name)
	if a.Answer != "" {
		l.view.Say(a.Answer)
	}
	l.mu.Unlock()
	var do func() error
	switch a.Kind {
	case "quit":
		return true
	case "jump":
		do = func() error { return l.Board.SSH.Jump(ctx, a.Row) }
	case "tool":
		do = func() error { return l.Steer.SwitchTool(ctx, a.Row, a.Tool, a.On) }
	case "reload":
		do = func() error { return l.Steer.Reload(ctx, a.Row) }
	}
	if do != nil {
		go func() {
			if err := do(); err != nil {
				l.mu.Lock()
				l.view.Say(a.Row.Project + ": " + err.Error())
				l.mu.Unlock()
			}
			notify()
		}()
	}
	notify()
	return false
}

// keyReader turns the bytes a terminal sends into the view's key names:
// arrows come as ESC [ A and ESC [ B, so a lone ESC is known only by the
// byte after it (which it takes).
type keyReader struct{ esc int }

func (r *keyReader) next(b byte) (string, bool) {
	switch r.esc {
	case 1:
		if b == '[' {
			r.esc = 2
			return "", false
		}
		r.esc = 0
		return KeyEsc, true
	case 2:
		r.esc = 0
		switch b {
		case 'A':
			return KeyUp, true
		case 'B':
			return KeyDown, true
		}
		return "", false
	}
	switch b {
	case 0x1b:
		r.esc = 1
		return "", false
	case '\r', '\n':
		return KeyEnter, true
	}
	return string(rune(b)), true
}
