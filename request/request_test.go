package request

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"jig/status"
)

var now = time.Date(2026, 11, 29, 19, 0, 0, 0, time.UTC)

func TestParse(t *testing.T) {
	tests := []struct {
		name, in string
		want     *Request
		id       string // the id a bad request still names
		reason   string // part of the reason for a bad one
	}{
		{name: "full", in: `{"schema":1,"id":"ctx-1","tools":{"bash":false},"skills":{"pdf-tools":false},"reload":true}`,
			want: &Request{Schema: 1, ID: "ctx-1", Tools: map[string]bool{"bash": false}, Skills: map[string]bool{"pdf-tools": false}, Reload: true}},
		{name: "minimal", in: `{"schema":1,"id":"a"}`,
			want: &Request{Schema: 1, ID: "a", Tools: map[string]bool{}, Skills: map[string]bool{}}},
		{name: "unknown fields and nulls", in: `{"schema":1.0,"id":"a","tools":null,"future":{"x":[1]},"reload":null}`,
			want: &Request{Schema: 1, ID: "a", Tools: map[string]bool{}, Skills: map[string]bool{}}},
		{name: "covers", in: `{"schema":1,"id":"b","covers":["a"]}`,
			want: &Request{Schema: 1, ID: "b", Tools: map[string]bool{}, Skills: map[string]bool{}, Covers: []string{"a"}}},
		{name: "empty", in: ``, reason: "empty"},
		{name: "not json", in: `{"schema":1,`, reason: "not JSON"},
		{name: "two values", in: `{"schema":1,"id":"a"} {}`, reason: "not JSON"},
		{name: "list", in: `[1]`, reason: "not a JSON object"},
		{name: "null", in: `null`, reason: "not a JSON object"},
		{name: "string", in: `"x"`, reason: "not a JSON object"},
		{name: "no id", in: `{"schema":1,"tools":{"bash":false}}`, reason: "no id"},
		{name: "id not a string", in: `{"schema":1,"id":7}`, reason: "id is not a string"},
		{name: "id with a newline", in: `{"schema":1,"id":"a\nb"}`, reason: "control characters"},
		{name: "id too long", in: `{"schema":1,"id":"` + strings.Repeat("x", MaxID+1) + `"}`, reason: "longer than"},
		{name: "no schema", in: `{"id":"a"}`, id: "a", reason: "no schema"},
		{name: "schema 2", in: `{"schema":2,"id":"a"}`, id: "a", reason: "schema 2: this jig reads schema 1"},
		{name: "schema a string", in: `{"schema":"1","id":"a"}`, id: "a", reason: "schema is not a number"},
		{name: "tools a list", in: `{"schema":1,"id":"a","tools":["bash"]}`, id: "a", reason: "tools: want an object"},
		{name: "tool not a bool", in: `{"schema":1,"id":"a","tools":{"bash":"off"}}`, id: "a", reason: "tools: bash is not true or false"},
		{name: "empty tool name", in: `{"schema":1,"id":"a","skills":{"":true}}`, id: "a", reason: "skills: an empty name"},
		{name: "reload a string", in: `{"schema":1,"id":"a","reload":"yes"}`, id: "a", reason: "reload is not true or false"},
		{name: "bad covers", in: `{"schema":1,"id":"a","covers":[""]}`, id: "a", reason: "covers holds a bad id"},
		{name: "too large", in: `{"schema":1,"id":"a","x":"` + strings.Repeat("x", MaxSize) + `"}`, reason: "larger than 65536 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.in))
			if tt.want != nil {
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				if !reflect.DeepEqual(got, tt.want) {
					t.Fatalf("Parse = %+v, want %+v", got, tt.want)
				}
				return
			}
			var bad *BadError
			if !errors.As(err, &bad) {
				t.Fatalf("Parse = %+v, %v; want a *BadError", got, err)
			}
			if got != nil {
				t.Errorf("a bad request came back as %+v", got)
			}
			if bad.ID != tt.id || !strings.Contains(bad.Reason, tt.reason) || strings.Contains(bad.Error(), "\n") {
				t.Errorf("BadError = {%q, %q}, want id %q and a one-line reason with %q", bad.ID, bad.Reason, tt.id, tt.reason)
			}
		})
	}
}

func TestEncodeParseRoundTrip(t *testing.T) {
	r := New(now)
	r.Tools["bash"] = false
	r.Skills["pdf"] = true
	r.Covers = []string{"x-1"}
	data, err := Encode(r)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, r) {
		t.Fatalf("round trip: %+v, want %+v", got, r)
	}
}

func TestNewIDUniqueAndSafe(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 1000; i++ {
		id := NewID(now)
		if seen[id] {
			t.Fatalf("id %s twice", id)
		}
		seen[id] = true
		if status.SafeName(id) != id || checkID(id) != nil {
			t.Fatalf("id %q is not file-safe", id)
		}
	}
}

func newDir(t *testing.T) *status.Dir {
	t.Helper()
	return &status.Dir{Root: filepath.Join(t.TempDir(), "state")}
}

func TestSendWritesPrivateFile(t *testing.T) {
	dir := newDir(t)
	r := New(now)
	r.Tools["bash"] = false
	if _, err := Send(dir, "s/1", r); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(Path(dir, "s/1"))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("request file mode %o, want 600", fi.Mode().Perm())
	}
	if filepath.Base(Path(dir, "s/1")) != "s_1~81764e195c3a6592.json" {
		t.Errorf("request file %s, want the status file's name", Path(dir, "s/1"))
	}
	di, _ := os.Stat(dir.Path(status.RequestsDir))
	if di.Mode().Perm() != 0o700 {
		t.Errorf("requests folder mode %o, want 700", di.Mode().Perm())
	}
	got, err := Pending(dir, "s/1")
	if err != nil || got.ID != r.ID || got.Tools["bash"] {
		t.Fatalf("Pending = %+v, %v", got, err)
	}
}

func TestSendMergesIntoWaitingRequest(t *testing.T) {
	dir := newDir(t)
	a := New(now)
	a.Tools = map[string]bool{"bash": false, "read": false}
	a.Reload = true
	b := New(now)
	b.Tools = map[string]bool{"read": true}
	b.Skills = map[string]bool{"pdf": false}
	if _, err := Send(dir, "s", a); err != nil {
		t.Fatal(err)
	}
	merged, err := Send(dir, "s", b)
	if err != nil {
		t.Fatal(err)
	}
	want := &Request{Schema: 1, ID: b.ID, Tools: map[string]bool{"bash": false, "read": true},
		Skills: map[string]bool{"pdf": false}, Reload: true, Covers: []string{a.ID}}
	if !reflect.DeepEqual(merged, want) {
		t.Fatalf("merged %+v, want %+v", merged, want)
	}
	got, ans, err := Take(dir, "s", now)
	if err != nil || ans != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("Take = %+v, %+v, %v; want %+v", got, ans, err, want)
	}
	// Taken: the next request starts afresh.
	c := New(now)
	if out, _ := Send(dir, "s", c); out != c {
		t.Fatalf("a request after the take was merged: %+v", out)
	}
}

// A merge never grows a request past what the session reads: the sender
// is told, and the waiting request stays whole.
func TestSendFull(t *testing.T) {
	dir := newDir(t)
	big := New(now)
	for i := 0; len(big.Tools) < 1000; i++ {
		big.Tools[fmt.Sprintf("tool-with-a-long-name-%04d", i)] = false
	}
	if _, err := Send(dir, "s", big); err != nil {
		t.Fatal(err)
	}
	more := New(now)
	for i := 0; len(more.Tools) < 1500; i++ {
		more.Tools[fmt.Sprintf("other-tool-with-a-long-name-%04d", i)] = true
	}
	if _, err := Send(dir, "s", more); !errors.Is(err, ErrFull) {
		t.Fatalf("Send = %v, want ErrFull", err)
	}
	got, _, err := Take(dir, "s", now)
	if err != nil || got.ID != big.ID || len(got.Tools) != 1000 {
		t.Fatalf("after a full merge, Take = %v, %v", got, err)
	}
}

func TestSendReplacesJunk(t *testing.T) {
	dir := newDir(t)
	if err := dir.Ensure(status.RequestsDir); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(t.TempDir(), "target")
	os.WriteFile(target, []byte("keep"), 0o600)
	os.Symlink(target, Path(dir, "s"))
	if _, err := Send(dir, "s", New(now)); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(target); string(data) != "keep" {
		t.Fatalf("the symlink's target was written: %q", data)
	}
	if fi, _ := os.Lstat(Path(dir, "s")); !fi.Mode().IsRegular() {
		t.Fatalf("request file is %v", fi.Mode())
	}
	os.WriteFile(Path(dir, "t"), []byte("{not json"), 0o600)
	r := New(now)
	if out, err := Send(dir, "t", r); err != nil || out != r {
		t.Fatalf("Send over a bad file = %+v, %v", out, err)
	}
}

func TestTakeNothing(t *testing.T) {
	dir := newDir(t)
	if r, a, err := Take(dir, "s", now); r != nil || a != nil || err != nil {
		t.Fatalf("Take with no folder = %v, %v, %v", r, a, err)
	}
	dir.Ensure(status.RequestsDir)
	if r, a, err := Take(dir, "s", now); r != nil || a != nil || err != nil {
		t.Fatalf("Take with nothing waiting = %v, %v, %v", r, a, err)
	}
}

func TestTakeBadFiles(t *testing.T) {
	tests := []struct {
		name   string
		plant  func(t *testing.T, path string)
		id     string
		reason string
	}{
		{"not json", writeFile("{nope"), "", "not JSON"},
		{"schema 2", writeFile(`{"schema":2,"id":"r1","tools":{"bash":false}}`), "r1", "schema 2"},
		{"too large", writeFile(`{"schema":1,"id":"r1","pad":"` + strings.Repeat(" ", MaxSize) + `"}`), "", "larger than"},
		{"symlink", func(t *testing.T, path string) {
			target := filepath.Join(t.TempDir(), "real.json")
			os.WriteFile(target, []byte(`{"schema":1,"id":"r1"}`), 0o600)
			if err := os.Symlink(target, path); err != nil {
				t.Fatal(err)
			}
		}, "", "a symlink"},
		{"fifo", func(t *testing.T, path string) {
			if err := syscall.Mkfifo(path, 0o600); err != nil {
				t.Fatal(err)
			}
		}, "", "not a regular file"},
		{"folder", func(t *testing.T, path string) {
			os.MkdirAll(filepath.Join(path, "inner"), 0o700)
		}, "", "not a regular file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := newDir(t)
			dir.Ensure(status.RequestsDir)
			tt.plant(t, Path(dir, "s"))
			r, ans, err := Take(dir, "s", now)
			var bad *BadError
			if r != nil || !errors.As(err, &bad) || !strings.Contains(bad.Reason, tt.reason) {
				t.Fatalf("Take = %+v, %v; want a bad request %q", r, err, tt.reason)
			}
			if tt.id == "" && ans != nil {
				t.Errorf("answered %+v without an id", ans)
			}
			if tt.id != "" && (ans == nil || ans.ID != tt.id || ans.OK || !strings.Contains(ans.Message, tt.reason)) {
				t.Errorf("answer %+v, want ok:false for %s naming %q", ans, tt.id, tt.reason)
			}
			if _, err := os.Lstat(Path(dir, "s")); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the bad file stays: %v", err)
			}
			assertOnlyLock(t, dir)
		})
	}
}

func writeFile(content string) func(t *testing.T, path string) {
	return func(t *testing.T, path string) {
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// assertOnlyLock checks nothing but the lock file is left: no claim, no temp.
func assertOnlyLock(t *testing.T, dir *status.Dir) {
	t.Helper()
	des, _ := os.ReadDir(dir.Path(status.RequestsDir))
	for _, de := range des {
		if de.Name() != lockName {
			t.Errorf("left in requests/: %s", de.Name())
		}
	}
}

// fakeInfo is a FileInfo with a chosen owner, for the owner check that a
// test cannot set up without root.
type fakeInfo struct {
	fs.FileInfo
	mode fs.FileMode
	size int64
	uid  uint32
}

func (f fakeInfo) Mode() fs.FileMode { return f.mode }
func (f fakeInfo) Size() int64       { return f.size }
func (f fakeInfo) Sys() any          { return &syscall.Stat_t{Uid: f.uid} }

func TestFileProblem(t *testing.T) {
	tests := []struct {
		fi   fakeInfo
		want string
	}{
		{fakeInfo{mode: 0o600, size: 10, uid: 1000}, ""},
		{fakeInfo{mode: 0o600, size: 10, uid: 1001}, "owned by uid 1001, not 1000"},
		{fakeInfo{mode: 0o600, size: MaxSize + 1, uid: 1000}, "larger than 65536 bytes"},
		{fakeInfo{mode: fs.ModeSymlink | 0o777, uid: 1000}, "not a regular file"},
	}
	for _, tt := range tests {
		if got := fileProblem(tt.fi, 1000); got != tt.want {
			t.Errorf("fileProblem(%v, uid %d) = %q, want %q", tt.fi.mode, tt.fi.uid, got, tt.want)
		}
	}
}

// TestTakeOtherOwner plants a file of another user for real; only root can.
func TestTakeOtherOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Log("not root: the owner check is covered by TestFileProblem")
		return
	}
	dir := newDir(t)
	dir.Ensure(status.RequestsDir)
	path := Path(dir, "s")
	os.WriteFile(path, []byte(`{"schema":1,"id":"r1"}`), 0o600)
	if err := os.Chown(path, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	_, ans, err := Take(dir, "s", now)
	var bad *BadError
	if !errors.As(err, &bad) || !strings.Contains(bad.Reason, "owned by uid 65534") || ans != nil {
		t.Fatalf("Take = %+v, %v", ans, err)
	}
	assertOnlyLock(t, dir)
}

func TestAnswered(t *testing.T) {
	a := &status.Answer{ID: "b", Covers: []string{"a"}}
	for id, want := range map[string]bool{"a": true, "b": true, "c": false} {
		if Answered(a, id) != want {
			t.Errorf("Answered(%s) = %v", id, !want)
		}
	}
	if Answered(nil, "a") {
		t.Error("no answer answers")
	}
}
