//go:build !linux && !darwin

package main

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// runLivePanel prints the view once where jig has no terminal control.
func runLivePanel(e *env, src *panelSource, _ time.Duration) error {
	_, lines := src.frame()
	_, err := fmt.Fprintln(e.stdout, strings.Join(lines, "\n"))
	return err
}

// stdoutWidth is unknown here: tables are not cut.
func stdoutWidth(io.Writer) int { return 0 }
