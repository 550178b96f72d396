package transcript

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"testing"

	"jig/internal/fixtures"
)

// The speed benchmarks read the project's long recording, or the extra
// corpus when JIG_PI_SESSIONS names it (internal/fixtures.Large).

func BenchmarkParseReal(b *testing.B) {
	for _, f := range fixtures.Large(b) {
		b.Run(f.Name, func(b *testing.B) {
			for b.Loop() {
				r := NewReader(f.Path)
				if err := r.Update(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkAppendOne is one Update+Derive after Pi appended one entry, on a
// small and a large transcript grown from the long recording
// (fixtures.Grow; bench/transcript compares the two sizes, run.sh makes the
// 100 MB case).
func BenchmarkAppendOne(b *testing.B) {
	for _, size := range []int{1 << 20, 32 << 20} {
		b.Run(fmt.Sprintf("%dMB", size>>20), func(b *testing.B) {
			path := fixtures.GrowLarge(b, size)
			f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			r := NewReader(path)
			if err := r.Update(); err != nil {
				b.Fatal(err)
			}
			// an assistant entry with a tool call, each with a fresh id
			// hung from the one before, as Pi appends them
			const body = `","timestamp":"2026-01-03T09:00:04.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"w1","name":"write","arguments":{"path":"a.txt","content":"new"}}],"provider":"anthropic","model":"claude-c","usage":{"input":1000,"output":20,"cacheRead":0,"cacheWrite":0,"cost":{"total":0.1}},"stopReason":"toolUse","timestamp":1767430803500}}` + "\n"
			var line []byte
			n := 0
			b.ResetTimer()
			for b.Loop() {
				n++
				line = append(line[:0], `{"type":"message","id":"b`...)
				line = strconv.AppendInt(line, int64(n), 16)
				line = append(line, `","parentId":"b`...)
				line = strconv.AppendInt(line, int64(n-1), 16)
				line = append(line, body...)
				f.Write(line)
				if err := r.Update(); err != nil {
					b.Fatal(err)
				}
				r.Derive(nil)
			}
		})
	}
}

// BenchmarkScan is the scanner alone (parseLine on every line, no I/O, no
// tree): what the CPU profile of the show spends most in.
func BenchmarkScan(b *testing.B) {
	for _, f := range fixtures.Large(b) {
		b.Run(f.Name, func(b *testing.B) {
			data, err := os.ReadFile(f.Path)
			if err != nil {
				b.Fatal(err)
			}
			lines := bytes.Split(data, []byte("\n"))
			var s scanner
			var l line
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				for _, ln := range lines {
					parseLine(&s, ln, &l)
				}
			}
		})
	}
}
