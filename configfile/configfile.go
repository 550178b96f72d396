// Package configfile is the one rule by which every installer edits a file
// of the user's (an agent's settings, a host's config): read through a
// link to the file it names, refused whole when it is read-only or not a
// regular file, written back in one step with its mode, and, for JSON, no
// key that the program reading it would take otherwise than jig does.
package configfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"jig/status"
)

// File is a user's config file as read for an edit.
type File struct {
	Path   string      // the path given
	Target string      // the file edited: the path, or what its link names
	Linked bool        // Path is a link (a dotfiles manager's): the link stays, its target is edited
	Data   []byte      // its bytes; nil when it does not exist
	Perm   fs.FileMode // its mode; 0 when it does not exist
}

// ReadOnlyError is a config file whose mode says nobody may write it: jig
// leaves it as it is, whoever runs jig (root writes anywhere, but a file
// made read-only, by hand or by a manager such as home-manager, is one its
// owner wants left alone).
type ReadOnlyError struct {
	Path string
	Perm fs.FileMode
}

func (e *ReadOnlyError) Error() string {
	return fmt.Sprintf("%s is read-only (mode %04o): jig leaves it as it is; make it writable and run again", e.Path, e.Perm)
}

// Is makes a refused file bad input (exit 4).
func (e *ReadOnlyError) Is(target error) bool { return target == status.ErrBadInput }

// Read reads path for an edit: through a link to its target, bounded, only
// a regular file; a missing file (or link target) is a File with nil Data.
func Read(path string) (File, error) {
	f := File{Path: path, Target: path}
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		f.Linked = true
		target, err := filepath.EvalSymlinks(path)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				return File{}, err
			}
			// a dangling link: the file it names is made where it points
			if target, err = os.Readlink(path); err != nil {
				return File{}, err
			}
			if !filepath.IsAbs(target) {
				target = filepath.Join(filepath.Dir(path), target)
			}
			f.Target = target
			return f, nil
		}
		f.Target = target
	}
	data, err := status.ReadFileNoFollow(f.Target)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return File{}, err
	}
	fi, err := os.Stat(f.Target)
	if err != nil {
		return File{}, err
	}
	f.Data, f.Perm = data, fi.Mode().Perm()
	if f.Perm&0o222 == 0 {
		return File{}, &ReadOnlyError{Path: f.Target, Perm: f.Perm}
	}
	return f, nil
}

// Write replaces the file's content in one step (a temp file beside the
// target, then a rename), keeping its mode; a new file gets perm, and a
// folder made for it the same with x where it has r (0600: 0700).
func (f File) Write(data []byte, perm fs.FileMode) error {
	if f.Data != nil {
		perm = f.Perm
	}
	if err := os.MkdirAll(filepath.Dir(f.Target), perm|(perm&0o444)>>2); err != nil {
		return err
	}
	if err := status.WriteFileAtomic(f.Target, data); err != nil {
		return err
	}
	return os.Chmod(f.Target, perm)
}

// Remove removes the file jig's edit left with nothing of the user's; a
// link to it stays, dangling, as it was before jig made its target.
func (f File) Remove() error {
	if err := os.Remove(f.Target); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
