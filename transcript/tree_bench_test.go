package transcript

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"jig/internal/fixtures"
)

// BenchmarkTree is jig pi tree's read next to the whole read jig pi show
// does, on transcripts built from the real ones (bench/tree.sh runs the
// 100 MB case through the binary, with peak RSS).
func BenchmarkTree(b *testing.B) {
	var src []byte
	for _, f := range fixtures.Large(b) {
		data, err := os.ReadFile(f.Path)
		if err != nil {
			b.Fatal(err)
		}
		src = append(src, data...)
	}
	for _, size := range []int{1 << 20, 32 << 20} {
		path := filepath.Join(b.TempDir(), "big.jsonl")
		if err := os.WriteFile(path, fixtures.Grow(src, size), 0o600); err != nil {
			b.Fatal(err)
		}
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
