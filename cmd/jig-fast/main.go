// Command jig-fast is jig for the command lines an agent or a status line
// runs many times a minute: `jig-fast AGENT hook`, `jig-fast AGENT
// statusline` and `jig-fast session for-terminal …` answer as jig does, in
// a program that links only them and the agents. Every other command line
// it hands to the jig beside it (jig/hot/fast). Install it beside jig: the
// installers write it into the agents' hooks and status lines when it is
// there.
package main

import (
	"os"

	"jig/hot"
	"jig/hot/fast"
	_ "jig/registry" // the agents whose hooks it runs
)

func main() {
	os.Exit(fast.Main(os.Args, hot.OS(), hot.Exec))
}
