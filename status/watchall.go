package status

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"strings"
	"time"
)

// WatchAll follows every session of the state dir until ctx is done: seen
// gets each live session's status when watching begins (first set), then
// again at each change of its file, a session that starts later included;
// ended gets a session's id once when its file goes or its process ends.
// A write that left the bytes as they were, a file that is not a whole
// status (a foreign or newer-schema one) and a dead session's file are no
// change. Idle it costs nothing: it waits on the sessions folder's file
// events, and looks at each file's stat only then (or once a second where
// there are no events); the processes are checked every few seconds.
func (d *Dir) WatchAll(ctx context.Context, live Liveness, seen func(s *Status, first bool) error, ended func(session string) error) error {
	if err := d.Ensure(SessionsDir); err != nil {
		return err
	}
	w := &watcher{folder: d.Path(SessionsDir), changed: make(chan struct{}, 1)}
	w.start()
	defer w.stop()
	all := &allWatch{d: d, live: live, known: map[string]*watched{}, seen: seen, ended: ended}
	if err := all.scan(true); err != nil {
		return err
	}
	check := time.NewTicker(watchLiveCheck)
	defer check.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-w.changed:
		case <-w.pollC():
		case <-check.C:
			if err := all.checkLive(); err != nil {
				return err
			}
			continue
		}
		if err := all.scan(false); err != nil {
			return err
		}
	}
}

// allWatch is one WatchAll's state: each session file as last seen.
type allWatch struct {
	d     *Dir
	live  Liveness
	known map[string]*watched // by file name
	seen  func(*Status, bool) error
	ended func(string) error
}

type watched struct {
	stat  fs.FileInfo
	data  []byte
	s     *Status // nil: not a live session's status
	alive bool
}

// scan looks at every file of the sessions folder, reading only those whose
// stat changed, and says what changed.
func (a *allWatch) scan(first bool) error {
	des, err := os.ReadDir(a.d.Path(SessionsDir))
	if err != nil {
		return err
	}
	here := map[string]bool{}
	for _, de := range des {
		name := de.Name()
		if strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ".json") || !de.Type().IsRegular() {
			continue
		}
		here[name] = true
		if err := a.look(name, first); err != nil {
			return err
		}
	}
	for name, k := range a.known {
		if !here[name] {
			delete(a.known, name)
			if err := a.end(k); err != nil {
				return err
			}
		}
	}
	return nil
}

// look reads one file when its stat changed since the last look.
func (a *allWatch) look(name string, first bool) error {
	path := a.d.Path(SessionsDir, name)
	fi, err := os.Lstat(path)
	if err != nil {
		return nil // gone since the listing: the next scan says so
	}
	k := a.known[name]
	if k != nil && os.SameFile(fi, k.stat) && fi.ModTime().Equal(k.stat.ModTime()) && fi.Size() == k.stat.Size() {
		return nil
	}
	data, err := ReadFileNoFollow(path)
	if err != nil {
		return nil // replaced or gone meanwhile: the next event reads it
	}
	if k == nil {
		k = &watched{}
		a.known[name] = k
	}
	k.stat = fi
	if bytes.Equal(data, k.data) {
		return nil
	}
	k.data = data
	s, err := Decode(data)
	if err != nil || s.Schema != Schema || s.Session == "" {
		return nil // not a whole status of this schema: wait for the next
	}
	if !a.live.Alive(s) {
		return a.end(k) // a dead session's file: its end, if it was watched
	}
	k.s, k.alive = s, true
	return a.seen(s, first)
}

// checkLive ends the sessions whose process is gone.
func (a *allWatch) checkLive() error {
	for _, k := range a.known {
		if k.alive && !a.live.Alive(k.s) {
			if err := a.end(k); err != nil {
				return err
			}
		}
	}
	return nil
}

func (a *allWatch) end(k *watched) error {
	if !k.alive {
		return nil
	}
	k.alive = false
	return a.ended(k.s.Session)
}
