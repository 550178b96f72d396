package status

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

// The head of a file jig wrote is read no further than its terminals, and
// its times come from its end; the fields agree with a whole decode.
func TestHeadOfAJigFile(t *testing.T) {
	d := &Dir{Root: t.TempDir()}
	s := realistic("h1", os.Getpid(), "t7", 3)
	if _, err := d.Write(s, time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(d.SessionPath("h1"))
	if err != nil {
		t.Fatal(err)
	}
	r := &countingReader{r: bytes.NewReader(data)}
	h, err := decodeHead(r, false)
	if err != nil {
		t.Fatal(err)
	}
	if r.n > 4096 || r.n >= len(data) {
		t.Errorf("read %d of %d bytes for the head", r.n, len(data))
	}
	whole, _ := Decode(data)
	ht, err := readHeadTimes(d.SessionPath("h1"))
	if err != nil {
		t.Fatal(err)
	}
	if h.Session != whole.Session || h.PID != whole.PID || h.PIDStart != whole.PIDStart || len(h.Terminals) != len(whole.Terminals) ||
		!ht.UpdatedAt.Equal(whole.UpdatedAt) || !ht.StartedAt.Equal(whole.StartedAt) {
		t.Errorf("head %+v / %+v, whole %+v", h, ht, whole)
	}
}

// A file in another order, or cut short, is read in full: the head is
// still right, and a cut file is an error, never a head of zeros.
func TestHeadOfOtherFiles(t *testing.T) {
	dir := t.TempDir()
	other := `{"updatedAt": "2030-01-01T00:00:05Z", "pid": 7, "terminals": [{"from":"X","id":"t1"}],
	  "outputs": [{"note": {"updatedAt": "1999-01-01T00:00:00Z"}}], "schema": 1, "session": "o", "host": "h",
	  "startedAt": "2030-01-01T00:00:00Z"}`
	os.WriteFile(dir+"/o.json", []byte(other), 0o600)
	h, err := readHeadTimes(dir + "/o.json")
	if err != nil || h.PID != 7 || h.Session != "o" || h.UpdatedAt.Second() != 5 || h.StartedAt.IsZero() {
		t.Errorf("head %+v, %v", h, err)
	}
	for _, cut := range []string{`{"schema": 1, "session": "c"`, `{"schema": 1, "session": "c", "pid": 1, "host": "h", "terminals": [`, `[1]`, ``} {
		os.WriteFile(dir+"/c.json", []byte(cut), 0o600)
		if h, err := readHeadTimes(dir + "/c.json"); err == nil {
			t.Errorf("%q: head %+v, want an error", cut, h)
		}
	}
	os.WriteFile(dir+"/f.json", []byte(`{"schema": 2, "session": "f", "pid": 1}`), 0o600)
	if _, err := readHead(dir + "/f.json"); err == nil || !strings.Contains(err.Error(), "schema 2") {
		t.Errorf("future schema: %v", err)
	}
}

type countingReader struct {
	r interface{ Read([]byte) (int, error) }
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n += k
	return k, err
}

// A file in Encode's layout is read by its lines, and agrees with the
// decoder; a compact one (another writer's) falls back to the decoder.
func TestHeadByLines(t *testing.T) {
	s := realistic("hl", os.Getpid(), "t7", 2)
	s.PIDStart = "boot/42"
	s.Normalize()
	data, err := Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	byLines, ok := headByLines(data)
	if !ok {
		t.Fatal("a file in Encode's layout was not read by its lines")
	}
	decoded, err := decodeHead(bytes.NewReader(data), false)
	if err != nil {
		t.Fatal(err)
	}
	if byLines.Session != decoded.Session || byLines.PID != decoded.PID || byLines.PIDStart != decoded.PIDStart ||
		byLines.Host != decoded.Host || len(byLines.Terminals) != len(decoded.Terminals) || *byLines.Terminal != *decoded.Terminal {
		t.Errorf("by lines %+v, decoded %+v", byLines, decoded)
	}
	compact := []byte(`{"schema":1,"session":"c","pid":3,"pidStart":"b/1","host":"h","terminals":[{"from":"X","id":"t1"}]}`)
	if _, ok := headByLines(compact); ok {
		t.Error("a compact file was read by lines")
	}
	if h, err := headOf(compact); err != nil || h.PID != 3 || len(h.Terminals) != 1 {
		t.Errorf("compact: %+v, %v", h, err)
	}
}
