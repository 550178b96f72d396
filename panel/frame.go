package panel

import (
	"context"
	"os"
	"strings"
	"time"
)

// Escape sequences of a full-screen view. It redraws in place (cursor
// home, overwrite each line, clear to its end, clear below) so a redraw
// never blanks the screen: no flicker.
const (
	enterScreen = "\x1b[?1049h\x1b[?25l" // alternate screen, cursor hidden
	leaveScreen = "\x1b[?25h\x1b[?1049l"
	home        = "\x1b[H"
	clearEOL    = "\x1b[K"
	clearBelow  = "\x1b[J"
)

// Key is one byte typed in the view's terminal.
type Key byte

// Terminal is where a full-screen view runs: keys come from In (nil, or
// not a terminal: none are read), the view goes to Out.
type Terminal struct {
	In, Out *os.File
}

// frame is one redraw: each line cut to the width, at most h lines, no
// newline after the last so the screen never scrolls.
func frame(lines []string, w, h int) string {
	if len(lines) > h {
		lines = lines[:h]
	}
	var b strings.Builder
	b.WriteString(home)
	for i, l := range lines {
		b.WriteString(Fit(l, w))
		b.WriteString(clearEOL)
		if i < len(lines)-1 {
			b.WriteString("\r\n")
		}
	}
	b.WriteString(clearBelow)
	return b.String()
}

// Tick sends on the channel it returns every d until ctx ends: a change
// notification for a view that reads on a clock (its ages, a host's focus).
func Tick(ctx context.Context, d time.Duration) <-chan struct{} {
	ch := make(chan struct{}, 1)
	go func() {
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				select {
				case ch <- struct{}{}:
				default:
				}
			}
		}
	}()
	return ch
}
