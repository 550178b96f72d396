package main

import (
	"jig/completion"
	"jig/terminal"
)

// completionValues reads the values of this state dir and terminal, for
// cmdline.Complete.
func (e *env) completionValues() completion.Values {
	v := completion.Values{Live: e.Liveness(), Hosts: func() []string { return loadConfig(e.Getenv).BoardHosts }}
	if dir, err := e.StateDir(); err == nil {
		v.Dir = dir
	}
	if t := terminal.Innermost(terminal.Detect(e.Getenv)); t != nil {
		v.Terminal = t.ID
	}
	return v
}
