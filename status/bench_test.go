package status

import (
	"fmt"
	"os"
	"testing"
	"time"
)

// BenchmarkForTerminal500 is the reader's work behind `jig session
// for-terminal` among 500 live sessions of realistic size (the process
// start around it is measured by bench/for-terminal.sh).
func BenchmarkForTerminal500(b *testing.B) {
	d := &Dir{Root: b.TempDir()}
	now := time.Now()
	for i := range 500 {
		s := realistic(fmt.Sprintf("s%03d", i), os.Getpid(), fmt.Sprintf("t%d", i), i)
		s.StartedAt = now
		if _, err := d.Write(s, now); err != nil {
			b.Fatal(err)
		}
	}
	live := Liveness{}
	b.Run("found", func(b *testing.B) {
		for b.Loop() {
			if s, err := d.ForTerminal("t250", live); s == nil || err != nil {
				b.Fatal("not found", err)
			}
		}
	})
	b.Run("found-raw", func(b *testing.B) {
		for b.Loop() {
			if data, err := d.ForTerminalRaw("t250", live); data == nil || err != nil {
				b.Fatal("not found", err)
			}
		}
	})
	b.Run("none", func(b *testing.B) {
		for b.Loop() {
			if s, err := d.ForTerminal("t9999", live); s != nil || err != nil {
				b.Fatal("found", err)
			}
		}
	})
	b.Run("list-names", func(b *testing.B) {
		for b.Loop() {
			sessionNames(d.Path(SessionsDir))
			readNames(d.Path(TerminalsDir, indexedDir))
		}
	})
}

// BenchmarkWrite is one update of a realistic status file: changed content
// (a real write, fsync and rename) and unchanged content (read, compare).
func BenchmarkWrite(b *testing.B) {
	d := &Dir{Root: b.TempDir()}
	now := time.Now()
	n := 0
	b.Run("changed", func(b *testing.B) {
		for b.Loop() {
			n++
			if _, err := d.Write(realistic("w", os.Getpid(), "t1", n), now); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("unchanged", func(b *testing.B) {
		for b.Loop() {
			if wrote, err := d.Write(realistic("w", os.Getpid(), "t1", n), now); wrote || err != nil {
				b.Fatal(wrote, err)
			}
		}
	})
}
