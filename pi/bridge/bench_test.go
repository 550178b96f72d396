package bridge

import (
	"fmt"
	"testing"
)

// BenchmarkEventUnchanged is the bridge's cost for an event that changes
// nothing in the file: a merge, a build and a compare, no write.
func BenchmarkEventUnchanged(b *testing.B) {
	br, _ := newTestBridge(b)
	br.Handle([]byte(hello("bench")))
	line := []byte(`{"type":"live","live":{"state":"busy","context":{"tokens":1000,"window":200000}}}`)
	br.Handle(line)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := br.Handle(line); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEventChanged is the cost of an event that rewrites the file
// (temp file, fsync, rename).
func BenchmarkEventChanged(b *testing.B) {
	br, _ := newTestBridge(b)
	br.Handle([]byte(hello("bench")))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		line := fmt.Sprintf(`{"type":"live","live":{"context":{"tokens":%d}}}`, i)
		if _, err := br.Handle([]byte(line)); err != nil {
			b.Fatal(err)
		}
	}
}
