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
)

// realSessions is ../shared/pi-sessions beside the repo root (CI's layout),
// or one level further up (a developer's worktree). Missing: a failure under
// CI=true, a loud skip elsewhere.
func realSessions(t *testing.T) []string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{filepath.Join(root, "..", "shared", "pi-sessions"), filepath.Join(root, "..", "..", "shared", "pi-sessions")} {
		if files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl")); len(files) > 0 {
			if len(files) != 4 {
				t.Fatalf("want the 4 real transcripts in %s, found %d", dir, len(files))
			}
			return files
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("real transcripts missing: no ../shared/pi-sessions beside %s", root)
	}
	t.Skipf("SKIPPED: real transcripts missing beside %s; CI=true makes this a failure", root)
	return nil
}

// TestRealTranscriptsWrite runs `jig session write --transcript` on each
// real transcript and holds the status file to what `jig pi show --json`
// says of the same file, and shows that no argument value of any tool call
// (commands, contents, paths read or searched) reaches the status file: only
// the paths of outputs may.
func TestRealTranscriptsWrite(t *testing.T) {
	for _, f := range realSessions(t) {
		name := strings.TrimSuffix(filepath.Base(f), ".jsonl")
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
				e := &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb, getenv: getenv,
					now: func() time.Time { return time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC) }, hostname: os.Hostname}
				if code := run(append([]string{"jig"}, args...), e); code != exitOK {
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
			if len(got.Outputs) == 0 || len(got.Recent) != 15 {
				t.Errorf("%d outputs, %d recent calls: the real sessions have outputs and more than 15 calls", len(got.Outputs), len(got.Recent))
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
			if len(values) < 50 {
				t.Fatalf("only %d argument values found: the scan is broken", len(values))
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
