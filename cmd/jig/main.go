// Command jig makes a running coding agent visible and steerable from the
// terminals around it. main is a thin adapter around run, so tests drive the
// same code through testscript.
package main

import "os"

func main() {
	os.Exit(run(os.Args, newEnv()))
}
