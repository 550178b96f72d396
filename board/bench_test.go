package board

import (
	"os"
	"path/filepath"
	"testing"
	"time"

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

// BenchmarkLiveRefresh is one redraw of the running board after a file
// event, in colour: this machine's rows read ($JIG_BENCH_STATE), sorted,
// and drawn by the view on a screen of 160 by 50.
func BenchmarkLiveRefresh(b *testing.B) {
	root := os.Getenv("JIG_BENCH_STATE")
	if root == "" {
		b.Skip("JIG_BENCH_STATE names no state dir (bench/board.sh fills one)")
	}
	dir := &status.Dir{Root: root}
	host, _ := os.Hostname()
	v := View{Colour: true}
	for b.Loop() {
		rows, _, err := Local(dir, status.Liveness{Host: host}.Memo(), host)
		if err != nil {
			b.Fatal(err)
		}
		Sort(rows)
		v.SetRows(rows)
		if len(v.Lines(160, 50, time.Now())) != 50 {
			b.Fatal("the screen is not full")
		}
	}
}

// BenchmarkRowOf decodes one file of $JIG_BENCH_STATE into its row: the
// part of a refresh that is the board's own work, without the system calls.
func BenchmarkRowOf(b *testing.B) {
	root := os.Getenv("JIG_BENCH_STATE")
	if root == "" {
		b.Skip("JIG_BENCH_STATE names no state dir (bench/board.sh fills one)")
	}
	files, _ := filepath.Glob(filepath.Join(root, status.SessionsDir, "*.json"))
	if len(files) == 0 {
		b.Fatal("no status file")
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := rowOf(data, nil); err != nil {
			b.Fatal(err)
		}
	}
}
