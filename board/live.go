package board

import (
	"context"
	"slices"
	"sync"
	"time"
	"unicode/utf8"

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
	Board  *Board
	Steer  Steer
	Now    func() time.Time
	Colour bool // the view in colour (not under NO_COLOR)

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
	l.view.Colour = l.Colour
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

// escTimeout is how long a lone Esc waits for the rest of an escape
// sequence (an arrow sends ESC [ A at once), as vim's ttimeoutlen: then it
// is Esc, and the next key is a key of its own.
var escTimeout = 50 * time.Millisecond

// key hands the byte's keys to the view and does what they ask, away from
// the loop: a jump or a request to another machine may take its time. A
// byte that may be the start of an escape sequence waits escTimeout for
// the rest.
func (l *Live) key(ctx context.Context, k panel.Key, notify func()) bool {
	l.mu.Lock()
	names := l.keys.next(byte(k))
	if l.keys.pending() {
		gen := l.keys.gen
		time.AfterFunc(escTimeout, func() {
			l.mu.Lock()
			var names []string
			if l.keys.gen == gen {
				names = l.keys.flush()
			}
			l.mu.Unlock()
			l.act(ctx, names, notify)
		})
	}
	l.mu.Unlock()
	return l.act(ctx, names, notify)
}

// act hands keys to the view and does what they ask; true to quit.
func (l *Live) act(ctx context.Context, names []string, notify func()) bool {
	for _, name := range names {
		l.mu.Lock()
		a := l.view.Key(name)
		if a.Answer != "" {
			l.view.Say(a.Answer)
		}
		l.mu.Unlock()
		if a.Kind == "quit" {
			return true
		}
		l.do(ctx, a, notify)
	}
	notify()
	return false
}

// do runs what an action asks in its own goroutine, and says a failure or
// the request it sent on the message line.
func (l *Live) do(ctx context.Context, a Action, notify func()) {
	var send func() (string, error)
	switch a.Kind {
	case "jump":
		send = func() (string, error) { return "", l.Board.SSH.Jump(ctx, a.Row) }
	case "tool":
		send = func() (string, error) { return l.Steer.SendTool(ctx, a.Row, a.Tool, a.On) }
	case "reload":
		send = func() (string, error) { return l.Steer.SendReload(ctx, a.Row) }
	default:
		return
	}
	go func() {
		id, err := send()
		l.mu.Lock()
		switch {
		case err != nil:
			l.view.Say(a.Row.Project + ": " + err.Error())
		case id != "":
			l.view.Asked(a.Row, id, a.Answer)
		}
		l.mu.Unlock()
		notify()
	}()
}

// keyReader turns the bytes a terminal sends into the view's key names:
// arrows come as ESC [ A or ESC O A (other sequences are dropped whole), a
// character as its UTF-8 bytes. An ESC the next byte does not continue is
// Esc, and that byte a key of its own; a lone ESC waits for flush.
type keyReader struct {
	seq []byte // an escape sequence so far
	utf []byte // a character's first bytes
	gen int    // counts the sequences started, so a late flush finds its own
}

func (r *keyReader) pending() bool { return len(r.seq) == 1 }

// flush ends a sequence no byte followed: a lone ESC is Esc.
func (r *keyReader) flush() []string {
	lone := len(r.seq) == 1
	r.seq = nil
	if lone {
		return []string{KeyEsc}
	}
	return nil
}

func (r *keyReader) next(b byte) []string {
	switch {
	case len(r.seq) == 1 && (b == '[' || b == 'O'):
		r.seq = append(r.seq, b)
		return nil
	case len(r.seq) == 1:
		r.seq = nil
		return append([]string{KeyEsc}, r.next(b)...)
	case len(r.seq) > 1:
		if b < 0x40 && len(r.seq) < 16 { // a parameter: the sequence goes on
			r.seq = append(r.seq, b)
			return nil
		}
		r.seq = nil
		switch b {
		case 'A':
			return []string{KeyUp}
		case 'B':
			return []string{KeyDown}
		}
		return nil
	case len(r.utf) > 0 || b >= 0x80:
		r.utf = append(r.utf, b)
		if !utf8.FullRune(r.utf) && len(r.utf) < utf8.UTFMax {
			return nil
		}
		k := string(r.utf)
		r.utf = nil
		return []string{k}
	}
	switch b {
	case 0x1b:
		r.seq = []byte{b}
		r.gen++
		return nil
	case '\r', '\n':
		return []string{KeyEnter}
	case 0x7f, 0x08:
		return []string{KeyBackspace}
	case '\t':
		return []string{KeyTab}
	}
	return []string{string(rune(b))}
}
