package transcript

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"jig/internal/fixtures"
)

// chunkSources are transcripts to cut up: every hand-written fixture in
// the tests, every transcript fixture, and the extra corpus when
// JIG_PI_SESSIONS names it.
func chunkSources(t testing.TB) map[string][]byte {
	src := map[string][]byte{
		"v3-branch": []byte(fixtureV3Branch),
		"1x":        []byte(fixture1x),
		"v2":        []byte(strings.Join(fixtureV2, "\n") + "\n"),
		"v1":        []byte(fixtureV1),
	}
	for _, f := range fixtures.All(t) {
		data, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		src[f.Name] = data
	}
	return src
}

// readChunked appends data to a file in the pieces cuts gives, calling
// Update after each; with roundtrip it also saves the cursor and restores
// a new Reader from it between pieces, as the one-shot writer does.
func readChunked(t testing.TB, data []byte, cuts []int, roundtrip []bool) *Derived {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := NewReader(path)
	prev := 0
	for i, c := range append(cuts, len(data)) {
		if c < prev || c > len(data) {
			continue
		}
		f.Write(data[prev:c])
		prev = c
		if err := r.Update(); err != nil {
			t.Fatalf("update after byte %d: %v", c, err)
		}
		if i < len(roundtrip) && roundtrip[i] {
			saved, err := r.MarshalCursor()
			if err != nil {
				t.Fatal(err)
			}
			if r, err = RestoreReader(path, saved); err != nil {
				t.Fatal(err)
			}
		}
	}
	return r.Derive(nil)
}

func wholeRead(t testing.TB, data []byte) *Derived {
	return readChunked(t, data, nil, nil)
}

func sameDerived(t testing.TB, what string, got, want *Derived) {
	t.Helper()
	a, b := *got, *want
	a.File, b.File = "", "" // each read used its own temp file
	g, _ := json.Marshal(&a)
	w, _ := json.Marshal(&b)
	if !bytes.Equal(g, w) {
		t.Fatalf("%s:\n got %s\nwant %s", what, g, w)
	}
}

// TestRandomChunks: appends cut at random points, with the cursor saved and
// restored at random moments, end with exactly what one whole read gives.
func TestRandomChunks(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 17))
	for name, data := range chunkSources(t) {
		want := wholeRead(t, data)
		rounds := 8
		if len(data) > 8<<20 {
			rounds = 2 // the oversized line: each round writes it whole
		}
		for round := 0; round < rounds; round++ {
			n := 1 + rng.IntN(40)
			cuts := make([]int, n)
			trips := make([]bool, n)
			for i := range cuts {
				cuts[i] = rng.IntN(len(data) + 1)
				trips[i] = rng.IntN(3) == 0
			}
			sortInts(cuts)
			sameDerived(t, name, readChunked(t, data, cuts, trips), want)
		}
	}
}

// FuzzChunks is the same check driven by the fuzzer: each input byte pair
// picks a cut and whether to roundtrip the cursor there.
func FuzzChunks(f *testing.F) {
	f.Add([]byte{10, 0, 200, 1, 37, 0}, uint8(0))
	f.Add([]byte{255, 1, 3, 1, 3, 1}, uint8(2))
	f.Add([]byte{}, uint8(1))
	f.Fuzz(func(t *testing.T, plan []byte, which uint8) {
		sources := []string{fixtureV3Branch, fixture1x, strings.Join(fixtureV2, "\n") + "\n", fixtureV1}
		data := []byte(sources[int(which)%len(sources)])
		var cuts []int
		var trips []bool
		for i := 0; i+1 < len(plan); i += 2 {
			cuts = append(cuts, int(plan[i])*len(data)/256)
			trips = append(trips, plan[i+1]&1 == 1)
		}
		sortInts(cuts)
		sameDerived(t, "fuzz", readChunked(t, data, cuts, trips), wholeRead(t, data))
	})
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// TestUTF16LenByWords holds utf16Len's words to units, byte by byte, over
// every byte at every place of a word.
func TestUTF16LenByWords(t *testing.T) {
	for c := range 256 {
		for at := range 41 { // every place in the 32-byte and the 8-byte turns
			raw := []byte(strings.Repeat("a", at) + string([]byte{byte(c)}) + "é😀" + strings.Repeat("b", 40-at))
			want := 0
			for _, b := range raw {
				want += units(b)
			}
			if got := utf16Len(raw, -1); got != want-1 {
				t.Fatalf("utf16Len(%q) = %d, want %d", raw, got, want-1)
			}
		}
	}
}
