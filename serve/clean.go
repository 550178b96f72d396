package serve

import (
	"bytes"
	"encoding/json"
	"strings"

	"jig/render"
)

// cleanJSON is v as JSON with every string in it (keys too) cleaned by
// render.Clean, line by line so a message keeps its lines: whatever a
// status file or a transcript holds reaches the page as plain text, which
// the page then sets with textContent only. encoding/json writes <, > and
// & as \u escapes besides.
func cleanJSON(v any) ([]byte, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return cleanRaw(raw)
}

// cleanRaw is cleanJSON of a JSON document's bytes.
func cleanRaw(raw []byte) ([]byte, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var doc any
	if err := d.Decode(&doc); err != nil {
		return nil, err
	}
	return json.Marshal(cleanValue(doc))
}

func cleanValue(v any) any {
	switch x := v.(type) {
	case string:
		return cleanText(x)
	case []any:
		for i := range x {
			x[i] = cleanValue(x[i])
		}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[render.Clean(k)] = cleanValue(e)
		}
		return out
	}
	return v
}

// cleanText is render.Clean of each line, a tab kept as spaces.
func cleanText(s string) string {
	if !strings.ContainsAny(s, "\n\t") {
		return render.Clean(s)
	}
	lines := strings.Split(strings.ReplaceAll(s, "\t", "    "), "\n")
	for i, l := range lines {
		lines[i] = render.Clean(strings.TrimSuffix(l, "\r"))
	}
	return strings.Join(lines, "\n")
}
