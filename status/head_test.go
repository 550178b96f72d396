package status

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
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

// headByUnmarshal is headByLines as it was before it read values without
// reflection: json.Unmarshal of each value. The oracle of FuzzHeadByLines.
func headByUnmarshal(data []byte) (*Head, bool) {
	h := &Head{}
	for _, f := range [...]struct {
		key  string
		into any
		need bool
	}{{"schema", &h.Schema, true}, {"session", &h.Session, true}, {"pid", &h.PID, true}, {"pidStart", &h.PIDStart, true},
		{"host", &h.Host, true}, {"terminal", &h.Terminal, false}, {"terminals", &h.Terminals, true}} {
		key := []byte("\n  \"" + f.key + "\": ")
		i := bytes.Index(data, key)
		if i < 0 {
			if f.need {
				return nil, false
			}
			continue
		}
		v := data[i+len(key):]
		end := bytes.Index(v, []byte(",\n  \""))
		if end < 0 || json.Unmarshal(v[:end], f.into) != nil {
			return nil, false
		}
	}
	if h.Schema != float64(Schema) {
		return nil, false
	}
	return h, true
}

// Whatever a file holds, its head by lines is what json.Unmarshal of each
// value makes of it.
func FuzzHeadByLines(f *testing.F) {
	full := addEncoded(f)
	for _, edit := range [][2]string{{`"schema": 1`, `"schema": 1.0`}, {`"schema": 1`, `"schema": null`},
		{`"schema": 1`, `"schema": "1"`}, {`"pid": 1`, `"pid": 1e0`}, {`"pid": 1`, `"pid": -0`},
		{`"session": "s"`, `"session": "\u0073"`}, {`"session": "s"`, `"session": null`},
		{`"from": "HC_TERMINAL_ID"`, `"From": "HC_TERMINAL_ID"`}, {`"terminals": [`, `"terminals": null, "x": [`},
		{`"terminal": "t1"`, `"terminal": 5`}, {`"host": ""`, `"host": "a\ud800b"`}} {
		f.Add(bytes.Replace(full, []byte(edit[0]), []byte(edit[1]), 1))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := headByLines(data)
		want, wantOK := headByUnmarshal(data)
		if ok != wantOK || !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: read %+v (%v), json.Unmarshal %+v (%v)", data, got, ok, want, wantOK)
		}
	})
}
