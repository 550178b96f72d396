package transcript

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"jig/internal/pitest"
	"jig/internal/scriptedmodel"
)

// TestRealPi runs the real Pi (0.73.1 and 1.6.0, as .ci/provision installs
// them) against a scripted model on 127.0.0.1: one turn that writes a file,
// then a final answer. The transcript Pi writes must read back to exactly
// what the script made happen.
func TestRealPi(t *testing.T) {
	for _, v := range pitest.Versions {
		t.Run(v, func(t *testing.T) {
			pi, _ := pitest.Pi(t, v)
			runRealPi(t, pitest.Node(t), pi, v)
		})
	}
}

func runRealPi(t *testing.T, node, pi, version string) {
	// One turn: a write call, then, once its result is in, a short answer.
	srv, err := scriptedmodel.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	srv.Queue(scriptedmodel.Reply{
		ToolCalls: []scriptedmodel.ToolCall{{ID: "call_w1", Name: "write", Args: `{"path":"made.txt","content":"TOPSECRET-CONTENT"}`}},
		Usage:     scriptedmodel.Usage{Prompt: 1000, Completion: 20},
	}, scriptedmodel.Reply{Text: "done", Usage: scriptedmodel.Usage{Prompt: 1100, Completion: 5, Cached: 1000}})
	dir := t.TempDir()
	agent, work := filepath.Join(dir, "agent"), filepath.Join(dir, "work")
	os.MkdirAll(agent, 0o700)
	os.MkdirAll(work, 0o700)
	models := fmt.Sprintf(`{"providers":{"mock":{"baseUrl":%q,"api":"openai-completions","apiKey":"x",
		"models":[{"id":"mock-model","name":"Mock Model","contextWindow":128000,"maxTokens":4096,"reasoning":false,
		"input":["text"],"cost":{"input":3,"output":15,"cacheRead":0.3,"cacheWrite":3.75}}]}}}`, srv.URL)
	os.WriteFile(filepath.Join(agent, "models.json"), []byte(models), 0o600)
	os.WriteFile(filepath.Join(agent, "settings.json"), []byte(`{"retry":{"maxRetries":0,"provider":{"maxRetries":0}}}`), 0o600)

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, pi, "--provider", "mock", "--model", "mock-model", "--offline",
		"--no-extensions", "--no-skills", "--no-prompt-templates", "--no-themes", "--no-context-files",
		"--mode", "json", "write the file")
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "PI_CODING_AGENT_DIR="+agent, "PI_OFFLINE=1", "PI_CODING_AGENT_SESSION_DIR=")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("pi %s: %v\n%s", version, err, tail(out.Bytes()))
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("pi %s asked the model %d times, want 2 (the write, the answer)", version, n)
	}
	files, _ := filepath.Glob(filepath.Join(agent, "sessions", "*", "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("pi %s wrote %d session files\n%s", version, len(files), tail(out.Bytes()))
	}
	if data, _ := os.ReadFile(filepath.Join(work, "made.txt")); string(data) != "TOPSECRET-CONTENT" {
		t.Fatalf("pi %s did not run the write: %q", version, data)
	}

	if os.Getenv("JIG_SHOW_PI") != "" {
		raw, _ := os.ReadFile(files[0])
		t.Logf("%s", raw)
	}
	r := NewReader(files[0])
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	d := r.Derive(nil)
	real, _ := filepath.EvalSymlinks(work)
	eq(t, "version", d.Header.Version, 3)
	if d.Header.CWD != work && d.Header.CWD != real {
		t.Errorf("cwd %s, want %s", d.Header.CWD, work)
	}
	eq(t, "skipped", d.Skipped, 0)
	eq(t, "model", d.Model.Provider+"/"+d.Model.ID, "mock/mock-model")
	eq(t, "thinking", d.Thinking, "off")
	// input = prompt - cached; the script's two calls
	eq(t, "input", d.Usage.Input, int64(1000+100))
	eq(t, "output", d.Usage.Output, int64(25))
	eq(t, "cacheRead", d.Usage.CacheRead, int64(1000))
	eq(t, "cacheWrite", d.Usage.CacheWrite, int64(0))
	wantCost := (1000*3 + 20*15 + 100*3 + 5*15 + 1000*0.3) / 1e6
	if d.Usage.Cost == nil || math.Abs(*d.Usage.Cost-wantCost) > 1e-12 {
		t.Errorf("cost %v, want %v", ptrStr(d.Usage.Cost), wantCost)
	}
	// the last reply's tokens, nothing after it
	eq(t, "context", *d.ContextTokens, int64(100+5+1000))
	eq(t, "outputs", len(d.Outputs), 1)
	if len(d.Outputs) == 1 {
		o := d.Outputs[0]
		if (o.Path != filepath.Join(work, "made.txt") && o.Path != filepath.Join(real, "made.txt")) || o.Action != "created" {
			t.Errorf("output %+v", o)
		}
	}
	eq(t, "recent", calls(d), "write write ok")
	derived, _ := json.Marshal(d)
	cursor, _ := r.MarshalCursor()
	if bytes.Contains(derived, []byte("TOPSECRET")) || bytes.Contains(cursor, []byte("TOPSECRET")) {
		t.Errorf("the written content leaked:\n%s\n%s", derived, cursor)
	}
	// the whole file, read in pieces with the cursor saved in between, agrees
	data, _ := os.ReadFile(files[0])
	third := len(data) / 3
	sameDerived(t, "pi "+version+" in pieces", readChunked(t, data, []int{third, 2 * third}, []bool{true, true}), readChunked(t, data, nil, nil))
}

func tail(b []byte) []byte {
	if len(b) > 3000 {
		return b[len(b)-3000:]
	}
	return b
}
