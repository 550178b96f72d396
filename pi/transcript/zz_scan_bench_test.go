package transcript

import (
	"bytes"
	"os"
	"testing"
)

func BenchmarkZZScan(b *testing.B) {
	data, err := os.ReadFile("/tmp/ps/long.jsonl")
	if err != nil {
		b.Skip()
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
}
