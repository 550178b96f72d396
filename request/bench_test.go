package request

import (
	"testing"

	"jig/status"
)

// The session looks for a request every 2 s: what that costs when nothing
// waits, the common case.
func BenchmarkTakeNothing(b *testing.B) {
	dir := &status.Dir{Root: b.TempDir()}
	dir.Ensure(status.RequestsDir)
	b.ReportAllocs()
	for b.Loop() {
		if r, _, err := Take(dir, "s", now); r != nil || err != nil {
			b.Fatal(r, err)
		}
	}
}

// One request written (with the lock) and taken (claim, read, remove).
func BenchmarkSendTake(b *testing.B) {
	dir := &status.Dir{Root: b.TempDir()}
	r := New(now)
	r.Tools["bash"] = false
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Send(dir, "s", r); err != nil {
			b.Fatal(err)
		}
		if got, _, err := Take(dir, "s", now); got == nil || err != nil {
			b.Fatal(got, err)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	data := []byte(`{"schema":1,"id":"mx282l57-9a2b371a","tools":{"bash":false,"read":true},"skills":{"pdf":false},"reload":true,"covers":["mx282l4s-e3df0d88"]}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}
