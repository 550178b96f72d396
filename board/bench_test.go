package board

import (
	"os"
	"testing"

	"jig/status"
)

// BenchmarkLocal reads the rows of the state dir $JIG_BENCH_STATE (fill it
// with bench/genstate), as one refresh of the board does.
func BenchmarkLocal(b *testing.B) {
	root := os.Getenv("JIG_BENCH_STATE")
	if root == "" {
		b.Skip("JIG_BENCH_STATE names no state dir (bench/board.sh fills one)")
	}
	dir := &status.Dir{Root: root}
	host, _ := os.Hostname()
	for b.Loop() {
		if _, _, err := Local(dir, status.Liveness{Host: host}.Memo(), host); err != nil {
			b.Fatal(err)
		}
	}
}
