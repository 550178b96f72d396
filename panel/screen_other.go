//go:build !linux && !darwin

package panel

import (
	"context"
	"io"
	"os"
	"strings"
)

// Run prints the view once where jig has no terminal control.
func Run(_ context.Context, t Terminal, _ <-chan struct{}, draw func(width, height int) []string, _ func(Key) bool) error {
	_, err := io.WriteString(t.Out, strings.Join(draw(80, 24), "\n")+"\n")
	return err
}

// Size is 80×24 here: jig cannot ask the terminal.
func Size(*os.File) (int, int) { return 80, 24 }

// Width is unknown here: tables are not cut.
func Width(*os.File) int { return 0 }
