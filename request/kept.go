package request

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"time"

	"jig/status"
)

// Kept keeps each session's switches beyond its status file, in a folder
// of the state dir, for agents whose session file goes at session end and
// comes back when the session resumes (Claude Code, Codex): the resumed
// session gets them back. Folder is the agent's folder's name.
type Kept struct {
	Dir    *status.Dir
	Folder string
}

// KeptFor is how long a session's switches wait for it to resume.
const KeptFor = 30 * 24 * time.Hour

func (k Kept) path(session string) string {
	return k.Dir.Path(k.Folder, status.SafeName(session)+".json")
}

// File is where a session's switches are kept, for a host that reads them
// itself (OpenCode's plugin refuses a call from them).
func (k Kept) File(session string) string { return k.path(session) }

// Load is the switches a session's earlier run kept: none (and no error)
// when it kept none. A folder or file jig must not trust, or one that does
// not hold switches, is an error: a caller deciding a refusal refuses.
func (k Kept) Load(session string) (status.Switches, error) {
	sw := status.Switches{Tools: map[string]bool{}, Skills: map[string]bool{}}
	if err := k.Dir.Check(k.Folder); err != nil {
		return sw, err
	}
	data, err := status.ReadFileNoFollow(k.path(session))
	if errors.Is(err, fs.ErrNotExist) {
		return sw, nil
	} else if err != nil {
		return sw, err
	}
	var kept status.Switches
	if err := json.Unmarshal(data, &kept); err != nil {
		return sw, errors.New("kept switches: not JSON")
	}
	for name, on := range kept.Tools {
		if len(sw.Tools) < status.MaxSwitches && CheckName(name) == nil {
			sw.Tools[name] = on
		}
	}
	for name, on := range kept.Skills {
		if len(sw.Skills) < status.MaxSwitches && CheckName(name) == nil {
			sw.Skills[name] = on
		}
	}
	return sw, nil
}

// Save keeps a session's switches for its next run, in one step. What
// else the file holds (an agent's own fields beside them) stays.
func (k Kept) Save(session string, sw status.Switches) error {
	if err := k.Dir.Ensure(k.Folder); err != nil {
		return err
	}
	fields := map[string]json.RawMessage{}
	if data, err := status.ReadFileNoFollow(k.path(session)); err == nil {
		json.Unmarshal(data, &fields) // a file that is no object keeps nothing
	}
	for key, m := range map[string]map[string]bool{"tools": sw.Tools, "skills": sw.Skills} {
		if m == nil {
			m = map[string]bool{}
		}
		raw, err := json.Marshal(m)
		if err != nil {
			return err
		}
		fields[key] = raw
	}
	data, err := json.Marshal(fields)
	if err != nil {
		return err
	}
	return status.WriteFileAtomic(k.path(session), data)
}

// Prune removes the switches of sessions not resumed for KeptFor. A
// session whose status file is there is running, however long ago its
// switches changed: its switches stay (a hook decides its calls from them).
func (k Kept) Prune(now time.Time) {
	if k.Dir.Check(k.Folder) != nil {
		return
	}
	des, err := os.ReadDir(k.Dir.Path(k.Folder))
	if err != nil {
		return
	}
	for _, de := range des {
		if fi, err := de.Info(); err != nil || now.Sub(fi.ModTime()) <= KeptFor {
			continue
		}
		if _, err := os.Lstat(k.Dir.Path(status.SessionsDir, de.Name())); err == nil {
			continue // the same name as the session's status file
		}
		os.Remove(k.Dir.Path(k.Folder, de.Name()))
	}
}
