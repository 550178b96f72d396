package serve

import (
	"encoding/json"
	"strings"
	"testing"

	"jig/render"
)

// FuzzCleanJSON: whatever a status file or a transcript holds, what goes
// to the page is valid JSON with no raw <, > or &, and every string in it
// is clean line by line.
func FuzzCleanJSON(f *testing.F) {
	f.Add(`{"model":{"name":"<img src=x onerror=alert(1)>"},"k\u001b":"a\nb\tc\u202e"}`)
	f.Add(`["<script>", 1.5e300, null, true, {"\u2028": ""}]`)
	f.Fuzz(func(t *testing.T, doc string) {
		if !json.Valid([]byte(doc)) {
			return
		}
		out, err := cleanRaw([]byte(doc))
		if err != nil {
			return // a number Go cannot hold: refused whole
		}
		if !json.Valid(out) || strings.ContainsAny(string(out), "<>&") {
			t.Fatalf("%q gave %q", doc, out)
		}
		var v any
		json.Unmarshal(out, &v)
		var check func(any)
		check = func(v any) {
			switch x := v.(type) {
			case string:
				for _, line := range strings.Split(x, "\n") {
					if render.Clean(line) != line {
						t.Fatalf("%q is not clean in %q", line, out)
					}
				}
			case []any:
				for _, e := range x {
					check(e)
				}
			case map[string]any:
				for k, e := range x {
					check(k)
					check(e)
				}
			}
		}
		check(v)
	})
}
