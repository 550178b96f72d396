package transcript

import (
	"encoding/base64"
	"hash/fnv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// secretTranscript reads two files, the second still waiting for its
// result, and ends on a line that holds a token: none of it may reach a
// cursor, which jig writes to the state dir.
const secretTranscript = `{"type":"session","version":3,"id":"s-c","timestamp":"2026-01-10T10:00:00.000Z","cwd":"/w/proj"}
{"type":"message","id":"c1","parentId":null,"timestamp":"2026-01-10T10:00:01.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"t1","name":"read","arguments":{"path":"DONEREAD.env"}},{"type":"toolCall","id":"t2","name":"read","arguments":{"path":"/w/WAITREAD.env"}}],"provider":"p","model":"m","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"total":0}},"stopReason":"toolUse"}}
{"type":"message","id":"c2","parentId":"c1","timestamp":"2026-01-10T10:00:02.000Z","message":{"role":"toolResult","toolCallId":"t1","toolName":"read","content":[{"type":"text","text":"x"}],"isError":false}}
{"type":"message","id":"c3","parentId":"c2","timestamp":"2026-01-10T10:00:03.000Z","message":{"role":"user","content":"export TOKEN=sk-live-CURSORSECRET"}}
`

// secretMore finishes the waiting read and writes both files read, and
// a file never read.
const secretMore = `{"type":"message","id":"c4","parentId":"c3","timestamp":"2026-01-10T10:00:04.000Z","message":{"role":"toolResult","toolCallId":"t2","toolName":"read","content":[{"type":"text","text":"x"}],"isError":false}}
{"type":"message","id":"c5","parentId":"c4","timestamp":"2026-01-10T10:00:05.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"t3","name":"write","arguments":{"path":"/w/WAITREAD.env","content":"x"}},{"type":"toolCall","id":"t4","name":"write","arguments":{"path":"DONEREAD.env","content":"x"}},{"type":"toolCall","id":"t5","name":"write","arguments":{"path":"new.txt","content":"x"}}],"provider":"p","model":"m","usage":{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"total":0}},"stopReason":"toolUse"}}
{"type":"message","id":"c6","parentId":"c5","timestamp":"2026-01-10T10:00:06.000Z","message":{"role":"toolResult","toolCallId":"t3","toolName":"write","content":[],"isError":false}}
{"type":"message","id":"c7","parentId":"c6","timestamp":"2026-01-10T10:00:06.000Z","message":{"role":"toolResult","toolCallId":"t4","toolName":"write","content":[],"isError":false}}
{"type":"message","id":"c8","parentId":"c7","timestamp":"2026-01-10T10:00:06.000Z","message":{"role":"toolResult","toolCallId":"t5","toolName":"write","content":[],"isError":false}}
`

// TestCursorKeepsNoValues: a cursor holds no path of a read call, done or
// waiting, and no byte of the transcript (the old format kept the last 64
// bytes, base64). What it keeps instead still decides created or changed.
func TestCursorKeepsNoValues(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(path, []byte(secretTranscript), 0o600)
	r := NewReader(path)
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	saved, err := r.MarshalCursor()
	if err != nil {
		t.Fatal(err)
	}
	last := secretTranscript[len(secretTranscript)-tailLen:]
	for _, value := range []string{"DONEREAD", "WAITREAD", "sk-live", "CURSORSECRET", base64.StdEncoding.EncodeToString([]byte(last))[:40]} {
		if strings.Contains(string(saved), value) {
			t.Errorf("the cursor holds %q:\n%s", value, saved)
		}
	}

	r, err = RestoreReader(path, saved)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(secretMore)
	f.Close()
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, o := range r.Derive(nil).Outputs {
		got[o.Path] = string(o.Action)
	}
	eq(t, "a file read before the cursor", got["/w/proj/DONEREAD.env"], "changed")
	eq(t, "a file whose read ended after the cursor", got["/w/WAITREAD.env"], "changed")
	eq(t, "a file never read", got["/w/proj/new.txt"], "created")
}

// TestOldCursorRefused: a cursor in the format before 2 (which kept
// transcript bytes) is refused, so the file is read again from the start.
func TestOldCursorRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(path, []byte(secretTranscript), 0o600)
	old := `{"format":1,"path":` + strconv.Quote(path) + `,"dev":0,"ino":0,"offset":100,"lineNo":1,"headHash":1,"headLen":98,` +
		`"tail":"` + base64.StdEncoding.EncodeToString([]byte(secretTranscript[36:100])) + `","header":{"version":3,"id":"s-c"},` +
		`"ordinal":1,"entries":0,"outputs":{},"touched":["/w/proj/DONEREAD.env"]}`
	if _, err := RestoreReader(path, []byte(old)); err == nil {
		t.Error("a format 1 cursor was trusted")
	}
}

// TestRestoredCursorSeesRewrite: the bytes before the cursor are compared
// by hash; rewritten in place (same inode, same size) the file is read again.
func TestRestoredCursorSeesRewrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	head := `{"type":"session","version":3,"id":"s-r","timestamp":"2026-01-10T10:00:00.000Z","cwd":"/w"}` + "\n"
	os.WriteFile(path, []byte(head+`{"type":"session_info","id":"r1","parentId":null,"name":"one"}`+"\n"), 0o600)
	r := NewReader(path)
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	saved, _ := r.MarshalCursor()
	f, _ := os.OpenFile(path, os.O_WRONLY, 0)
	f.WriteAt([]byte(`"two"`), int64(len(head)+len(`{"type":"session_info","id":"r1","parentId":null,"name":`)))
	f.Close()
	r, err := RestoreReader(path, saved)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Update(); err != nil {
		t.Fatal(err)
	}
	eq(t, "name after the rewrite", r.Derive(nil).Name, "two")
}

// TestPathKeyIsFNV: cursors hold pathKeys, so the key of a path stays
// hash/fnv's FNV-1a of its bytes.
func TestPathKeyIsFNV(t *testing.T) {
	for _, p := range []string{"", "/w/a.txt", "/home/u/é😀/b c", strings.Repeat("/x", 300)} {
		h := fnv.New64a()
		h.Write([]byte(p))
		if got, want := pathKey(p), h.Sum64(); got != want {
			t.Errorf("pathKey(%q) = %x, FNV-1a %x", p, got, want)
		}
	}
}
