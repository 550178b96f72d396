package transcript

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// BenchmarkAppendOne is one Update+Derive after Pi appended one entry, on a
// small and a large transcript built from the real ones (bench/transcript
// compares the two sizes; run.sh makes the 100 MB case).
func BenchmarkAppendOne(b *testing.B) {
	dir := sharedSessions(b)
	files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	for _, size := range []int{1 << 20, 32 << 20} {
		b.Run(fmt.Sprintf("%dMB", size>>20), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "big.jsonl")
			writeRepeated(b, path, files, size)
			f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			r := NewReader(path)
			if err := r.Update(); err != nil {
				b.Fatal(err)
			}
			line := []byte(strings.SplitAfterN(fixtureV2[2], "\n", 2)[0] + "\n")
			line = bytes.Replace(line, []byte(`"id":"m2","parentId":"m1",`), nil, 1)
			b.ResetTimer()
			for b.Loop() {
				f.Write(line)
				if err := r.Update(); err != nil {
					b.Fatal(err)
				}
				r.Derive(nil)
			}
		})
	}
}

// writeRepeated writes the first file's header and then the files' entry
// lines again and again up to size bytes.
func writeRepeated(tb testing.TB, path string, files []string, size int) {
	var header []byte
	var body [][]byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		lines := bytes.SplitAfter(data, []byte("\n"))
		if header == nil {
			header = lines[0]
		}
		for _, l := range lines[1:] {
			if bytes.HasSuffix(l, []byte("\n")) {
				body = append(body, l)
			}
		}
	}
	out := append([]byte(nil), header...)
	for len(out) < size {
		for _, l := range body {
			out = append(out, l...)
		}
	}
	if err := os.WriteFile(path, out, 0o600); err != nil {
		tb.Fatal(err)
	}
}
