package claude

import (
	"encoding/json"
	"errors"
	"io/fs"

	"jig/status"
)

// SwitchesDir keeps what each Claude session's next run gets back beyond
// its status file, which goes at SessionEnd: its switches (`claude
// --continue` or `--resume` keeps them) and the model window Claude said
// (a print-mode run, which has no statusLine, knows it from there). Pi
// keeps its switches in its own transcript; Claude's transcript is
// Claude's alone to write.
const SwitchesDir = "claude-switches"

// kept is a session's file in SwitchesDir. The switches' fields are the
// file's first shape.
type kept struct {
	status.Switches
	Model  string `json:"model,omitempty"`  // the model id Window is of
	Window int64  `json:"window,omitempty"` // its context window, as Claude's statusLine said it
}

func (w *Writer) switchesPath(session string) string {
	return w.Dir.Path(SwitchesDir, status.SafeName(session)+".json")
}

// readKept is what a session's earlier events kept; a missing file is an
// empty one, a folder or file jig must not trust an error.
func (w *Writer) readKept(session string) (kept, error) {
	var k kept
	if err := w.Dir.Check(SwitchesDir); err != nil {
		return k, err
	}
	data, err := status.ReadFileNoFollow(w.switchesPath(session))
	if errors.Is(err, fs.ErrNotExist) {
		return k, nil
	}
	if err != nil {
		return k, err
	}
	if err := json.Unmarshal(data, &k); err != nil {
		return kept{}, err
	}
	return k, nil
}

// keptWindow is the context window Claude said for the model, 0 when it
// has not.
func (w *Writer) keptWindow(session, model string) int64 {
	if k, _ := w.readKept(session); k.Model == model {
		return k.Window
	}
	return 0
}

// keepWindow saves the model's window for the session's runs to come.
func (w *Writer) keepWindow(session, model string, window int64) {
	k, _ := w.readKept(session)
	if k.Model == model && k.Window == window {
		return
	}
	k.Model, k.Window = model, window
	w.writeKept(session, k)
}

func (w *Writer) writeKept(session string, k kept) {
	data, err := json.Marshal(k)
	if err != nil || w.Dir.Ensure(SwitchesDir) != nil {
		return
	}
	status.WriteFileAtomic(w.switchesPath(session), data)
}
