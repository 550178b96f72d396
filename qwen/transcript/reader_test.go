package transcript

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"jig/status"
)

// print.jsonl is what the real Qwen Code 0.24.4 wrote for `qwen --yolo -p`
// against the scripted server: a shell call, a write_file creating
// /src/demo/hello.txt, and a reply (usage 100/10/20, 200/20/30, 300/5/40
// prompt/completion/cached), paths moved to /src/demo.
const fixture = "testdata/print.jsonl"

func TestReadsTheRealTranscript(t *testing.T) {
	r := NewReader(fixture)
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	d := r.Derive(nil)
	if d.Header.ID != "0648d245-c9bf-40f5-8303-3b75100bb355" || d.Header.CWD != "/src/demo" || d.Entries != 13 || d.Skipped != 0 {
		t.Errorf("header %+v, %d entries, %d skipped", d.Header, d.Entries, d.Skipped)
	}
	if d.Model == nil || d.Model.ID != "mock-model" || d.Model.Provider != Provider {
		t.Errorf("model %+v", d.Model)
	}
	want := status.Usage{Input: 80 + 170 + 260, Output: 35, CacheRead: 90}
	if d.Usage != want {
		t.Errorf("usage %+v, want %+v (cost null: no prices)", d.Usage, want)
	}
	if d.ContextTokens == nil || *d.ContextTokens != 300 {
		t.Errorf("context %v, want the last prompt's 300", d.ContextTokens)
	}
	if len(d.Recent) != 2 || d.Recent[0].Tool != "write_file" || d.Recent[0].Action != "write" || d.Recent[0].Outcome != status.OK ||
		d.Recent[1].Tool != "run_shell_command" || d.Recent[1].Action != "run" || d.Recent[1].Outcome != status.OK {
		t.Errorf("recent %+v", d.Recent)
	}
	if len(d.Outputs) != 1 || d.Outputs[0].Path != "/src/demo/hello.txt" || d.Outputs[0].Action != status.Created {
		t.Errorf("outputs %+v", d.Outputs)
	}
	if !r.TurnEnded() || !reflect.DeepEqual(r.Called(), []string{"run_shell_command", "write_file"}) {
		t.Errorf("turn ended %v, called %v", r.TurnEnded(), r.Called())
	}
}

// A listing reads the head: the session, its start and folder; a fifo
// does not block it, a file that names no session is none.
func TestReadInfo(t *testing.T) {
	in, err := ReadInfo(fixture)
	if err != nil || in == nil || in.ID != "0648d245-c9bf-40f5-8303-3b75100bb355" || in.CWD != "/src/demo" || in.Started != "2026-12-01T20:19:43.636Z" {
		t.Fatalf("%+v, %v", in, err)
	}
	dir := t.TempDir()
	fifo, notes := filepath.Join(dir, "fifo.jsonl"), filepath.Join(dir, "notes.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(notes, []byte("notes\n{\"a\":1}\n"), 0o600)
	for _, p := range []string{fifo, notes} {
		if in, err := ReadInfo(p); in != nil || err != nil {
			t.Errorf("%s: %+v, %v", p, in, err)
		}
	}
}

// Read a line at a time, each step from the cursor the last one saved (as
// one hook process after another does), the transcript derives what one
// read does; the cursor holds no argument value; a cursor that read
// nothing new has not moved.
func TestCursorCarriesOn(t *testing.T) {
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "s.jsonl")
	var cur []byte
	for _, line := range bytes.SplitAfter(data, []byte("\n")) {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		f.Write(line)
		f.Close()
		r := NewReader(path)
		if cur != nil {
			if r, err = RestoreReader(path, cur); err != nil {
				t.Fatal(err)
			}
		}
		if err := r.Update(); err != nil {
			t.Fatal(err)
		}
		if cur, err = r.MarshalCursor(); err != nil {
			t.Fatal(err)
		}
		for _, value := range []string{"echo hi", "hello\\n", "do it", "done"} {
			if strings.Contains(string(cur), value) {
				t.Fatalf("the cursor holds %q: %s", value, cur)
			}
		}
	}
	r, err := RestoreReader(path, cur)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Update(); err != nil || r.Moved() {
		t.Errorf("nothing new: moved %v, %v", r.Moved(), err)
	}
	whole := NewReader(fixture)
	whole.Update()
	got, want := r.Derive(nil), whole.Derive(nil)
	got.File = want.File
	if !reflect.DeepEqual(got, want) {
		t.Errorf("line by line:\n%+v\nwhole:\n%+v", got, want)
	}
	if _, err := RestoreReader(filepath.Join(t.TempDir(), "other.jsonl"), cur); err == nil {
		t.Error("a cursor of another file was taken")
	}
	// the file rewritten before the cursor: read afresh
	os.WriteFile(path, []byte(strings.Repeat("x", len(data))+"\n"), 0o600)
	if err := r.Update(); err != nil || r.SessionID() != "" {
		t.Errorf("after a rewrite: session %q, %v", r.SessionID(), err)
	}
}

// A relative path with no folder to place it in is no output: the status
// file takes placed paths only.
// TestCursorStateDecodedLate: a restored cursor's state is decoded only
// when the reader reads on or is asked; one that does not decode, or is
// out of range, is read afresh then; a call's outcome is read from the
// calls alone.
func TestCursorStateDecodedLate(t *testing.T) {
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(path, data, 0o600)
	whole := NewReader(path)
	if err := whole.Update(); err != nil {
		t.Fatal(err)
	}
	want := whole.Derive(nil)
	cur, _ := whole.MarshalCursor()
	head, _, _ := strings.Cut(string(cur), "\n")
	many := `{"calls":[` + strings.TrimSuffix(strings.Repeat(`{"id":"c"},`, status.MaxRecent+1), ",") + `]}`
	for _, state := range []string{`{"entries":"many"}`, many} {
		r, err := RestoreReader(path, []byte(head+"\n"+state))
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Update(); err != nil {
			t.Fatal(err)
		}
		if got := r.Derive(nil); !reflect.DeepEqual(got, want) {
			t.Errorf("state %.30s: derived\n%+v\nwant\n%+v", state, got, want)
		}
	}
	for _, id := range []string{"call_1", "none"} {
		lazy, _ := RestoreReader(path, cur)
		if got, want := lazy.Outcome(id), whole.Outcome(id); got != want || !lazy.lazy.Waiting() {
			t.Errorf("outcome of %s from a lazy state: %q, want %q (still lazy: %v)", id, got, want, lazy.lazy.Waiting())
		}
	}
}

func TestUnplacedPathIsNoOutput(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(path, []byte(`{"sessionId":"s","type":"assistant","message":{"parts":[{"functionCall":{"id":"a","name":"write_file","args":{"file_path":"rel.txt"}}}]}}`+"\n"+
		`{"type":"tool_result","message":{"parts":[{"functionResponse":{"id":"a","response":{"output":"ok"}}}]}}`+"\n"), 0o600)
	r := NewReader(path)
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	if d := r.Derive(nil); len(d.Outputs) != 0 || len(d.Recent) != 1 || d.Recent[0].Outcome != status.OK {
		t.Errorf("outputs %+v, recent %+v", d.Outputs, d.Recent)
	}
}

// A write that fails makes no output, and its call is an error; an edit of
// a file created earlier keeps it created; a compression forgets the
// context until the next reply.
func TestFailuresEditsAndCompression(t *testing.T) {
	lines := []string{
		`{"sessionId":"s","cwd":"/w","type":"assistant","model":"m","message":{"parts":[{"functionCall":{"id":"a","name":"write_file","args":{"file_path":"n.txt","content":"x"}}},{"functionCall":{"id":"b","name":"write_file","args":{"file_path":"/w/bad.txt"}}}]},"usageMetadata":{"promptTokenCount":10,"candidatesTokenCount":1}}`,
		`{"type":"tool_result","message":{"parts":[{"functionResponse":{"id":"a","response":{"output":"Successfully created and wrote to new file: /w/n.txt."}}}]},"toolCallResult":{"callId":"a","status":"success"}}`,
		`{"type":"tool_result","message":{"parts":[{"functionResponse":{"id":"b","response":{"error":"denied"}}}]},"toolCallResult":{"callId":"b","status":"error"}}`,
		`{"type":"assistant","model":"m","message":{"parts":[{"functionCall":{"id":"c","name":"edit","args":{"file_path":"/w/n.txt"}}}]},"contextWindowSize":131072}`,
		`{"type":"tool_result","message":{"parts":[{"functionResponse":{"id":"c","response":{"output":"The file: /w/n.txt has been updated."}}}]},"toolCallResult":{"callId":"c","status":"success"}}`,
		`{"type":"system","subtype":"chat_compression","systemPayload":{}}`,
	}
	path := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600)
	r := NewReader(path)
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	d := r.Derive(nil)
	if len(d.Outputs) != 1 || d.Outputs[0].Path != "/w/n.txt" || d.Outputs[0].Action != status.Created {
		t.Errorf("outputs %+v", d.Outputs)
	}
	if len(d.Recent) != 3 || d.Recent[1].Outcome != status.Error || d.Recent[0].Action != "edit" {
		t.Errorf("recent %+v", d.Recent)
	}
	if d.ContextTokens != nil || r.Window() == nil || *r.Window() != 131072 {
		t.Errorf("context %v, window %v", d.ContextTokens, r.Window())
	}
}
