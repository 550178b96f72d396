package status

import (
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Dir is the state dir: sessions/ holds the status files, requests/ the
// request files, terminals/ the index from terminal id to sessions.
type Dir struct {
	Root string
	// Changed, when set, is told of each write that changed a session's
	// file (prev nil for a new one) and of each removal (next nil), under
	// the session's lock: it must not block (cmd/jig sets herdr1.Reporter).
	Changed func(prev, next *Status)
}

// ErrUnsafeDir is returned for a state dir that another user owns or that
// others may write: jig neither writes there nor trusts what it reads.
var ErrUnsafeDir = errors.New("unsafe state dir")

// Locate finds the state dir: $JIG_STATE_DIR, else
// ${XDG_STATE_HOME:-~/.local/state}/jig. It creates nothing.
func Locate(getenv func(string) string) (*Dir, error) {
	if d := getenv("JIG_STATE_DIR"); d != "" {
		return &Dir{Root: filepath.Clean(d)}, nil
	}
	if x := getenv("XDG_STATE_HOME"); x != "" && filepath.IsAbs(x) {
		return &Dir{Root: filepath.Join(x, "jig")}, nil
	}
	home := getenv("HOME")
	if home == "" {
		return nil, markf(ErrStateDir, "no state dir: set JIG_STATE_DIR, XDG_STATE_HOME or HOME")
	}
	return &Dir{Root: filepath.Join(home, ".local", "state", "jig")}, nil
}

// Sub-folders of the state dir.
const (
	SessionsDir  = "sessions"
	RequestsDir  = "requests"
	TerminalsDir = "terminals"
)

// Path is a folder (or file) under the state dir.
func (d *Dir) Path(elem ...string) string {
	return filepath.Join(append([]string{d.Root}, elem...)...)
}

// SessionPath is the status file of a session id.
func (d *Dir) SessionPath(session string) string {
	return d.Path(SessionsDir, SafeName(session)+".json")
}

// Ensure creates the state dir and the named sub-folders with mode 0700
// whatever the umask, and refuses a dir that is not safe.
func (d *Dir) Ensure(subs ...string) error {
	for _, p := range append([]string{d.Root}, subs...) {
		if p != d.Root {
			p = d.Path(p)
		}
		if err := os.MkdirAll(p, 0o700); err != nil {
			return err
		}
		if err := checkDir(p, true); err != nil {
			return err
		}
	}
	return nil
}

// Check refuses an existing state dir (or sub-folder) owned by another user
// or writable by others, and one that cannot be read (ErrStateDir). A
// missing one is fine: it has nothing to read.
func (d *Dir) Check(subs ...string) error {
	for _, p := range append([]string{d.Root}, subs...) {
		if p != d.Root {
			p = d.Path(p)
		}
		if err := checkDir(p, false); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return Mark(ErrStateDir, err)
		}
	}
	return nil
}

// checkDir verifies a folder: a real directory (no symlink), ours, not
// writable by group or others (whoever could write there could have planted
// anything). With fix, a folder of ours that others may only read or enter
// is tightened to 0700.
func checkDir(p string, fix bool) error {
	fi, err := os.Lstat(p)
	if err != nil {
		return err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("%w: %s is a symlink; jig follows none in its state dir", ErrUnsafeDir, p)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%w: %s is not a directory", ErrUnsafeDir, p)
	}
	if uid, ok := ownerOf(fi); ok && uid != myUID() {
		return fmt.Errorf("%w: %s is owned by uid %d, not %d", ErrUnsafeDir, p, uid, myUID())
	}
	perm := fi.Mode().Perm()
	if perm&0o022 != 0 {
		return fmt.Errorf("%w: %s is writable by others (mode %o)", ErrUnsafeDir, p, perm)
	}
	if fix && perm&0o077 != 0 {
		return os.Chmod(p, 0o700)
	}
	return nil
}

// maxName keeps a safe name, its ".json" and a temp file's prefix and suffix
// under the usual 255-byte name limit.
const maxName = 200

// SafeName turns an id into a file name. An id of letters, digits, '.', '-'
// and '_' that does not start with '.' is its own name (every UUID). Any
// other id has its other characters turned into '_' (and a leading '_'
// added when it would be empty or hidden), then '~' and a hash of the whole
// id appended: '~' is never in a plain name, so "a/b" and "a b" and the plain
// "a_b" get three names, and no session can take over another's file. An
// over-long name is cut and given the hash the same way.
func SafeName(id string) string {
	var b strings.Builder
	replaced := false
	for _, r := range id {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
			replaced = true
		}
	}
	name := b.String()
	if name == "" || name[0] == '.' {
		name = "_" + name
		replaced = true
	}
	if !replaced && len(name) <= maxName {
		return name
	}
	// FNV, not SHA-256: the crypto packages would cost every reader's
	// start-up, and a writer never merges over another id's file anyway
	// (Dir.Update).
	h := fnv.New64a()
	h.Write([]byte(id))
	sum := hex.EncodeToString(h.Sum(nil))
	return name[:min(len(name), maxName-len(sum)-1)] + "~" + sum
}
