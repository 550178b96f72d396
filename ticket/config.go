package ticket

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"reflect"
	"strings"

	"jig/status"
)

// maxConfigSize bounds what is read of one configuration file.
const maxConfigSize = 1 << 20

// Kinds of configuration file, most specific first: a value is taken from
// the first kind that says it.
const (
	KindProject = "pi-project" // <cwd>/.pi/settings.json, its "jig" key
	KindJig     = "jig"        // $JIG_CONFIG, else ${XDG_CONFIG_HOME:-~/.config}/jig/config.json
	KindPiUser  = "pi-user"    // <agent dir>/settings.json, its "jig" key
)

// Setting is one configuration value and the file that said it.
type Setting struct {
	Value string
	From  string
}

// File is one configuration file looked at: whether it is there, and why
// it was refused (a refused file gives no value at all).
type File struct {
	Path  string
	Kind  string
	Found bool
	Err   error
}

// Config is the effective configuration: each value nil when no file says
// it.
type Config struct {
	MemoryDir   *Setting // the folder holding one folder per ticket
	WorkflowDir *Setting // the workflow definitions, <name>.json
	JiraSite    *Setting // e.g. https://acme.atlassian.net, no final slash
	BoardHosts  []string // the machines `jig board` asks over ssh; only jig's own file says them
	Files       []File   // every file looked at, most specific first
	Skipped     []error  // entries left out of a file that was read (a bad board.hosts entry)
}

// Problems are the files refused, one error each.
func (c *Config) Problems() []error {
	var errs []error
	for _, f := range c.Files {
		if f.Err != nil {
			errs = append(errs, f.Err)
		}
	}
	return append(errs, c.Skipped...)
}

// sections is what a configuration file (or Pi's "jig" key) holds. Other
// keys are ignored: the file may hold other plugins' sections.
type sections struct {
	Memory *struct {
		Dir *string `json:"dir"`
	} `json:"memory"`
	Workflow *struct {
		Dir *string `json:"dir"`
	} `json:"workflow"`
	Jira *struct {
		Site *string `json:"site"`
	} `json:"jira"`
	Board *struct {
		Hosts []json.RawMessage `json:"hosts"` // each entry on its own: a bad one is left out, not the file
	} `json:"board"`
}

// boardHosts are the good entries of board.hosts, and an error for each
// bad one, by its place in the list.
func (s *sections) boardHosts(path string) ([]string, []error) {
	var hosts []string
	var errs []error
	for i, raw := range s.Board.Hosts {
		var h string
		err := json.Unmarshal(raw, &h)
		if err != nil {
			err = fmt.Errorf("want a string, not %s", status.Cut(string(raw)))
		} else {
			err = CheckHost(h)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: board.hosts[%d] left out: %w", path, i, err))
			continue
		}
		hosts = append(hosts, h)
	}
	return hosts, errs
}

// ConfigPaths are the files LoadConfig reads, most specific first. cwd is
// the session's working folder; agentDir is Pi's agent dir ("" for none).
func ConfigPaths(getenv func(string) string, cwd, agentDir string) []File {
	var files []File
	if cwd != "" {
		files = append(files, File{Path: filepath.Join(cwd, ".pi", "settings.json"), Kind: KindProject})
	}
	if p := jigConfigPath(getenv); p != "" {
		files = append(files, File{Path: p, Kind: KindJig})
	}
	if agentDir != "" {
		files = append(files, File{Path: filepath.Join(agentDir, "settings.json"), Kind: KindPiUser})
	}
	return files
}

func jigConfigPath(getenv func(string) string) string {
	if p := getenv("JIG_CONFIG"); p != "" {
		return expandHome(p, getenv("HOME"))
	}
	if x := getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "jig", "config.json")
	}
	if home := getenv("HOME"); home != "" {
		return filepath.Join(home, ".config", "jig", "config.json")
	}
	return ""
}

// LoadConfig reads the configuration as docs/ticket.md says: each value
// from the most specific file that says it. A file that is missing says
// nothing; a file that is malformed is refused whole (its error is in
// Files) and says nothing either, so no value is ever half read or stale.
func LoadConfig(getenv func(string) string, cwd, agentDir string) *Config {
	c := &Config{}
	home := getenv("HOME")
	for _, f := range ConfigPaths(getenv, cwd, agentDir) {
		s, found, err := readSections(f.Path, f.Kind != KindJig)
		f.Found = found
		if err != nil {
			f.Err = status.FileError(f.Path, err)
		}
		c.Files = append(c.Files, f)
		if err != nil || s == nil {
			continue
		}
		base := filepath.Dir(f.Path)
		if s.Memory != nil && s.Memory.Dir != nil && c.MemoryDir == nil {
			c.MemoryDir = &Setting{Value: resolveDir(*s.Memory.Dir, base, home), From: f.Path}
		}
		if s.Workflow != nil && s.Workflow.Dir != nil && c.WorkflowDir == nil {
			c.WorkflowDir = &Setting{Value: resolveDir(*s.Workflow.Dir, base, home), From: f.Path}
		}
		if s.Board != nil && f.Kind == KindJig {
			// not a project's: a repository must not choose where jig connects
			var skipped []error
			c.BoardHosts, skipped = s.boardHosts(f.Path)
			c.Skipped = append(c.Skipped, skipped...)
		}
		if s.Jira != nil && s.Jira.Site != nil && c.JiraSite == nil {
			c.JiraSite = &Setting{Value: strings.TrimRight(*s.Jira.Site, "/"), From: f.Path}
		}
	}
	return c
}

// readSections reads one file's sections; underJig: they sit under the
// "jig" key (Pi's settings). A missing file is (nil, false, nil).
func readSections(path string, underJig bool) (*sections, bool, error) {
	data, err := status.ReadFile(path, status.FollowLinks, maxConfigSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, true, err
	}
	if underJig {
		var top map[string]json.RawMessage
		if err := json.Unmarshal(data, &top); err != nil {
			return nil, true, jsonError(err)
		}
		raw, ok := top["jig"]
		if !ok || string(raw) == "null" {
			return nil, true, nil
		}
		data = raw
	}
	var s sections
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, true, jsonError(err)
	}
	if err := s.check(); err != nil {
		return nil, true, err
	}
	return &s, true, nil
}

// check refuses values no plugin could use, so a typo is said, not taken.
func (s *sections) check() error {
	if s.Memory != nil && s.Memory.Dir != nil && *s.Memory.Dir == "" {
		return errors.New("memory.dir is empty")
	}
	if s.Workflow != nil && s.Workflow.Dir != nil && *s.Workflow.Dir == "" {
		return errors.New("workflow.dir is empty")
	}
	if s.Jira != nil && s.Jira.Site != nil {
		site := *s.Jira.Site
		if !strings.HasPrefix(site, "https://") && !strings.HasPrefix(site, "http://") || strings.ContainsAny(site, " \t\r\n?#") {
			return fmt.Errorf("jira.site %q: want an address such as https://acme.atlassian.net", status.Cut(site))
		}
	}
	return nil
}

// resolveDir reads a folder as the plugins do: ~ is the home folder, a
// relative path is relative to the file that says it.
func resolveDir(dir, base, home string) string {
	dir = expandHome(dir, home)
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(base, dir)
	}
	return filepath.Clean(dir)
}

func expandHome(p, home string) string {
	if home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
		return filepath.Join(home, p[1:])
	}
	return p
}

// jsonError says what is wrong with a file's JSON in the file's terms.
func jsonError(err error) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return fmt.Errorf("not JSON: %v", err)
	}
	want := map[reflect.Kind]string{reflect.Struct: "an object", reflect.Map: "an object", reflect.String: "a string",
		reflect.Slice: "a list"}[te.Type.Kind()]
	if want == "" {
		want = te.Type.String()
	}
	if te.Field == "" {
		return fmt.Errorf("want %s, not %s", want, te.Value)
	}
	return fmt.Errorf("%s: want %s, not %s", te.Field, want, te.Value)
}

// CheckHost refuses what cannot be a host name as ssh takes it (jig board's
// other machines): empty, an option, or a shell's special characters.
func CheckHost(h string) error {
	if h == "" || strings.HasPrefix(h, "-") || strings.ContainsAny(h, " \t\r\n'\"`$;&|<>()\\") {
		return fmt.Errorf("%q: want a host name as ssh takes it", status.Cut(h))
	}
	return nil
}
