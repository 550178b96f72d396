package transcript

import (
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkTree is jig pi tree's read next to the whole read jig pi show
// does, on transcripts built from the real ones (bench/tree.sh runs the
// 100 MB case through the binary, with peak RSS).
func BenchmarkTree(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(sharedSessions(b), "*.jsonl"))
	for _, size := range []int{1 << 20, 32 << 20} {
		path := filepath.Join(b.TempDir(), "big.jsonl")
		writeRepeated(b, path, files, size)
		b.Run(fmt.Sprintf("show-%dMB", size>>20), func(b *testing.B) {
			for b.Loop() {
				r := NewReader(path)
				if err := r.Update(); err != nil {
					b.Fatal(err)
				}
				r.Derive(nil)
			}
		})
		b.Run(fmt.Sprintf("tree-%dMB", size>>20), func(b *testing.B) {
			for b.Loop() {
				if _, err := ReadTree(path, 48); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
