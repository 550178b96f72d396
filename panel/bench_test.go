package panel

import (
	"os"
	"testing"

	"jig/render"
	"jig/status"
)

func benchStatus(b *testing.B) *status.Status {
	b.Helper()
	data, err := os.ReadFile(testdata + "status_full.json")
	if err != nil {
		b.Fatal(err)
	}
	s, err := status.Decode(data)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkLines is one refresh of the Work view: jig panel draws one every
// 2 s.
func BenchmarkLines(b *testing.B) {
	s := benchStatus(b)
	b.ReportAllocs()
	for b.Loop() {
		Lines(s, now)
	}
}

// BenchmarkFrame is a refresh as jig panel writes it: the view, each line
// cut to an 80-column terminal.
func BenchmarkFrame(b *testing.B) {
	s := benchStatus(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range Lines(s, now) {
			Fit(l, 80)
		}
	}
}

// BenchmarkContextLines is one drawing of the context grid and lists.
func BenchmarkContextLines(b *testing.B) {
	s := benchStatus(b)
	b.ReportAllocs()
	for b.Loop() {
		render.ContextLines(s.ContextDetail)
	}
}
