package render

import (
	"bytes"
	"encoding/json"
	"testing"
)

// JSON with hostile characters printed on a terminal: none reaches it raw,
// and the JSON still decodes to the same value.
func TestTerminalWriterKeepsJSON(t *testing.T) {
	value := map[string]string{
		"model": "gpt\u202eevil",             // bidi override
		"cwd":   "/p/\u009b2J",               // C1 CSI
		"name":  "a\u2028b\u200bc\U000e0041", // line separator, zero width space, a tag character
		"ok":    "café 👍🏽 日本",
	}
	data, err := json.Marshal(value)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	w := TerminalWriter(&b)
	// written in pieces that cut characters in two
	for i := 0; i < len(data); i += 3 {
		w.Write(data[i:min(i+3, len(data))])
	}
	for _, bad := range []string{"\u202e", "\u009b", "\u2028", "\u200b", "\U000e0041"} {
		if bytes.Contains(b.Bytes(), []byte(bad)) {
			t.Errorf("%q reached the terminal raw: %s", bad, b.String())
		}
	}
	var back map[string]string
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatalf("%v: %s", err, b.String())
	}
	for k, v := range value {
		if back[k] != v {
			t.Errorf("%s: %q, want %q", k, back[k], v)
		}
	}
}

// ASCII (jig's own colour sequences among it) and ordinary text pass.
func TestTerminalWriterPassesText(t *testing.T) {
	in := "\x1b[32m42%\x1b[39m café 👍🏽\n"
	var b bytes.Buffer
	TerminalWriter(&b).Write([]byte(in))
	if b.String() != in {
		t.Errorf("%q, want %q", b.String(), in)
	}
	b.Reset()
	TerminalWriter(&b).Write([]byte("a\x9bb"))
	if b.String() != "a\ufffdb" {
		t.Errorf("invalid UTF-8: %q", b.String())
	}
}
