package claude

import (
	"encoding/json"
	"os"
	"time"

	"jig/request"
	"jig/status"
)

// SwitchesDir keeps each Claude session's switches beyond its status file,
// which goes at SessionEnd: `claude --continue` or `--resume` of the
// session gets them back. Pi keeps its switches in its own transcript;
// Claude's transcript is Claude's alone to write.
const SwitchesDir = "claude-switches"

// switchesKept is how long a session's switches wait for it to resume.
const switchesKept = 30 * 24 * time.Hour

func (w *Writer) switchesPath(session string) string {
	return w.Dir.Path(SwitchesDir, status.SafeName(session)+".json")
}

// keptSwitches are the switches a session's earlier run kept, or none.
func (w *Writer) keptSwitches(session string) status.Switches {
	sw := status.Switches{Tools: map[string]bool{}, Skills: map[string]bool{}}
	if w.Dir.Check(SwitchesDir) != nil {
		return sw
	}
	data, err := status.ReadFileNoFollow(w.switchesPath(session))
	if err != nil {
		return sw
	}
	var kept status.Switches
	if json.Unmarshal(data, &kept) == nil {
		for name, on := range kept.Tools {
			if len(sw.Tools) < status.MaxSwitches && request.CheckName(name) == nil {
				sw.Tools[name] = on
			}
		}
		for name, on := range kept.Skills {
			if len(sw.Skills) < status.MaxSwitches && request.CheckName(name) == nil {
				sw.Skills[name] = on
			}
		}
	}
	return sw
}

// keepSwitches saves a session's switches for its next run.
func (w *Writer) keepSwitches(session string, sw status.Switches) {
	data, err := json.Marshal(sw)
	if err != nil || w.Dir.Ensure(SwitchesDir) != nil {
		return
	}
	status.WriteFileAtomic(w.switchesPath(session), data)
}

// pruneSwitches removes the switches of sessions not resumed for 30 days.
func (w *Writer) pruneSwitches(now time.Time) {
	if w.Dir.Check(SwitchesDir) != nil {
		return
	}
	des, err := os.ReadDir(w.Dir.Path(SwitchesDir))
	if err != nil {
		return
	}
	for _, de := range des {
		if fi, err := de.Info(); err == nil && now.Sub(fi.ModTime()) > switchesKept {
			os.Remove(w.Dir.Path(SwitchesDir, de.Name()))
		}
	}
}
