package bridge

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"jig/status"
)

// FuzzHandle feeds the bridge lines, one per line of the input. Whatever
// they say it must not panic, every file it leaves must be one a reader
// takes, and a line it refuses must leave the files as they were.
func FuzzHandle(f *testing.F) {
	for _, lines := range [][]string{
		{`{"type":"session","session":"ses_a","created":true,"cwd":"/p","variant":"high"}`,
			`{"type":"model","session":"ses_a","agent":"build","model":{"id":"m","providerID":"p","name":"M","context":1000}}`,
			`{"type":"call","session":"ses_a","phase":"start","id":"c1","tool":"write","path":"/p/x","existed":false}`,
			`{"type":"ask","session":"ses_a","id":"a","kind":"permission","tool":"write","call":"c1"}`,
			`{"type":"call","session":"ses_a","phase":"end","id":"c1","tool":"write"}`,
			`{"type":"message","session":"ses_a","id":"m1","tokens":{"total":9,"input":5,"output":4},"cost":0.5}`,
			`{"type":"state","session":"ses_a","state":"idle"}`, `{"type":"end","sessions":["ses_a"]}`},
		{`{"type":"message","session":"s","id":"m","tokens":{"input":-5,"total":1e400}}`, `{"type":"model","session":"s","model":{"context":-1}}`,
			`{"type":"session","session":"../../etc","cwd":5}`, `{"type":"applied","session":"s","id":"x","ok":true}`, `{nope`, ``},
	} {
		f.Add(strings.Join(lines, "\n"))
	}
	f.Fuzz(func(t *testing.T, in string) {
		b, _ := newTestBridge(t)
		for _, line := range strings.Split(in, "\n") {
			before := files(t, b.Dir)
			err := b.Handle([]byte(line))
			after := files(t, b.Dir)
			for name, data := range after {
				s, derr := status.Decode([]byte(data))
				if derr == nil {
					derr = s.Validate()
				}
				if derr != nil {
					t.Fatalf("after %.200q, %s: %v", line, name, derr)
				}
			}
			if err != nil && !maps.Equal(before, after) {
				t.Fatalf("%.200q was refused (%v) but changed a file", line, err)
			}
		}
	})
}

func files(t *testing.T, dir *status.Dir) map[string]string {
	out := map[string]string{}
	paths, _ := filepath.Glob(dir.Path(status.SessionsDir, "*.json"))
	for _, p := range paths {
		data, _ := os.ReadFile(p)
		out[filepath.Base(p)] = string(data)
	}
	return out
}
