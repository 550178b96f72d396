package transcript

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJSONParseAgreement: the scanner accepts a line exactly when
// JavaScript's JSON.parse returns an object for it. The answers were taken
// from Node 20 (bench/transcript has the harness's twin).
func TestJSONParseAgreement(t *testing.T) {
	cases := []struct {
		line string
		ok   bool
	}{
		{"{\"type\":\"x\"}", true},
		{" {\"type\":\"x\"} \r", true},
		{"{\"a\":1}{\"b\":2}", false},
		{"{\"type\":\"message\"", false},
		{"[1,2]", false},
		{"123", false},
		{"\"str\"", false},
		{"null", false},
		{"{\"a\":01}", false},
		{"{\"a\":1.}", false},
		{"{\"a\":-0}", true},
		{"{\"a\":1e5}", true},
		{"{\"a\":1E+5}", true},
		{"{\"a\":.5}", false},
		{"{\"a\":+1}", false},
		{"{\"a\":NaN}", false},
		{"{\"a\":[1,]}", false},
		{"{\"a\":1,}", false},
		{"{\"a\":\"\\x\"}", false},
		{"{\"a\":\"\\u12G4\"}", false},
		{"{\"a\":\"\\ud800\"}", true},
		{"{\"a\":\"tab\there\"}", false},
		{"{\"a\":\"\u0001\"}", false},
		{"{'a':1}", false},
		{"{\"a\":tru}", false},
		{"{\"a\":true}", true},
		{"{\"a\":[[[[[]]]]]}", true},
		{"{\"a\":{\"b\":{\"c\":[{}]}}}", true},
		{"{\"a\" : [ 1 , 2 ] }", true},
		{"{\"a\":\"\u00e9\xf0\x9f\x98\x80\"}", true},
		{"{\"a\":1}\u00a0", false},
		{"\ufeff{\"a\":1}", false},
		{"{\"a\":\"\\/\"}", true},
		{"{\"\":1}", true},
		{"{\"a\":-}", false},
		{"{\"a\":1e}", false},
		{"{\"a\":[1 2]}", false},
		{"{\"a\":{\"b\"}}", false},
		{"{\"a\":{,}}", false},
		{"{}", true},
	}
	var s scanner
	var l line
	for _, c := range cases {
		if got := parseLine(&s, []byte(c.line), &l); got != c.ok {
			t.Errorf("%q: accepted %v, JSON.parse %v", c.line, got, c.ok)
		}
	}
}

// TestBadLines: every kind of broken line is skipped and counted, as Pi
// skips it, and the good lines around it still count.
func TestBadLines(t *testing.T) {
	head := `{"type":"session","version":3,"id":"s-bad","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}` + "\n"
	user := func(id, parent, text string) string {
		return `{"type":"message","id":"` + id + `","parentId":` + parent + `,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"` + text + `"}}` + "\n"
	}
	var b bytes.Buffer
	b.WriteString(head)
	b.WriteString(user("u1", "null", "a"))
	b.WriteString(`{"type":"message"}{"type":"message"}` + "\n")              // two objects run together
	b.WriteString(`{"type":"message","id":"u9","parentId":"u1","mess` + "\n") // truncated
	b.WriteString("\x00\x01\xff\xfe binary \x89PNG\n")                        // binary
	b.WriteString(`{"type":"x","pad":"` + strings.Repeat("y", 10<<20) + "\n") // 10 MB, unterminated string
	b.WriteString("[1,2,3]\n")                                                // not an object
	b.WriteString("\n   \n")                                                  // blank: skipped silently
	b.WriteString(user("u2", `"u1"`, strings.Repeat("z", 10<<20)))            // 10 MB and valid: read
	b.WriteString(user("u3", `"u2"`, "abcd"))
	b.WriteString(`{"type":"message","id":"u4","parentId":"u3","message":{"role":"user","content":"half`) // no newline yet

	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	r := NewReader(path)
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	d := r.Derive(nil)
	eq(t, "skipped", d.Skipped, 5)
	var lines []int
	for _, bl := range r.BadLines() {
		lines = append(lines, bl.Line)
	}
	eq(t, "bad lines", fmt.Sprint(lines), "[3 4 5 6 7]")
	eq(t, "entries", d.Entries, 3)
	eq(t, "leaf", d.Leaf, "u3")
	// no assistant yet: every message is estimated: 1 + 10 MiB/4 + 1
	eq(t, "context", *d.ContextTokens, int64(1+(10<<20)/4+1))
	if r.Unread() == 0 {
		t.Error("the unfinished last line was consumed")
	}
	// Pi finishes the line: now it counts
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`"}}` + "\n")
	f.Close()
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	d = r.Derive(nil)
	eq(t, "leaf after the line ends", d.Leaf, "u4")
	eq(t, "unread", r.Unread(), int64(0))
}

// TestNotASession: a file that does not start with a session header is
// refused, as Pi refuses it.
func TestNotASession(t *testing.T) {
	for name, content := range map[string]string{
		"entry first":        `{"type":"message","id":"a","message":{"role":"user","content":"x"}}` + "\n",
		"no id":              `{"type":"session","version":3}` + "\n",
		"no header in 64 KB": strings.Repeat("garbage\n", 9000),
	} {
		path := filepath.Join(t.TempDir(), "s.jsonl")
		os.WriteFile(path, []byte(content), 0o600)
		if err := NewReader(path).Update(); !errors.Is(err, ErrNotSession) || !strings.HasPrefix(err.Error(), path+": ") {
			t.Errorf("%s: %v, want %s: ErrNotSession", name, err, path)
		}
	}
}

// TestNoCompleteLine: to a reader that follows Pi (the bridge), a file with
// no complete line yet is not there yet; to a command run once on it
// (UpdateSession, ReadHeader) it is not a Pi session, whatever it holds.
func TestNoCompleteLine(t *testing.T) {
	for name, content := range map[string]string{
		"empty":         "",
		"half a header": `{"type":"session","ver`,
		"binary":        "\x00\xff\xfe garbage \x01",
	} {
		path := filepath.Join(t.TempDir(), "s.jsonl")
		os.WriteFile(path, []byte(content), 0o600)
		r := NewReader(path)
		if err := r.Update(); err != nil || r.HasHeader() {
			t.Errorf("%s: Update: %v, header %v; want no error, no header", name, err, r.HasHeader())
		}
		if err := NewReader(path).UpdateSession(); !errors.Is(err, ErrNotSession) || err.Error() != path+": "+ErrNotSession.Error() {
			t.Errorf("%s: UpdateSession: %v, want %s: ErrNotSession", name, err, path)
		}
		if _, err := ReadHeader(path); !errors.Is(err, ErrNotSession) {
			t.Errorf("%s: ReadHeader: %v, want ErrNotSession", name, err)
		}
	}
	path := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(path, []byte(fixture1x), 0o600)
	if err := NewReader(path).UpdateSession(); err != nil {
		t.Errorf("a session: %v", err)
	}
}

// TestOverlongLine: a line past the limit is skipped without holding it
// whole, even when it ends only in a later read; the lines after it count.
func TestOverlongLine(t *testing.T) {
	defer func(old int) { lineLimit = old }(lineLimit)
	lineLimit = 1 << 20
	head := `{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}` + "\n"
	long := `{"type":"message","id":"x","parentId":null,"message":{"role":"user","content":"` + strings.Repeat("q", 3<<20) + `"}}` + "\n"
	ok := `{"type":"message","id":"u","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"abcd"}}` + "\n"
	path := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(path, []byte(head+long[:len(long)/2]), 0o600)
	r := NewReader(path)
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(long[len(long)/2:] + ok)
	f.Close()
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	d := r.Derive(nil)
	eq(t, "skipped", d.Skipped, 1)
	eq(t, "reason", r.BadLines()[0].Reason, "line too long")
	eq(t, "line", r.BadLines()[0].Line, 2)
	eq(t, "leaf", d.Leaf, "u")
	eq(t, "context", *d.ContextTokens, int64(1))
}
