package render

import (
	"fmt"
	"io"

	"jig/ticket"
)

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

// ConfigJSON is what `jig config` prints on a pipe: each value, the file it
// came from, and every file looked at.
func ConfigJSON(cfg *ticket.Config) any {
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

// Config is the configuration for a person: each value and its file.
func Config(w io.Writer, cfg *ticket.Config) {
	for _, v := range []struct {
		name string
		s    *ticket.Setting
	}{{"memory.dir", cfg.MemoryDir}, {"workflow.dir", cfg.WorkflowDir}, {"jira.site", cfg.JiraSite}} {
		if v.s == nil {
			fmt.Fprintf(w, "%-13s (not set)\n", v.name)
			continue
		}
		fmt.Fprintf(w, "%-13s %s\n%-13s   from %s\n", v.name, Clean(v.s.Value), "", Clean(v.s.From))
	}
	fmt.Fprintln(w, "\nfiles, most specific first:")
	for _, f := range cfg.Files {
		state := "not there"
		switch {
		case f.Err != nil:
			state = "refused"
		case f.Found:
			state = "read"
		}
		fmt.Fprintf(w, "  %-10s %-9s %s\n", f.Kind, state, Clean(f.Path))
	}
}
