package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"jig/exit"
	"jig/hot"
	"jig/internal/fixtures"
	"jig/status"
)

// counted is what pi/transcript/testdata/count.py says of a transcript: how
// many outputs and recent calls it has.
func counted(t *testing.T, name string) (outputs, recent int) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixtures.Testdata(t), "expected", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var want struct {
		Outputs []json.RawMessage `json:"outputs"`
		Recent  []json.RawMessage `json:"recent"`
	}
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	return min(len(want.Outputs), status.MaxOutputsPerKind), len(want.Recent)
}

// TestRealTranscriptsWrite runs `jig session write --transcript` on each
// transcript fixture (the extra corpus too when JIG_PI_SESSIONS names it)
// and holds the status file to what `jig pi show --json`
// says of the same file, and shows that no argument value of any tool call
// (commands, contents, paths read or searched) reaches the status file: only
// the paths of outputs may.
func TestRealTranscriptsWrite(t *testing.T) {
	for _, fx := range fixtures.All(t) {
		name, f := fx.Name, fx.Path
		t.Run(name, func(t *testing.T) {
			state := t.TempDir()
			getenv := func(k string) string {
				if k == "JIG_STATE_DIR" {
					return state
				}
				return os.Getenv(k)
			}
			jig := func(stdin string, args ...string) []byte {
				t.Helper()
				var out, errb bytes.Buffer
				e := &env{Env: &hot.Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Getenv: getenv,
					Now: func() time.Time { return time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC) }, Hostname: os.Hostname}}
				if code := run(append([]string{"jig"}, args...), e); code != exit.OK {
					t.Fatalf("jig %v: exit %d: %s", args, code, errb.String())
				}
				return out.Bytes()
			}
			jig("{}", "session", "write", "--session", name, "--pid", "1", "--transcript", f)
			file, err := os.ReadFile(filepath.Join(state, "sessions", name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var got struct {
				Model    json.RawMessage `json:"model"`
				Thinking string          `json:"thinking"`
				Usage    json.RawMessage `json:"usage"`
				Context  struct {
					Tokens *int64 `json:"tokens"`
				} `json:"context"`
				Outputs []map[string]any `json:"outputs"`
				Recent  []map[string]any `json:"recent"`
			}
			if err := json.Unmarshal(file, &got); err != nil {
				t.Fatal(err)
			}
			var want struct {
				Model         json.RawMessage  `json:"model"`
				Thinking      string           `json:"thinking"`
				Usage         json.RawMessage  `json:"usage"`
				ContextTokens *int64           `json:"contextTokens"`
				Outputs       []map[string]any `json:"outputs"`
				Recent        []map[string]any `json:"recent"`
			}
			if err := json.Unmarshal(jig("", "pi", "show", "--json", f), &want); err != nil {
				t.Fatal(err)
			}
			same := func(what string, a, b any) {
				if !reflect.DeepEqual(a, b) {
					t.Errorf("%s: session write says %v, pi show %v", what, a, b)
				}
			}
			same("model", compact(got.Model), compact(want.Model))
			same("thinking", got.Thinking, want.Thinking)
			same("usage", compact(got.Usage), compact(want.Usage))
			same("context tokens", deref(got.Context.Tokens), deref(want.ContextTokens))
			same("outputs", sameTimes(got.Outputs), sameTimes(want.Outputs))
			same("recent", sameTimes(got.Recent), sameTimes(want.Recent))
			if outputs, recent := counted(t, name); len(got.Outputs) != outputs || len(got.Recent) != recent {
				t.Errorf("%d outputs, %d recent calls; the independent count says %d, %d", len(got.Outputs), len(got.Recent), outputs, recent)
			}

			// What the status file may name by design: the outputs' paths,
			// the session's cwd and transcript. Blank them, then look for
			// every argument value in what is left.
			rest := string(file)
			var named struct {
				CWD         string `json:"cwd"`
				SessionFile string `json:"sessionFile"`
			}
			json.Unmarshal(file, &named)
			for _, o := range got.Outputs {
				rest = strings.ReplaceAll(rest, o["path"].(string), "")
			}
			rest = strings.ReplaceAll(rest, named.SessionFile, "")
			rest = strings.ReplaceAll(rest, named.CWD, "")
			values := argumentValues(t, f)
			if len(got.Recent) > 0 && len(values) == 0 {
				t.Fatal("no argument values found in a session with tool calls: the scan is broken")
			}
			for v := range values {
				if strings.Contains(rest, v) {
					t.Errorf("status file holds an argument value: %.80q", v)
				}
			}
		})
	}
}

// argumentValues is every string argument of every tool call in the file,
// 8 characters or more and as JSON text, so a match is a real leak and not
// a common word or a JSON key.
func argumentValues(t *testing.T, file string) map[string]bool {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	values := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var e struct {
			Message struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue
		}
		var blocks []struct {
			Type      string         `json:"type"`
			Arguments map[string]any `json:"arguments"`
			Input     map[string]any `json:"input"`
		}
		if json.Unmarshal(e.Message.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			if b.Type != "toolCall" && b.Type != "tool_use" {
				continue
			}
			args := b.Arguments
			if args == nil {
				args = b.Input
			}
			for _, v := range args {
				if s, ok := v.(string); ok {
					enc, _ := json.Marshal(s)
					if enc = enc[1 : len(enc)-1]; len(enc) >= 8 {
						values[string(enc)] = true
					}
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return values
}
func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	json.Compact(&b, raw)
	return b.String()
}

func deref(p *int64) any {
	if p == nil {
		return nil
	}
	return *p
}

// sameTimes makes the "at" of each item an instant, so the status file's
// second precision and the transcript's milliseconds compare as the same
// moment only when they are.
func sameTimes(items []map[string]any) []map[string]any {
	for _, it := range items {
		if s, ok := it["at"].(string); ok {
			if at, err := time.Parse(time.RFC3339Nano, s); err == nil {
				it["at"] = at.UTC().Format(time.RFC3339Nano)
			}
		}
	}
	return items
}
