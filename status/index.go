package status

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// The terminal index lets a reader find "the session in terminal t7" without
// reading every status file: terminals/<terminal>/<session> is an empty
// marker for each terminal a session named when it was last written, and
// terminals/.indexed/<session> says that session's markers are kept. A
// status file without an .indexed marker (written by a writer that keeps no
// index, or being written right now) is read directly, so the index only
// ever narrows the search; every candidate is verified against its file.
// Names are SafeName's, which never start with '.', so .indexed collides
// with no terminal.
//
// Finding the files without an .indexed marker means listing sessions/ and
// .indexed/, which among hundreds of sessions costs as much as the rest of
// the search. So a writer that has brought the index up to date stamps it:
// it gives .indexed/ the modification time sessions/ has then. While the two
// times are equal no file has come or changed since, and a reader reads only
// the markers of its terminal. Any other change to sessions/ moves its time
// on and the reader lists both folders again.
const indexedDir = ".indexed"

// restamp stamps the index after a change of ours. If the index was fresh
// before it, it covers sessions/ now; if not, another writer changed
// sessions/ since the last stamp, and the files it left without index are
// indexed first.
func (d *Dir) restamp(wasFresh bool) {
	if wasFresh {
		// A write that changed nothing left the stamp right: no metadata
		// write then, at every event of every session.
		if !d.fresh() {
			if t, ok := d.sessionsTime(); ok {
				d.stampAt(t)
			}
		}
		return
	}
	d.repair()
}

// repair indexes the status files the index does not cover, then stamps it
// with the time sessions/ had before the listing, so that a file arriving
// meanwhile leaves the stamp stale rather than hidden.
func (d *Dir) repair() {
	t, ok := d.sessionsTime()
	if !ok {
		return
	}
	sessions, err := sessionNames(d.Path(SessionsDir))
	if err != nil {
		return
	}
	indexed, err := readNames(d.Path(TerminalsDir, indexedDir))
	if err != nil {
		return
	}
	covered := make(map[string]bool, len(indexed))
	for _, n := range indexed {
		covered[n] = true
	}
	for _, n := range sessions {
		if covered[n] {
			continue
		}
		// A file no reader can use stays uncovered: replacing it will move
		// the time of sessions/ on and make the stamp stale again.
		s, err := readStatus(d.Path(SessionsDir, n+".json"))
		if err != nil || SafeName(s.Session) != n {
			continue
		}
		if err := d.indexMarkers(s, nil); err != nil {
			return
		}
	}
	d.stampAt(t)
}

func (d *Dir) sessionsTime() (time.Time, bool) {
	fi, err := os.Lstat(d.Path(SessionsDir))
	if err != nil {
		return time.Time{}, false
	}
	return fi.ModTime(), true
}

// stampAt gives .indexed/ the time t of sessions/. A failure only costs
// readers the listing.
func (d *Dir) stampAt(t time.Time) {
	os.Chtimes(d.Path(TerminalsDir, indexedDir), t, t)
}

// fresh reports whether the index stamp matches sessions/.
func (d *Dir) fresh() bool {
	si, err := os.Lstat(d.Path(SessionsDir))
	if err != nil {
		return false
	}
	ii, err := os.Lstat(d.Path(TerminalsDir, indexedDir))
	return err == nil && ii.IsDir() && ii.ModTime().Equal(si.ModTime())
}

// checkIndexDirs refuses a write whose index folders are not safe (a
// planted link or file at terminals/<id>), before the file is replaced.
func (d *Dir) checkIndexDirs(s *Status) error {
	subs := []string{TerminalsDir, filepath.Join(TerminalsDir, indexedDir)}
	for _, t := range s.Terminals {
		subs = append(subs, filepath.Join(TerminalsDir, SafeName(t.ID)))
	}
	return d.Check(subs...)
}

// index brings the index up to date with s, just written over prev, and
// stamps it.
func (d *Dir) index(s, prev *Status, wasFresh bool) error {
	if err := d.indexMarkers(s, prev); err != nil {
		return err
	}
	d.restamp(wasFresh)
	return nil
}

// indexMarkers makes terminals/<terminal>/<session> exist for each terminal
// of s, removes those of prev that s no longer names, and marks s as indexed.
func (d *Dir) indexMarkers(s, prev *Status) error {
	name := SafeName(s.Session)
	for _, t := range s.Terminals {
		if err := d.mark(filepath.Join(TerminalsDir, SafeName(t.ID)), name); err != nil {
			return err
		}
	}
	if prev != nil {
		d.unindex(prev, s)
	}
	return d.mark(filepath.Join(TerminalsDir, indexedDir), name)
}

// mark creates the empty file sub/name under the state dir, in a safe folder,
// without following a symlink planted at its place.
func (d *Dir) mark(sub, name string) error {
	marker := d.Path(sub, name)
	if _, err := os.Lstat(marker); err == nil {
		return nil
	}
	var err error
	// Again while the folder vanishes: another session's writer or gc may
	// remove it, emptied, inside our mkdir (which then fails with EEXIST),
	// between it and our check of the folder, or before our create.
	for range 5 {
		if err = d.Ensure(TerminalsDir, sub); err == nil {
			var f *os.File
			if f, err = os.OpenFile(marker, os.O_CREATE|os.O_WRONLY|syscall.O_NOFOLLOW, 0o600); err == nil {
				return f.Close()
			}
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	return err
}

// unindex removes the markers of old that keep (if any) does not name.
func (d *Dir) unindex(old, keep *Status) {
	name := SafeName(old.Session)
	for _, t := range old.Terminals {
		if keep != nil && keep.hasTerminalDir(SafeName(t.ID)) {
			continue
		}
		dir := d.Path(TerminalsDir, SafeName(t.ID))
		if !isRealDir(dir) {
			continue // a planted link: never remove through it
		}
		os.Remove(filepath.Join(dir, name))
		os.Remove(dir) // only when empty
	}
}

// hasTerminalDir reports whether one of s's terminals has the index folder
// name; two ids may share one (SafeName("%3") == SafeName("_3")).
func (s *Status) hasTerminalDir(name string) bool {
	for _, t := range s.Terminals {
		if SafeName(t.ID) == name {
			return true
		}
	}
	return false
}

// ForTerminal finds the live session whose terminals contain id (of the
// reader's host instance, live.InTerminal); when several do, the newest
// updatedAt wins. It returns nil, nil when none does. It reads the files the
// index names for id plus any the index does not cover, and every status
// file when no index is kept. The index is by id alone: sessions in the %0
// of two tmux servers share a folder, and the few files there are told
// apart by their heads.
func (d *Dir) ForTerminal(id string, live Liveness) (*Status, error) {
	found, err := d.forTerminal(id, live, true, nil)
	if len(found) == 0 {
		return nil, err
	}
	return found[0].s, nil
}

// ForTerminalRaw is ForTerminal's file, as bytes: for a reader that passes
// the document on, it spares decoding more than the fields that pick it.
func (d *Dir) ForTerminalRaw(id string, live Liveness) ([]byte, error) {
	found, err := d.forTerminal(id, live, false, nil)
	if len(found) == 0 {
		return nil, err
	}
	return found[0].data, nil
}

type candidate struct {
	s    *Status // whole, or only the head fields
	data []byte
}

// forTerminal is every live schema-1 session in terminal id, newest first,
// each decoded whole, or only as far as picking it needs and the members
// keys name (DecodeMembers).
func (d *Dir) forTerminal(id string, live Liveness, whole bool, keys []string) ([]candidate, error) {
	if err := d.Check(SessionsDir, TerminalsDir); err != nil {
		return nil, err
	}
	names, err := d.candidates(id)
	if err != nil {
		return nil, Mark(ErrStateDir, err)
	}
	var found []candidate
	for _, name := range names {
		data, err := ReadFileNoFollow(d.Path(SessionsDir, name+".json"))
		if err != nil {
			continue
		}
		var s *Status
		if whole {
			if s, err = Decode(data); err != nil || s.Schema != Schema {
				continue
			}
		} else {
			// the fields that pick it, read off its lines, and those keys
			// name; the rest is only checked to be JSON, since it is passed
			// on as it is or not read
			h, err := headOf(data)
			if err != nil {
				continue
			}
			s = h.Status()
			if keys == nil && !validJSON(data) {
				continue
			}
			if keys != nil && decodeMembers(data, s, keys) != nil {
				continue
			}
		}
		if live.InTerminal(s, id) && live.Alive(s) {
			found = append(found, candidate{s, data})
		}
	}
	if len(found) > 1 && !whole {
		for _, c := range found { // the order needs the times, at the file's end
			json.Unmarshal(c.data, &struct {
				StartedAt *time.Time `json:"startedAt"`
				UpdatedAt *time.Time `json:"updatedAt"`
			}{&c.s.StartedAt, &c.s.UpdatedAt})
		}
	}
	sort.Slice(found, func(i, j int) bool { return newer(found[i].s, found[j].s) })
	return found, nil
}

// newer orders sessions in one terminal: the newest updatedAt, then the
// newest startedAt, then the session id, so the answer never depends on the
// order a folder lists its files in.
func newer(a, b *Status) bool {
	switch {
	case !a.UpdatedAt.Equal(b.UpdatedAt):
		return a.UpdatedAt.After(b.UpdatedAt)
	case !a.StartedAt.Equal(b.StartedAt):
		return a.StartedAt.After(b.StartedAt)
	}
	return a.Session > b.Session
}

// candidates are the session names (file names without .json) that may run
// in terminal id: those the index names for it, and, unless the index is
// freshly stamped, every file it does not cover.
func (d *Dir) candidates(id string) ([]string, error) {
	marked, err := readNames(d.Path(TerminalsDir, SafeName(id)))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if d.fresh() {
		return marked, nil
	}
	sessions, err := sessionNames(d.Path(SessionsDir))
	if err != nil || len(sessions) == 0 {
		return nil, err
	}
	indexed, err := readNames(d.Path(TerminalsDir, indexedDir))
	if errors.Is(err, fs.ErrNotExist) {
		return sessions, nil // no index kept: read them all
	}
	if err != nil {
		return nil, err
	}
	covered := make(map[string]bool, len(indexed))
	for _, n := range indexed {
		covered[n] = true
	}
	wanted := make(map[string]bool, len(marked))
	for _, n := range marked {
		wanted[n] = true
	}
	var out []string
	for _, n := range sessions {
		if wanted[n] || !covered[n] {
			out = append(out, n)
		}
	}
	return out, nil
}

// sessionNames lists the status files in a folder by session name, leaving
// out temp files (renameio's start with '.') and strangers.
func sessionNames(dir string) ([]string, error) {
	all, err := readNames(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	names := all[:0]
	for _, n := range all {
		if !strings.HasPrefix(n, ".") && strings.HasSuffix(n, ".json") {
			names = append(names, strings.TrimSuffix(n, ".json"))
		}
	}
	return names, err
}

// readNames lists a folder's names, unsorted and without a stat per name.
// It opens only a real folder: a fifo planted in its place would block the
// open, and a link would lead the reader elsewhere.
// Raw system calls, not an os.File: gc lists every terminal's folder, and
// registering each with Go's poller would cost as much as the listing.
func readNames(dir string) ([]string, error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, unix.ELOOP) {
			return nil, fmt.Errorf("%w: %s", ErrSymlink, dir)
		}
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	defer unix.Close(fd)
	var names []string
	buf := make([]byte, 8192)
	for {
		n, err := unix.ReadDirent(fd, buf)
		if err != nil {
			return nil, &fs.PathError{Op: "readdirent", Path: dir, Err: err}
		}
		if n <= 0 {
			return names, nil
		}
		_, _, names = unix.ParseDirent(buf[:n], -1, names)
		if n < len(buf)-1024 {
			// Room for several more entries was left, so the kernel had no
			// more to give (it fills the buffer): this spares the empty call
			// that would say so, for each of the many small terminal folders.
			// Were a file system to stop short, a stale marker would wait for
			// the next gc; readers check every marker against its file anyway.
			return names, nil
		}
	}
}

// isRealDir reports whether p is a folder itself, not a link to one.
func isRealDir(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.IsDir()
}
