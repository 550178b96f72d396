package claude

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"jig/status"
)

// FuzzSettings: whatever the user's settings file holds, jig's merge never
// panics; it refuses what is not a settings object, a second install
// changes nothing, and uninstall gives back what was there before.
func FuzzSettings(f *testing.F) {
	f.Add([]byte(`{"model":"opus","hooks":{"Stop":[{"hooks":[{"type":"command","command":"notify"}]}]},"statusLine":{"type":"command","command":"mine"}}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[]}],"Stop":null}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		out, _, _, err := Install(data, "/usr/local/bin/jig")
		if err != nil {
			return // refused whole
		}
		if !json.Valid(out) {
			t.Fatalf("install wrote no JSON:\n%s", out)
		}
		again, changed, _, err := Install(out, "/usr/local/bin/jig")
		if err != nil || changed || !bytes.Equal(again, out) {
			t.Fatalf("a second install: changed %v, %v", changed, err)
		}
		back, _, err := Uninstall(out)
		if err != nil {
			t.Fatalf("uninstall of jig's own install: %v", err)
		}
		if !json.Valid(back) || !sameSettings(t, back, data) {
			t.Fatalf("uninstall gave\n%s\nfor\n%s", back, data)
		}
	})
}

// sameSettings compares two settings files as JSON, an empty hooks object,
// an empty list or a null being the same as none.
func sameSettings(t *testing.T, a, b []byte) bool {
	if len(bytes.TrimSpace(b)) == 0 {
		b = []byte(`{}`) // an empty file is an empty settings object
	}
	var x, y map[string]any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(prune(x), prune(y))
}

func prune(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			e = prune(e)
			if m, ok := e.(map[string]any); ok && len(m) == 0 && k == "hooks" {
				continue
			}
			if l, ok := e.([]any); (ok && len(l) == 0 && k != "hooks") || e == nil {
				continue
			}
			out[k] = e
		}
		return out
	case []any:
		out := []any{}
		for _, e := range v {
			out = append(out, prune(e))
		}
		return out
	}
	return v
}

// FuzzHook: whatever JSON a hook is given, it never panics, and the status
// file it leaves (if any) is one every reader takes.
func FuzzHook(f *testing.F) {
	for _, ev := range Events {
		f.Add([]byte(`{"session_id":"s1","hook_event_name":"` + ev + `","cwd":"/w","tool_name":"Write","tool_use_id":"toolu_1",` +
			`"tool_input":{"file_path":"notes.txt"},"tool_response":{"type":"create"}}`))
	}
	f.Add([]byte(`{"session_id":"s1","hook_event_name":"PostToolUse","cwd":"rel","tool_name":"Edit","tool_input":{"file_path":"x"}}`))
	f.Add([]byte(`{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Skill","tool_input":{"skill":"\u001b]0;x"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := ParseInput(data)
		if err != nil {
			return // refused whole
		}
		in.TranscriptPath = "" // the reader has its own fuzz target; no file of the machine's is read here
		state := &status.Dir{Root: filepath.Join(t.TempDir(), "state")}
		w := &Writer{Dir: state, Now: time.Now, Getenv: func(string) string { return "" }, Host: "fuzz", PID: os.Getpid()}
		if _, err := w.Hook(in); err != nil {
			return // said, and nothing half done
		}
		if got, err := state.Read(in.SessionID); err == nil {
			if err := got.Validate(); err != nil {
				t.Fatalf("the file fails Validate: %v", err)
			}
		} else if !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("the file cannot be read: %v", err)
		}
	})
}

// A written path that no known folder places (no cwd, or a relative one)
// is left out of the outputs; the hook still records the event.
func TestHookUnplacedPath(t *testing.T) {
	state := &status.Dir{Root: filepath.Join(t.TempDir(), "state")}
	w := &Writer{Dir: state, Now: time.Now, Getenv: func(string) string { return "" }, Host: "h", PID: os.Getpid()}
	in, err := ParseInput([]byte(`{"session_id":"s1","hook_event_name":"PostToolUse","cwd":"rel","tool_name":"Write",` +
		`"tool_input":{"file_path":"x.txt"},"tool_response":{"type":"create"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Hook(in); err != nil {
		t.Fatalf("hook: %v", err)
	}
	s, err := state.Read("s1")
	if err != nil || s.State != status.Busy || len(s.Outputs) != 0 {
		t.Errorf("status %+v, %v; want busy and no output", s, err)
	}
}

// A hook's input may name the model and the effort as plain strings, where
// the statusLine's JSON has objects: both are read, neither refused.
func TestInputModelShapes(t *testing.T) {
	for _, data := range []string{
		`{"session_id":"s","hook_event_name":"SessionStart","model":"claude-opus-5-5","effort":"high"}`,
		`{"session_id":"s","model":{"id":"claude-opus-5-5","display_name":"Opus"},"effort":{"level":"high"}}`,
	} {
		in, err := ParseInput([]byte(data))
		if err != nil || in.Model == nil || in.Model.ID != "claude-opus-5-5" || in.Effort == nil || in.Effort.Level != "high" {
			t.Errorf("%s: %+v, %v", data, in, err)
		}
	}
	if _, err := ParseInput([]byte(`{"session_id":"s","cwd":5}`)); err == nil || err.Error() != "field cwd: number is not a string" {
		t.Errorf("a wrong-typed field: %v", err)
	}
}
