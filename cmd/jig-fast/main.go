// Command jig-fast is jig for the command lines a status line or an agent
// runs many times a minute: `jig-fast session for-terminal …` and
// `jig-fast AGENT hook` answer as jig does, in a program that links only
// them, in about three quarters of jig's time. Every other command line it
// hands to the jig beside it (jig/hot). Install both: the installers write
// jig-fast into hooks and status lines when it sits beside jig.
package main

import (
	"os"

	"jig/hot"
	_ "jig/registry" // the agents whose hooks it runs
)

func main() {
	os.Exit(hot.Main(os.Args, hot.OS(), hot.Exec))
}
