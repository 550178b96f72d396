package transcript

import (
	"path/filepath"
	"testing"
)

func BenchmarkParseReal(b *testing.B) {
	files, _ := filepath.Glob("../../../shared/pi-sessions/*.jsonl")
	for _, f := range files {
		b.Run(filepath.Base(f), func(b *testing.B) {
			for b.Loop() {
				r := NewReader(f)
				if err := r.Update(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
