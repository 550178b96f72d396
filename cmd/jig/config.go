package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"jig/pi"
	"jig/render"
	"jig/ticket"
)

// configCommand prints the configuration the ticket and workflow are read
// with, and where each value came from (docs/ticket.md).
func configCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "config",
		Usage: "print the effective configuration (memory, workflow, jira) and where each value came from",
		UsageText: "jig config\n\n" +
			"Values come from the project's .pi/settings.json (its \"jig\" key), then $JIG_CONFIG\n" +
			"(else ${XDG_CONFIG_HOME:-~/.config}/jig/config.json), then Pi's settings.json in its agent dir.\n" +
			"A malformed file gives no value; it is named on stderr and the exit code is 4.\n\n" +
			"example: jig config",
		Action: func(c *cli.Context) error {
			if err := noArgs(c); err != nil {
				return err
			}
			cfg := e.loadConfig()
			if e.stdoutTTY {
				e.printConfig(cfg)
			} else {
				data, _ := json.MarshalIndent(configJSON(cfg), "", "  ")
				fmt.Fprintf(e.stdout, "%s\n", data)
			}
			return e.configProblems(c, cfg)
		},
	}
}

// loadConfig reads the configuration for the working folder.
func (e *env) loadConfig() *ticket.Config {
	cwd, _ := os.Getwd()
	return ticket.LoadConfig(e.getenv, cwd, e.agentDir())
}

// agentDir is Pi's agent dir by Pi's rule (pi.AgentDir), "" when there is
// none (no HOME and no PI_CODING_AGENT_DIR).
func (e *env) agentDir() string {
	dir, _ := pi.AgentDir(e.getenv)
	return dir
}

// configProblems says each refused file on its own line and exits 4; none
// is nil.
func (e *env) configProblems(c *cli.Context, cfg *ticket.Config) error {
	errs := cfg.Problems()
	if len(errs) == 0 {
		return nil
	}
	for _, err := range errs[:len(errs)-1] {
		fmt.Fprintf(e.stderr, "jig: %s: %s\n", commandName(c), render.Clean(err.Error()))
	}
	return errorf(c, exitBadInput, "%s", render.Clean(errs[len(errs)-1].Error()))
}

type configOut struct {
	Memory   map[string]*string `json:"memory"`
	Workflow map[string]*string `json:"workflow"`
	Jira     map[string]*string `json:"jira"`
	From     map[string]*string `json:"from"`
	Files    []configFile       `json:"files"`
}

type configFile struct {
	Path  string  `json:"path"`
	Kind  string  `json:"kind"`
	Found bool    `json:"found"`
	Error *string `json:"error"`
}

func configJSON(cfg *ticket.Config) configOut {
	value := func(s *ticket.Setting) *string {
		if s == nil {
			return nil
		}
		return &s.Value
	}
	from := func(s *ticket.Setting) *string {
		if s == nil {
			return nil
		}
		return &s.From
	}
	out := configOut{
		Memory:   map[string]*string{"dir": value(cfg.MemoryDir)},
		Workflow: map[string]*string{"dir": value(cfg.WorkflowDir)},
		Jira:     map[string]*string{"site": value(cfg.JiraSite)},
		From: map[string]*string{"memory.dir": from(cfg.MemoryDir), "workflow.dir": from(cfg.WorkflowDir),
			"jira.site": from(cfg.JiraSite)},
		Files: []configFile{},
	}
	for _, f := range cfg.Files {
		cf := configFile{Path: f.Path, Kind: f.Kind, Found: f.Found}
		if f.Err != nil {
			msg := f.Err.Error()
			cf.Error = &msg
		}
		out.Files = append(out.Files, cf)
	}
	return out
}

// printConfig is the configuration for a human: each value and its file.
func (e *env) printConfig(cfg *ticket.Config) {
	for _, v := range []struct {
		name string
		s    *ticket.Setting
	}{{"memory.dir", cfg.MemoryDir}, {"workflow.dir", cfg.WorkflowDir}, {"jira.site", cfg.JiraSite}} {
		if v.s == nil {
			fmt.Fprintf(e.stdout, "%-13s (not set)\n", v.name)
			continue
		}
		fmt.Fprintf(e.stdout, "%-13s %s\n%-13s   from %s\n", v.name, render.Clean(v.s.Value), "", render.Clean(v.s.From))
	}
	fmt.Fprintln(e.stdout, "\nfiles, most specific first:")
	for _, f := range cfg.Files {
		state := "not there"
		switch {
		case f.Err != nil:
			state = "refused"
		case f.Found:
			state = "read"
		}
		fmt.Fprintf(e.stdout, "  %-10s %-9s %s\n", f.Kind, state, render.Clean(f.Path))
	}
}
