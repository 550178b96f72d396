package opencode

import (
	"fmt"
	"io"
	"strings"

	"jig/render"
)

// Print is `jig opencode show`: what OpenCode keeps of a session (its
// export), in the shape of the other agents' shows.
func (e *Exported) Print(out io.Writer) {
	d := e.Derived()
	w := render.NewColumns(out)
	render.ShowHead(w, d)
	render.ShowUsage(w, d, "none", "unknown until the next reply")
	fmt.Fprintf(w, "tools called\t%s\n", render.Clean(render.Dash(strings.Join(e.Called(), ", "))))
	fmt.Fprintf(w, "messages\t%d\n", d.Entries)
	w.Flush()
	render.ShowActivity(out, d)
}
