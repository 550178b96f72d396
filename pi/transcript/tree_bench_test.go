package transcript

import (
	"fmt"
	"testing"

	"jig/internal/fixtures"
)

// BenchmarkTree is jig pi tree's read next to the whole read jig pi show
// does, on transcripts built from the real ones (bench/tree.sh runs the
// 100 MB case through the binary, with peak RSS).
func BenchmarkTree(b *testing.B) {
	for _, size := range []int{1 << 20, 32 << 20} {
		path := fixtures.GrowLarge(b, size)
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
