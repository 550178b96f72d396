package status

import (
	"errors"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"time"
)

// Cleaned says what GC did.
type Cleaned struct {
	Sessions  []string // the sessions whose files it removed
	Markers   int      // the stale index markers it removed
	Temps     int      // temp files of writes cut short
	Leftovers int      // cursors, requests, claims and locks of ended sessions; status files a crash cut short
	Links     int      // links planted in sessions/, removed (never followed)
	Skipped   []Entry  // the files it could not read and left alone
}

// GC removes the status files of this host's sessions whose process is gone
// (or whose pid another process took), every index marker that no status
// file backs, and what ended sessions and killed writers left behind.
// Files of other hosts, and files it cannot read, stay: it cannot tell
// whether their session runs (unless one was written before the machine
// booted: removeCrashed). Each removal is decided again under the
// session's lock, on the file as it is then, so a writer working meanwhile
// never has its session or its index entry removed.
func (d *Dir) GC(live Liveness, now time.Time) (Cleaned, error) {
	var c Cleaned
	// each listed session's terminal folders: a few dozen bytes a session
	byName := map[string][]string{}
	live = live.Memo()
	err := d.EachHead(false, func(h *Head, err error) error {
		switch {
		case errors.Is(err, ErrSymlink):
			// jig makes no link in sessions/: the link goes, never what it names
			if os.Remove(d.Path(SessionsDir, h.Name+".json")) == nil {
				c.Links++
			}
		case err != nil && d.removeCrashed(h.Name):
			c.Leftovers++
		case err != nil:
			c.Skipped = append(c.Skipped, Entry{Name: h.Name, Err: err})
		case live.Local(h.Status()) && !live.Alive(h.Status()):
			removed, err := d.removeEnded(h.Session, live)
			if err != nil {
				return err
			}
			if removed {
				c.Sessions = append(c.Sessions, h.Session)
			}
		default:
			byName[h.Name] = terminalDirs(h.Terminals)
		}
		return nil
	})
	if err != nil {
		return c, err
	}
	if c.Markers, err = d.cleanIndex(byName, c.Skipped); err != nil {
		return c, err
	}
	d.repair()
	if c.Temps, err = d.RemoveStaleTemps(now); err != nil {
		return c, err
	}
	n, err := d.removeLeftovers(now, func(name string) bool { _, ok := byName[name]; return ok })
	c.Leftovers += n
	return c, err
}

// removeCrashed removes a session's file that cannot be read, if it was
// last written before the machine booted: no process from before the boot
// runs, and a crash can leave a file a write had not flushed (ReplaceFile)
// empty. Read again under its lock, a file that reads now stays.
func (d *Dir) removeCrashed(name string) bool {
	boot, ok := bootTime()
	path := d.Path(SessionsDir, name+".json")
	fi, err := os.Lstat(path)
	if !ok || err != nil || !fi.Mode().IsRegular() || !fi.ModTime().Before(boot) {
		return false
	}
	unlock, ok := d.tryLockName(name)
	if !ok {
		return false
	}
	defer unlock()
	if _, err := readHead(path); err == nil {
		return false
	}
	return os.Remove(path) == nil
}

// removeEnded removes a session's file if, read again under its lock, its
// process is still gone: a new process may have resumed the session since
// the listing.
func (d *Dir) removeEnded(session string, live Liveness) (bool, error) {
	unlock, ok := d.tryLockName(SafeName(session))
	if !ok {
		return false, nil // a writer at work: the session is not over, or gc's next run sees
	}
	defer unlock()
	s, err := d.Read(session)
	if err != nil || live.Alive(s) {
		return false, nil
	}
	return true, d.remove(session)
}

// cleanIndex removes the markers of sessions that are gone or no longer name
// the marker's terminal, and empty terminal folders. A marker the listing
// found stale is checked again under its session's lock against the file
// as it is then: a writer may have moved the session to that terminal since.
// Markers of files that could not be read stay: the file may be mid-way
// through a foreign write.
func (d *Dir) cleanIndex(byName map[string][]string, skipped []Entry) (int, error) {
	if err := d.Check(TerminalsDir); err != nil {
		return 0, err
	}
	keep := map[string]bool{}
	for _, e := range skipped {
		keep[e.Name] = true
	}
	dirs, err := readNames(d.Path(TerminalsDir))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	stale := func(dirs []string, listed bool, dir string) bool {
		return !listed || (dir != indexedDir && !slices.Contains(dirs, dir))
	}
	var removed atomic.Int64
	inParallel(len(dirs), func(i int) {
		dir := dirs[i]
		markers, err := readNames(d.Path(TerminalsDir, dir))
		if err != nil {
			return // a stranger that is not a folder, or a link to one
		}
		left := len(markers)
		for _, m := range markers {
			if dirs, listed := byName[m]; keep[m] || !stale(dirs, listed, dir) {
				continue
			}
			unlock, ok := d.tryLockName(m)
			if !ok {
				continue // a writer at work: next time
			}
			now, err := readStatus(d.Path(SessionsDir, m+".json"))
			var nowDirs []string
			if now != nil {
				nowDirs = terminalDirs(now.Terminals)
			}
			if (err == nil || errors.Is(err, fs.ErrNotExist)) && stale(nowDirs, now != nil, dir) {
				if os.Remove(d.Path(TerminalsDir, dir, m)) == nil {
					removed.Add(1)
					left--
				}
			}
			unlock()
		}
		if dir != indexedDir && left == 0 {
			os.Remove(d.Path(TerminalsDir, dir)) // only when empty: a writer may have marked it since
		}
	})
	return int(removed.Load()), nil
}

// CursorsDir holds, per session, where `jig session write --transcript`
// stopped reading the transcript.
const CursorsDir = "cursors"

// LeftoverGrace is how long a cursor, request or lock with no status file
// beside it is left alone: a session starting or resuming writes its status
// file a moment after, and a request sent while it restarts must not be lost.
const LeftoverGrace = 10 * time.Minute

// removeLeftovers removes what ended sessions leave beside their status
// files: cursors/, requests/ and locks/ files whose session has no status
// file and that nobody touched for LeftoverGrace, and claim files of takers
// that died mid-take. It never follows a link: a planted one is removed by
// name. listed says which sessions the caller just saw with a status file:
// their files are passed over without a stat.
func (d *Dir) removeLeftovers(now time.Time, listed func(name string) bool) (int, error) {
	if err := d.Check(SessionsDir, CursorsDir, RequestsDir, LocksDir); err != nil {
		return 0, err
	}
	removed := 0
	for _, sub := range []string{CursorsDir, RequestsDir, LocksDir} {
		des, err := os.ReadDir(d.Path(sub))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return removed, err
		}
		ext := ".json"
		if sub == LocksDir {
			ext = ".lock"
		}
		for _, de := range des {
			name := de.Name()
			if listed(strings.TrimSuffix(name, ext)) {
				continue
			}
			fi, err := de.Info()
			if err != nil || now.Sub(fi.ModTime()) <= LeftoverGrace {
				continue
			}
			switch {
			case sub == RequestsDir && strings.HasPrefix(name, ".claim-"):
			case strings.HasPrefix(name, ".") || !strings.HasSuffix(name, ext):
				continue // the requests lock, a temp file being written
			default:
				session := strings.TrimSuffix(name, ext)
				if _, err := os.Lstat(d.Path(SessionsDir, session+".json")); !errors.Is(err, fs.ErrNotExist) {
					continue // the session still has its file
				}
				if sub == LocksDir && de.Type().IsRegular() {
					// taken, so no writer is at work; letting it go removes it
					if unlock, ok := d.tryLockName(session); ok {
						unlock()
						removed++
					}
					continue
				}
			}
			if os.RemoveAll(d.Path(sub, name)) == nil {
				removed++
			}
		}
	}
	return removed, nil
}

// terminalDirs are the index folders of a session's terminals.
func terminalDirs(ts []TerminalID) []string {
	dirs := make([]string, len(ts))
	for i, t := range ts {
		dirs[i] = SafeName(t.ID)
	}
	return dirs
}

// Entry is a status file that could not be read, and why.
type Entry struct {
	Name string // the file's name without .json
	Err  error
}
