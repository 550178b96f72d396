// Command jig-line is jig for a terminal's status line, which tmux, WezTerm
// or kitty run for every pane every few seconds: `jig-line session
// for-terminal …` answers as jig does, in a program that links nothing
// else (jig/hot), near a Go hello world's time. Every other command line it
// hands to the jig beside it. Install it beside jig: the installers write
// it into the status lines when it is there.
package main

import (
	"os"

	"jig/hot"
)

func main() {
	e := hot.OS()
	os.Exit(hot.Main(os.Args, e, e.AnswerLine, hot.Exec))
}
