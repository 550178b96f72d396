// Command statusline is a yardstick of bench/for-terminal.sh: a program
// that links nothing but the status package and does only what
// `jig session for-terminal ID` does on its hot path (the file as it is,
// picked by its head). It is not a jig command: it shows how near to a Go
// hello world a status line can come when a binary holds only this, and so
// how much of jig's run is the rest of jig (docs/decisions.md).
package main

import (
	"os"

	"jig/status"
)

func main() {
	dir, err := status.Locate(os.Getenv)
	if err != nil || len(os.Args) != 2 {
		os.Exit(3)
	}
	host, _ := os.Hostname()
	data, err := dir.ForTerminalRaw(os.Args[1], status.Liveness{Host: host})
	if err != nil || data == nil {
		os.Exit(1)
	}
	os.Stdout.Write(data)
}
