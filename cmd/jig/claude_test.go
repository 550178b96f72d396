package main

import (
	"encoding/json"
	"os"
	"sort"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	// expand IN OUT: OUT is IN with $VARs replaced from the script's
	// environment (hook inputs name files under $WORK).
	scriptCmds["expand"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 2 {
			ts.Fatalf("usage: expand IN OUT")
		}
		out := os.Expand(ts.ReadFile(args[0]), ts.Getenv)
		ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(out), 0o600))
	}
	// jig-event FILE EVENT [TOOL ID]: sets a hook input's event (and tool).
	scriptCmds["jig-event"] = func(ts *testscript.TestScript, neg bool, args []string) {
		var in map[string]any
		ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[0])), &in))
		in["hook_event_name"] = args[1]
		if len(args) == 4 {
			in["tool_name"], in["tool_use_id"] = args[2], args[3]
			in["tool_input"] = map[string]any{"command": "echo SECRET"}
		}
		data, _ := json.Marshal(in)
		ts.Check(os.WriteFile(ts.MkAbs(args[0]), data, 0o600))
	}
	// jig-hooks FILE: the events whose hooks run `jig claude hook` exactly
	// once, sorted, on one line.
	scriptCmds["jig-hooks"] = func(ts *testscript.TestScript, neg bool, args []string) {
		var s struct {
			Hooks map[string][]struct {
				Hooks []struct{ Command string }
			}
		}
		ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[0])), &s))
		var events []string
		for ev, groups := range s.Hooks {
			n := 0
			for _, g := range groups {
				for _, h := range g.Hooks {
					if strings.HasSuffix(h.Command, "jig claude hook") {
						n++
					}
				}
			}
			if n == 1 {
				events = append(events, ev)
			}
		}
		sort.Strings(events)
		ts.Stdout().Write([]byte(strings.Join(events, " ") + "\n"))
	}
}
