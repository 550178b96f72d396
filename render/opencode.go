package render

import (
	"fmt"
	"io"
	"strings"

	"jig/transcript"
)

// OpenCodeShow is `jig opencode show`: what OpenCode keeps of a session
// (its export), in the shape of the other agents' shows.
func OpenCodeShow(out io.Writer, d *transcript.Derived, called []string) {
	w := NewColumns(out)
	agentHead(w, d)
	usage(w, d, "none", "unknown until the next reply")
	fmt.Fprintf(w, "tools called\t%s\n", Clean(dash(strings.Join(called, ", "))))
	fmt.Fprintf(w, "messages\t%d\n", d.Entries)
	w.Flush()
	activity(out, d)
}
