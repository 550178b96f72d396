package rollout

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"jig/status"
)

// exec-resume.jsonl is a rollout the real Codex 0.169.0 wrote against the
// scripted server (long texts cut): a turn with an exec_command call and
// an apply_patch that adds notes.txt, then `codex exec resume` with effort
// high, whose command a PreToolUse hook refused.
const fixture = "testdata/exec-resume.jsonl"

// secrets are the argument values in the fixture: the command's comment
// and the file's content.
var secrets = []string{"SECRET-CMD", "SECRET-CONTENT", "EXP-PROMPT"}

func read(t *testing.T, path string) *Reader {
	t.Helper()
	r := NewReader(path)
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestDeriveFixture(t *testing.T) {
	r := read(t, fixture)
	d := r.Derive(nil)
	if d.Header.ID != "01a23111-2e5e-71a0-8cc5-ee2f0e428d55" || d.Header.CWD != "/work/shop" || d.Header.Timestamp == "" {
		t.Errorf("header %+v", d.Header)
	}
	if d.Model == nil || *d.Model != (status.Model{Provider: "mock", ID: "gpt-5.5", Name: "gpt-5.5"}) {
		t.Errorf("model %+v", d.Model)
	}
	if d.Thinking != "high" {
		t.Errorf("thinking %q, want the resumed turn's effort high", d.Thinking)
	}
	// total_token_usage of the last token_count: 10000 input of which
	// 2900 cached, 300 output; the last response's total is 3070
	if want := (status.Usage{Input: 7100, Output: 300, CacheRead: 2900}); d.Usage != want {
		t.Errorf("usage %+v, want %+v", d.Usage, want)
	}
	if d.ContextTokens == nil || *d.ContextTokens != 3070 || r.Window() == nil || *r.Window() != 258400 {
		t.Errorf("context %v of %v, want 3070 of 258400", d.ContextTokens, r.Window())
	}
	if len(d.Outputs) != 1 || d.Outputs[0].Path != "/work/shop/notes.txt" || d.Outputs[0].Action != status.Created {
		t.Errorf("outputs %+v", d.Outputs)
	}
	var got []string
	for _, c := range d.Recent {
		got = append(got, c.Tool+" "+c.Action+" "+c.Outcome)
	}
	// newest first: the refused command, the patch, the first command
	if want := "exec_command run error|apply_patch edit ok|exec_command run ok"; strings.Join(got, "|") != want {
		t.Errorf("recent %q, want %q", strings.Join(got, "|"), want)
	}
	if c := r.Called(); strings.Join(c, ",") != "exec_command,apply_patch" {
		t.Errorf("called %v", c)
	}
	if !r.Replied() || d.Skipped != 0 {
		t.Errorf("replied %v, skipped %d", r.Replied(), d.Skipped)
	}
}

// TestIncrementalEqualsWhole reads the fixture line by line, saving and
// restoring the cursor between lines as hooks do, and gets what one read
// of the whole file gets; no cursor holds a value.
func TestIncrementalEqualsWhole(t *testing.T) {
	whole := read(t, fixture).Derive(nil)
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "rollout.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cursor []byte
	for _, l := range bytes.SplitAfter(data, []byte("\n")) {
		// half a line first: left for later
		f.Write(l[:len(l)/2])
		r := restore(t, path, cursor)
		cursor = update(t, r)
		f.Write(l[len(l)/2:])
		r = restore(t, path, cursor)
		cursor = update(t, r)
		noValues(t, "cursor", cursor)
	}
	got := restore(t, path, cursor).Derive(nil)
	got.File = whole.File
	if got, want := js(got), js(whole); got != want {
		t.Errorf("incremental:\n%s\nwhole:\n%s", got, want)
	}
}

func restore(t *testing.T, path string, cursor []byte) *Reader {
	t.Helper()
	if cursor == nil {
		return NewReader(path)
	}
	r, err := RestoreReader(path, cursor)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func update(t *testing.T, r *Reader) []byte {
	t.Helper()
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	c, err := r.MarshalCursor()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func js(v any) string {
	b, _ := json.MarshalIndent(v, "", " ")
	return string(b)
}

// noValues fails when data holds an argument value, plain or encoded.
func noValues(t *testing.T, what string, data []byte) {
	t.Helper()
	for _, s := range secrets {
		for _, enc := range []string{s, base64.StdEncoding.EncodeToString([]byte(s)), hex.EncodeToString([]byte(s))} {
			if bytes.Contains(data, []byte(enc)) {
				t.Errorf("%s holds %q", what, enc)
			}
		}
	}
}

func TestDerivedHoldsNoValues(t *testing.T) {
	r := read(t, fixture)
	noValues(t, "derived", []byte(js(r.Derive(nil))))
	c, _ := r.MarshalCursor()
	noValues(t, "cursor", c)
}

// TestRewrittenFileReadAgain: a file replaced (another inode), or changed
// in the bytes just before the cursor, is read again from the start, not
// carried on from a stale offset.
func TestRewrittenFileReadAgain(t *testing.T) {
	data, _ := os.ReadFile(fixture)
	path := filepath.Join(t.TempDir(), "rollout.jsonl")
	os.WriteFile(path, data, 0o600)
	r := read(t, path)
	cursor, _ := r.MarshalCursor()
	// the same size, replaced by a rename
	changed := bytes.Replace(data, []byte(`"input_tokens":10000`), []byte(`"input_tokens":20000`), -1)
	os.WriteFile(path+".new", changed, 0o600)
	os.Rename(path+".new", path)
	r2, err := RestoreReader(path, cursor)
	if err != nil {
		t.Fatal(err)
	}
	if err := r2.Update(); err != nil {
		t.Fatal(err)
	}
	if u := r2.Derive(nil).Usage; u.Input != 17100 {
		t.Errorf("input %d after the rewrite, want 17100 (read again)", u.Input)
	}
	// the same file, its last bytes changed in place
	cursor, _ = r2.MarshalCursor()
	os.WriteFile(path, append(data[:len(data)-3:len(data)-3], "9}\n"...), 0o600)
	r2, _ = RestoreReader(path, cursor)
	if r2.Update(); r2.Derive(nil).Usage.Input != 7100 {
		t.Error("a change in the tail was not noticed")
	}
	// a shorter file
	os.WriteFile(path, data[:len(data)/2], 0o600)
	r3, _ := RestoreReader(path, cursor)
	if err := r3.Update(); err != nil || r3.Offset() > int64(len(data)/2) {
		t.Errorf("after shrinking: %v, offset %d", err, r3.Offset())
	}
}

func TestRestoreRefusesForeignCursors(t *testing.T) {
	r := read(t, fixture)
	good, _ := r.MarshalCursor()
	if _, err := RestoreReader("/other.jsonl", good); err == nil {
		t.Error("a cursor for another file was taken")
	}
	for _, bad := range []string{`{"kind":"claude","format":1}`, `{"kind":"codex","format":1,"path":"` + fixture + `","offset":-1}`, `not json`,
		`{"kind":"codex","format":1,"path":"` + fixture + `","offset":10,"tailLen":0}`} {
		if _, err := RestoreReader(fixture, []byte(bad)); err == nil {
			t.Errorf("cursor %s taken", bad)
		}
	}
}

func TestNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	if err := NewReader(fifo).Update(); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("fifo: %v", err)
	}
	if err := NewReader(dir).Update(); err == nil {
		t.Error("a folder was read")
	}
	if in, err := ReadInfo(fifo); in != nil || err != nil {
		t.Errorf("info of a fifo: %v %v", in, err)
	}
}

// TestBadLinesSkipped: lines that are not JSON, are cut, or carry a field
// in another shape are counted and change nothing; a huge line is skipped
// unread.
func TestBadLinesSkipped(t *testing.T) {
	defer func(n int) { lineLimit = n }(lineLimit)
	lineLimit = 3 << 10
	data, _ := os.ReadFile(fixture)
	lines := bytes.SplitAfter(data, []byte("\n"))
	bad := []string{
		"not json\n",
		`{"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":"many"}}}}` + "\n",
		`{"type":"turn_context","payload":{"model":42}}` + "\n",
		`{"type":"event_msg","payload":{"type":"token_count","info":` + "\n",
		`{"type":"response_item","payload":{"type":"function_call","name":"exec_command","call_id":"x","arguments":"` + strings.Repeat("A", 4<<10) + `"}}` + "\n",
	}
	var mixed []byte
	for i, l := range lines {
		mixed = append(mixed, l...)
		if i < len(bad) {
			mixed = append(mixed, bad[i]...)
		}
	}
	path := filepath.Join(t.TempDir(), "r.jsonl")
	os.WriteFile(path, mixed, 0o600)
	clean := filepath.Join(t.TempDir(), "c.jsonl")
	os.WriteFile(clean, data, 0o600)
	got, want := read(t, path).Derive(nil), read(t, clean).Derive(nil)
	if got.Skipped != len(bad) {
		t.Errorf("skipped %d, want %d", got.Skipped, len(bad))
	}
	got.Skipped, got.Entries, got.File, want.Entries, want.File = 0, 0, "", 0, ""
	if js(got) != js(want) {
		t.Errorf("bad lines changed the result:\n%s\nwant\n%s", js(got), js(want))
	}
}

func TestReadInfo(t *testing.T) {
	in, err := ReadInfo(fixture)
	if err != nil || in == nil {
		t.Fatal(in, err)
	}
	if in.ID != "01a23111-2e5e-71a0-8cc5-ee2f0e428d55" || in.CWD != "/work/shop" || in.Started == "" || in.Size == 0 {
		t.Errorf("info %+v", in)
	}
	// a first line far longer than the window, the fields at its start
	long := `{"timestamp":"t","type":"session_meta","payload":{"id":"s1","timestamp":"2026-01-01T00:00:00Z","cwd":"/w","base_instructions":{"text":"` +
		strings.Repeat("x", 200<<10) + `"}}}` + "\n"
	path := filepath.Join(t.TempDir(), "r.jsonl")
	os.WriteFile(path, []byte(long), 0o600)
	if in, _ := ReadInfo(path); in == nil || in.ID != "s1" || in.CWD != "/w" {
		t.Errorf("long first line: %+v", in)
	}
	for _, other := range []string{`{"type":"turn_context","payload":{"id":"s1"}}`, `[1,2]`, `{"sessionId":"claude"}`, ``} {
		os.WriteFile(path, []byte(other+"\n"), 0o600)
		if in, _ := ReadInfo(path); in != nil {
			t.Errorf("%q read as a rollout: %+v", other, in)
		}
	}
}

// TestCurrent: a cursor is current while nothing was appended or changed
// before it; anything else, or a cursor of another file, is not.
func TestCurrent(t *testing.T) {
	data, _ := os.ReadFile(fixture)
	path := filepath.Join(t.TempDir(), "rollout.jsonl")
	os.WriteFile(path, data, 0o600)
	cursor := update(t, NewReader(path))
	if !Current(path, cursor) {
		t.Error("an untouched rollout is not current")
	}
	if Current(path+"x", cursor) || Current(path, []byte(`{"kind":"codex"}`)) || Current(path, nil) {
		t.Error("a foreign cursor was taken as current")
	}
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("{}\n")
	f.Close()
	if Current(path, cursor) {
		t.Error("a rollout appended to is current")
	}
}

// TestSpacedJSONReadAsJSON: the fixture with every line spaced as a JSON
// encoder with an indent spaces it (`"type": "session_meta"`, still one
// line a record) reads as the compact one does, and Info finds its
// session. Before, no line's marker matched and the file read as empty.
func TestSpacedJSONReadAsJSON(t *testing.T) {
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	var spaced bytes.Buffer
	for _, line := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		var b bytes.Buffer
		if err := json.Indent(&b, line, "", " "); err != nil {
			t.Fatal(err)
		}
		// a string's newline is escaped, so the literal ones are the indent's
		spaced.Write(bytes.ReplaceAll(b.Bytes(), []byte("\n"), nil))
		spaced.WriteByte('\n')
	}
	if !bytes.Contains(spaced.Bytes(), []byte(`"type": "session_meta"`)) {
		t.Fatal("the respaced fixture is not spaced")
	}
	path := filepath.Join(t.TempDir(), "spaced.jsonl")
	if err := os.WriteFile(path, spaced.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	want, got := read(t, fixture), read(t, path)
	w, g := want.Derive(nil), got.Derive(nil)
	w.File, g.File = "", "" // the same but for the path
	wj, _ := json.Marshal(w)
	gj, _ := json.Marshal(g)
	if string(wj) != string(gj) || want.Replied() != got.Replied() {
		t.Errorf("spaced rollout read as\n%s\nwant\n%s", gj, wj)
	}
	if in, err := ReadInfo(path); err != nil || in.ID != "01a23111-2e5e-71a0-8cc5-ee2f0e428d55" {
		t.Errorf("Info of the spaced rollout: %+v, %v", in, err)
	}
}
