package status

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"jig/internal/hammer"
)

// EachFile, reading each file once, gives what List and then ReadRaw give
// (the two reads the board made of every file): the same sessions, heads
// and bytes, live or all, whatever stands in the folder, and nothing
// planted there blocks it or is read.
func TestEachFileAgreesWithListAndReadRaw(t *testing.T) {
	d := &Dir{Root: t.TempDir()}
	at := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 12 {
		pid := os.Getpid()
		if i%4 == 3 {
			pid = deadPID(t)
		}
		s := realistic(fmt.Sprintf("s%02d", i), pid, fmt.Sprintf("t%d", i), i)
		if i == 5 { // a head longer than the first read of a listing
			for k := range 200 {
				s.Terminals = append(s.Terminals, TerminalID{From: "WEZTERM_PANE", ID: fmt.Sprint(k)})
			}
		}
		if _, err := d.Write(s, at.Add(time.Duration(i)*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	sessions := d.Path(SessionsDir)
	put := func(name, text string) {
		if err := os.WriteFile(sessions+"/"+name, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// not jig's layout, but a status file: decoded in order
	put("compact.json", fmt.Sprintf(`{"updatedAt":"2030-01-02T00:00:00Z","schema":1,"session":"compact","pid":%d,"host":"","terminals":[],"startedAt":"2030-01-01T00:00:00Z"}`, os.Getpid()))
	put("cut.json", `{"schema": 1, "session": "cut", "pid": 1, "host": "", "terminals": [`)
	put("array.json", `[1]`)
	put("empty.json", ``)
	put("schema2.json", fmt.Sprintf(`{"schema": 2, "session": "f", "pid": %d}`, os.Getpid()))
	put(".s00.json.tmp1.json", `{}`) // a writer's temp file
	if err := os.Symlink(d.SessionPath("s00"), sessions+"/link.json"); err != nil {
		t.Fatal(err)
	}
	var planted []string
	for i, kind := range hammer.Plants {
		p := fmt.Sprintf("%s/planted%d.json", sessions, i)
		hammer.Plant(t, p, kind)
		planted = append(planted, p)
	}

	for _, all := range []bool{false, true} {
		live := Liveness{}
		heads, err := d.List(all, live, nil)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, h := range heads {
			data, err := d.ReadRaw(h.Name, nil)
			if err != nil {
				continue
			}
			want = append(want, line(h, data))
		}
		var mu sync.Mutex
		var got []string
		workers := 0
		ok := hammer.Unblocks(10*time.Second, func() {
			err = d.EachFile(all, live, func() func(*Head, []byte) {
				mu.Lock()
				workers++
				mu.Unlock()
				return func(h *Head, data []byte) {
					mu.Lock()
					defer mu.Unlock()
					got = append(got, line(h, data))
				}
			})
		}, planted...)
		if !ok {
			t.Fatal("EachFile blocked on a planted file")
		}
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("all %v: EachFile gave %d files, List and ReadRaw %d:\n%s\nwant\n%s", all, len(got), len(want),
				names(got), names(want))
		}
		if n := 9 + 1; !all && len(got) != n || all && len(got) != n+3 {
			t.Errorf("all %v: %d files: %s", all, len(got), names(got))
		}
		if workers == 0 || workers > 4 {
			t.Errorf("%d workers", workers)
		}
	}
}

// line is a file as a test compares it: its head's fields and its bytes.
func line(h *Head, data []byte) string {
	term := "<nil>"
	if h.Terminal != nil {
		term = *h.Terminal
	}
	c := *h
	c.Terminal = nil
	return fmt.Sprintf("%s %+v %s %s", h.Name, c, term, data)
}

func names(lines []string) string {
	var out []string
	for _, l := range lines {
		name, _, _ := strings.Cut(l, " ")
		out = append(out, name)
	}
	return strings.Join(out, " ")
}

// A file is read whole into whatever buffer it is given, and one over
// MaxFileSize not at all.
func TestReadRawReadsToTheEndWithinTheBound(t *testing.T) {
	p := t.TempDir() + "/f.json"
	text := strings.Repeat("x", 10000)
	os.WriteFile(p, []byte(text), 0o600)
	for _, buf := range [][]byte{nil, make([]byte, 10), make([]byte, 0, 20000)} {
		data, err := readRaw(p, buf)
		if err != nil || string(data) != text {
			t.Errorf("read %d bytes, %v", len(data), err)
		}
	}
	big := t.TempDir() + "/big.json"
	hammer.Plant(t, big, hammer.Sparse)
	if data, err := readRaw(big, nil); err == nil || len(data) > 0 {
		t.Errorf("read %d bytes of a 1 GB file, %v", len(data), err)
	}
}
