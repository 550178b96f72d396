package chat

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"jig/status"
)

const fixture = "testdata/session.jsonl"

// TestReadsRecord reads a record in Gemini CLI 0.61.0's shape (lines as
// the real CLI wrote them, values replaced by markers): every model
// message counted once with its latest tokens though it is written twice,
// the latest model and reply's input, each call once by its id with its
// outcome, and the files the successful ones wrote.
func TestReadsRecord(t *testing.T) {
	r := NewReader(fixture)
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	if got, want := r.Totals(), (Tokens{Input: 600, Output: 20, Cached: 120, Thoughts: 5, Tool: 4, Total: 629}); got != want {
		t.Errorf("totals %+v, want %+v", got, want)
	}
	d := r.Derive(nil)
	if want := (status.Usage{Input: 600 - 120 + 4, Output: 20 + 5, CacheRead: 120}); d.Usage != want {
		t.Errorf("usage %+v, want %+v", d.Usage, want)
	}
	if d.Model == nil || *d.Model != (status.Model{Provider: "google", ID: "gemini-2.5-pro", Name: "gemini-2.5-pro"}) {
		t.Errorf("model %+v", d.Model)
	}
	if d.ContextTokens == nil || *d.ContextTokens != 300 {
		t.Errorf("context %v", d.ContextTokens)
	}
	if d.Header.ID != "a470ab55-bebe-4069-864c-6e0197715add" || d.Header.Timestamp != "2026-12-01T20:21:05.840Z" {
		t.Errorf("header %+v", d.Header)
	}
	var calls []string
	for _, c := range d.Recent {
		calls = append(calls, c.Tool+":"+c.Action+":"+c.Outcome)
	}
	if got, want := strings.Join(calls, " "), "write_file:write:error replace:edit:ok write_file:write:ok run_shell_command:run:ok"; got != want {
		t.Errorf("recent %s, want %s", got, want)
	}
	var outs []string
	for _, o := range d.Outputs {
		outs = append(outs, o.Path+":"+o.Action)
	}
	if got, want := strings.Join(outs, " "), "/work/p/old.txt:changed /work/p/hello.txt:created"; got != want {
		t.Errorf("outputs %s, want %s", got, want)
	}
	if got := strings.Join(r.Called(), ","); got != "run_shell_command,write_file,replace" {
		t.Errorf("called %s", got)
	}
	if d.Entries != 12 || d.Skipped != 0 {
		t.Errorf("entries %d skipped %d", d.Entries, d.Skipped)
	}
}

// TestCursorHoldsNoValues: the cursor keeps hashes of ids, names, paths
// written and numbers; no prompt, content, argument, output or id.
func TestCursorHoldsNoValues(t *testing.T) {
	r := NewReader(fixture)
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	c, err := r.MarshalCursor()
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"SECRET", "66a95389", "run_shell_command_1796156465906_0", "write_file_2", "d04923d3"} {
		if strings.Contains(string(c), bad) {
			t.Errorf("cursor holds %q: %s", bad, c)
		}
	}
}

// TestReadInPieces reads the record as Gemini appends it, a hook at a time
// (the cursor saved and restored between reads, a line cut in two along
// the way), and finds what one read of the whole says; a hook that finds
// nothing appended has the record current.
func TestReadInPieces(t *testing.T) {
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	whole := NewReader(fixture)
	whole.Update()
	path := filepath.Join(t.TempDir(), "session.jsonl")
	var cursor []byte
	for i := 0; i < len(data); i += 97 {
		appendTo(t, path, data[i:min(i+97, len(data))])
		r := NewReader(path)
		if cursor != nil {
			if r, err = RestoreReader(path, cursor); err != nil {
				t.Fatal(err)
			}
		}
		if err := r.Update(); err != nil {
			t.Fatal(err)
		}
		if cursor, err = r.MarshalCursor(); err != nil {
			t.Fatal(err)
		}
	}
	if !Current(path, cursor) {
		t.Error("not current after the last read")
	}
	r, _ := RestoreReader(path, cursor)
	got, want := r.Derive(nil), whole.Derive(nil)
	got.File = want.File
	if !reflect.DeepEqual(got, want) {
		t.Errorf("in pieces:\n%+v\nwhole:\n%+v", got, want)
	}
	appendTo(t, path, []byte(`{"$rewindTo":"2fefeec5-9500-46ed-b109-308e947942e8"}`+"\n"+
		`{"$set":{"messages":[{"id":"66a95389-71ba-4dfc-81d1-e9b96b406d85","type":"gemini","tokens":{"input":100,"output":7,"total":107}}]}}`+"\n"))
	if Current(path, cursor) {
		t.Error("current after an append")
	}
	r.Update()
	if d := r.Derive(nil); d.ContextTokens != nil || d.Usage != want.Usage {
		t.Errorf("after a rewind and a restated history: context %v (want unknown), usage %+v (spent stays, nothing twice)", d.ContextTokens, d.Usage)
	}
}

// TestReplacedRecordReadAgain: a record rewritten in place (Gemini CLI
// rewrites a file it could not read) is read from the start, not added to
// what the cursor knew; a foreign cursor is refused.
func TestReplacedRecordReadAgain(t *testing.T) {
	data, _ := os.ReadFile(fixture)
	path := filepath.Join(t.TempDir(), "session.jsonl")
	appendTo(t, path, data)
	r := NewReader(path)
	r.Update()
	cursor, _ := r.MarshalCursor()
	lines := strings.SplitAfter(string(data), "\n")
	tmp := path + ".tmp"
	os.WriteFile(tmp, []byte(strings.Join(lines[:5], "")+strings.Repeat(" ", 10)+"\n"+strings.Join(lines[5:], "")), 0o600)
	os.Rename(tmp, path)
	r, err := RestoreReader(path, cursor)
	if err != nil {
		t.Fatal(err)
	}
	r.Update()
	if got := r.Totals(); got.Input != 600 {
		t.Errorf("after the rewrite: input %d, want 600", got.Input)
	}
	if _, err := RestoreReader(path+"x", cursor); err == nil {
		t.Error("a cursor for another file was taken")
	}
	if _, err := RestoreReader(path, []byte(`{"kind":"codex","format":1,"path":"`+path+`"}`)); err == nil {
		t.Error("another agent's cursor was taken")
	}
}

// TestListsAndFinds lists records under a Gemini folder with the project's
// folder from .project_root, and finds one by its id's start.
func TestListsAndFinds(t *testing.T) {
	home := t.TempDir()
	chats := filepath.Join(home, "tmp", "proj", "chats")
	os.MkdirAll(chats, 0o700)
	os.WriteFile(filepath.Join(home, "tmp", "proj", rootFile), []byte("/src/proj\n"), 0o600)
	data, _ := os.ReadFile(fixture)
	os.WriteFile(filepath.Join(chats, "session-2026-12-01T20-21-a470ab55.jsonl"), data, 0o600)
	os.WriteFile(filepath.Join(chats, "session-2026-12-01T20-22-00000000.jsonl"), []byte("not a record\n"), 0o600)
	list, err := List(home)
	if err != nil || len(list) != 1 {
		t.Fatalf("list: %v %+v", err, list)
	}
	if in := list[0]; in.ID != "a470ab55-bebe-4069-864c-6e0197715add" || in.CWD != "/src/proj" || in.Started == "" {
		t.Errorf("info %+v", in)
	}
	if f, err := Find("a470ab55", home); err != nil || f != list[0].File {
		t.Errorf("find: %q %v", f, err)
	}
	if _, err := Show(filepath.Join(chats, "session-2026-12-01T20-22-00000000.jsonl")); err == nil {
		t.Error("show took a file that is no record")
	}
}

func appendTo(t *testing.T, path string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(b)
	f.Close()
}

// TestHostileCounts: counts below zero give usage and context a status
// file takes (none below zero); a line of another shape is skipped whole.
func TestHostileCounts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "session.jsonl")
	appendTo(t, path, []byte(`{"sessionId":"s","projectHash":"h"}`+"\n"+
		`{"id":"m","type":"gemini","tokens":{"input":-5,"output":-7,"cached":-9,"thoughts":-1,"tool":-3,"total":-20}}`+"\n"+
		`{"id":"n","type":"gemini","tokens":"many","toolCalls":[{"name":"x"}]}`+"\n"))
	r := NewReader(path)
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	d := r.Derive(nil)
	if u := d.Usage; u.Input < 0 || u.Output < 0 || u.CacheRead < 0 || d.ContextTokens != nil {
		t.Errorf("usage %+v, context %v", u, d.ContextTokens)
	}
	if d.Skipped != 1 || len(d.Recent) != 0 {
		t.Errorf("skipped %d, recent %+v: the line of another shape was not skipped whole", d.Skipped, d.Recent)
	}
}
