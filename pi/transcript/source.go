package transcript

import (
	"path/filepath"

	"jig/status"
	base "jig/transcript"
)

// Session is the absolute path of the Pi session file a writer reads
// (`jig session write --transcript`), and the session's id: the one given,
// else the file's header's. A file that is then no Pi session is
// status.ErrBadInput.
func Session(file, id string) (abs, session string, err error) {
	if abs, err = filepath.Abs(file); err != nil {
		return "", "", status.Mark(status.ErrBadInput, err)
	}
	if id == "" {
		h, err := ReadHeader(abs)
		if err != nil {
			return "", "", status.Mark(status.ErrBadInput, err)
		}
		id = h.ID
	}
	return abs, id, nil
}

// Source is the writer's Source for a Pi session file read by a process that
// runs once per event (`jig session write --transcript`): restored from the
// saved cursor, read on, its cursor saved when it moved. The file must be a
// Pi session, by the rule jig pi show uses (Reader.UpdateSession); a file
// that does not exist yet is fs.ErrNotExist (Pi names its session file
// before it writes it).
type Source struct{ path, home string }

// NewSource is the Source of the Pi session file at path; home expands a
// leading ~ in its tool paths.
func NewSource(path, home string) *Source {
	return &Source{path: path, home: home}
}

// Derive reads on from cursor (nil: the whole file), as writer.Source does.
func (p *Source) Derive(cursor []byte) (*base.Derived, []byte, error) {
	var r *Reader
	if cursor != nil {
		r, _ = RestoreReader(p.path, cursor) // a stale or foreign cursor is dropped
	}
	restored := r != nil
	if !restored {
		r = NewReader(p.path)
	}
	r.Home = p.home
	restoredAt := r.Offset()
	if err := r.UpdateSession(); err != nil {
		return nil, nil, err
	}
	d := r.Derive(base.NewRepoFinder().Repo)
	d.File = p.path
	if restored && r.Offset() == restoredAt {
		return &d.Derived, nil, nil // nothing new: the saved cursor stands
	}
	next, err := r.MarshalCursor()
	if err != nil {
		return nil, nil, err
	}
	return &d.Derived, next, nil
}
