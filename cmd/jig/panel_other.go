//go:build !linux && !darwin

package main

import (
	"fmt"
	"strings"
	"time"
)

// runLivePanel prints the view once where jig has no terminal control.
func runLivePanel(e *env, src *panelSource, _ time.Duration) error {
	_, lines := src.frame()
	_, err := fmt.Fprintln(e.stdout, strings.Join(lines, "\n"))
	return err
}
