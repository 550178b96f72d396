package herdr

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"

	"jig/render"
)

// TestModsFormatAsJig: the Work mod's percentages and costs, run in Node,
// are render.Percent's and render.Money's, digit for digit (the one
// formatter every Go view uses), halves and all.
func TestModsFormatAsJig(t *testing.T) {
	node := needNode(t)
	values := []float64{0, 0.004, 0.005, 0.125, 1.125, 12.5, 42.5, 42.49, 52.5, 85000.0 / 200000 * 100, 99.5, 100, 1234.565}
	in, _ := json.Marshal(values)
	mod, _ := filepath.Abs("app/work/main.js")
	script := `const m = require(process.argv[1]); const v = JSON.parse(process.argv[2]);
process.stdout.write(JSON.stringify(v.map(x => [m.percentText(x), m.money(x)])));`
	out, err := exec.Command(node, "-e", script, mod, string(in)).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got [][2]string
	if err := json.Unmarshal(out, &got); err != nil || len(got) != len(values) {
		t.Fatalf("node said %s: %v", out, err)
	}
	for i, v := range values {
		if want := [2]string{render.Percent(&v), render.Money(&v)}; got[i] != want {
			t.Errorf("%v: the mod prints %q, jig %q", v, got[i], want)
		}
	}
}
