package bridge

import (
	"maps"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"jig/status"
)

// FuzzHandle feeds the bridge a sequence of lines, one per line of the
// input. Whatever they say, it must not panic; after every line each file
// it left must be one a reader takes (it decodes and passes Validate); and
// a line it refuses must leave the session and the files as they were.
func FuzzHandle(f *testing.F) {
	// Pid 1 is always alive, and a found input replays the same anywhere.
	const hello = `{"type":"hello","session":"s1","pid":1,"sessionFile":"testdata/s1.jsonl","switches":{"tools":{"bash":false},"skills":{}}}`
	for _, lines := range [][]string{
		{hello,
			`{"type":"inventory","tools":[{"name":"read","source":"builtin","active":true,"chars":400},{"name":"bash","active":false,"chars":300},{"name":"ghost","hidden":true}],"skills":[{"name":"pdf","chars":120}]}`,
			`{"type":"live","live":{"cwd":"/p","state":"busy","thinking":"high","model":{"provider":"p","id":"m","name":"M"},"context":{"tokens":500,"window":1000,"percent":50},"tools":{"active":4,"total":7}},"ready":true}`,
			`{"type":"call","call":{"phase":"start","id":"c1","tool":"write","path":"new.txt"}}`,
			`{"type":"decision","decision":{"id":"c1","action":"write","decision":"allow","answer":"fine"}}`,
			`{"type":"call","call":{"phase":"end","id":"c1","tool":"write"}}`,
			`{"type":"context","context":{"systemPrompt":4000,"skillsPrompt":300,"files":[{"path":"/p/AGENTS.md","chars":800}],"messages":1200,"toolResults":60}}`,
			`{"type":"applied","applied":{"id":"r1","active":["read"]}}`,
			`{"type":"where"}`,
			`{"type":"live","live":{"state":"idle"}}`,
			`{"type":"end","keep":true}`},
		{hello, `{"type":"live","live":{"state":"busy"}}`,
			`{"type":"hello","session":"s2","pid":1}`, `{"type":"live","live":{"state":"idle"}}`, `{"type":"end"}`},
		{hello, `{"type":"live","live":{"thinking":5}}`, `{"type":"live","live":{"context":{"tokens":1e400}}}`,
			`{"type":"context","context":{"messages":"many"}}`, `{"type":"live","live":{"state":"idle"}}`},
		{`{"type":"live","live":{"state":"busy"}}`, `{"type":"context","context":{"messages":10}}`, hello,
			`{"type":"live","live":null}`, `{"type":"live","live":{"outputs":[{"path":"/p/x","action":"created","at":"2026-11-29T10:00:00Z"}],"recent":[{"tool":"bash","outcome":"ok"}]}}`},
		{hello, `{nope`, ``, `{"type":"from-the-future"}`, `{"type":"hello","session":"s1","pid":-1}`, `{"type":"end","keep":true}`},
	} {
		f.Add(strings.Join(lines, "\n"))
	}
	f.Fuzz(func(t *testing.T, in string) {
		b, _ := newTestBridge(t)
		for _, line := range strings.Split(in, "\n") {
			kept, before := b.sessionState.clone(), files(t, b.Dir)
			done, err := b.Handle([]byte(line))
			after := files(t, b.Dir)
			for name, data := range after {
				s, err := status.Decode([]byte(data))
				if err == nil {
					err = s.Validate()
				}
				if err != nil {
					t.Fatalf("after %.200q, %s: %v", line, name, err)
				}
			}
			if err != nil && (!reflect.DeepEqual(b.sessionState, kept) || !maps.Equal(before, after)) {
				t.Fatalf("%.200q was refused (%v) but changed the session or a file", line, err)
			}
			if done {
				return
			}
		}
	})
}

// files is each status file's content, read as a reader reads it.
func files(t *testing.T, dir *status.Dir) map[string]string {
	t.Helper()
	paths, _ := filepath.Glob(dir.Path(status.SessionsDir, "*.json"))
	got := map[string]string{}
	for _, p := range paths {
		data, err := status.ReadFileNoFollow(p)
		if err != nil {
			t.Fatal(err)
		}
		got[filepath.Base(p)] = string(data)
	}
	return got
}
