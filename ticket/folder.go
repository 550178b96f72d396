package ticket

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"jig/status"
)

// The ticket folder's own files: read for ticket and workflow, never
// listed as outputs.
const (
	TicketFile   = "ticket.json"
	WorkflowFile = "workflow.json"
	HistoryDir   = "history"
)

// maxFolderFile bounds what is read of ticket.json, workflow.json and a
// workflow definition.
const maxFolderFile = 1 << 20

// validWorkflowName reports whether name is a definition's name, a file
// name in workflow.dir and never a path: `^[A-Za-z0-9_][A-Za-z0-9._-]*$`.
func validWorkflowName(name string) bool {
	for i := range len(name) {
		c := name[i]
		if !isAlnum(c) && c != '_' && (i == 0 || c != '.' && c != '-') {
			return false
		}
	}
	return name != ""
}

// readTicket is the ticket of key: ticket.json's title and url when the
// folder has one, else the Jira address; site "" for none.
func readTicket(folder, key, site string) (*status.Ticket, error) {
	t := &status.Ticket{Key: key}
	if site != "" {
		t.URL = site + "/browse/" + key
	}
	if folder == "" {
		return t, nil
	}
	var f struct {
		Title *string `json:"title"`
		URL   *string `json:"url"`
	}
	found, err := readJSON(filepath.Join(folder, TicketFile), &f)
	if err != nil || !found {
		return t, err
	}
	if f.Title != nil {
		t.Title = *f.Title
	}
	if f.URL != nil && *f.URL != "" {
		t.URL = *f.URL
	}
	return t, nil
}

// workflowState is a ticket's workflow.json.
type workflowState struct {
	Name    string            `json:"name"`
	Stages  stages            `json:"stages"`
	Current string            `json:"current"`
	Since   string            `json:"since"`
	PRs     []json.RawMessage `json:"prs"`
	Problem string            `json:"problem"`
}

// stages are a list of names, or of objects with a name (as a workflow
// definition may give them).
type stages []string

func (s *stages) UnmarshalJSON(data []byte) error {
	var names []string
	if err := json.Unmarshal(data, &names); err == nil {
		*s = names
		return nil
	}
	var objs []struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(data, &objs); err != nil {
		return errors.New("stages: want a list of names or of {name}")
	}
	*s = make(stages, 0, len(objs))
	for _, o := range objs {
		*s = append(*s, o.Name)
	}
	return nil
}

// readWorkflow is the ticket's workflow (nil when its folder has no
// workflow.json), its stages taken from the definition <workflowDir>/<name>.json
// when the ticket's file gives only the name.
func readWorkflow(folder, workflowDir string) (*status.Workflow, error) {
	if folder == "" {
		return nil, nil
	}
	var ws workflowState
	found, err := readJSON(filepath.Join(folder, WorkflowFile), &ws)
	if err != nil || !found {
		return nil, err
	}
	w := &status.Workflow{Name: ws.Name, Stages: ws.Stages, Current: ws.Current, Since: ws.Since, PRs: ws.PRs, Problem: ws.Problem}
	if w.PRs == nil {
		w.PRs = []json.RawMessage{}
	}
	if w.Stages == nil {
		w.Stages = []string{}
		if ws.Name != "" && workflowDir != "" {
			if !validWorkflowName(ws.Name) {
				return w, fmt.Errorf("%s: name %q is not a workflow's file name", filepath.Join(folder, WorkflowFile), status.Cut(ws.Name))
			}
			var def struct {
				Stages stages `json:"stages"`
			}
			path := filepath.Join(workflowDir, ws.Name+".json")
			found, err := readJSON(path, &def)
			if err != nil {
				return w, err
			}
			if !found {
				return w, fmt.Errorf("%s: no such workflow definition", path)
			}
			if def.Stages != nil {
				w.Stages = def.Stages
			}
		}
	}
	return w, nil
}

// readJSON decodes a small JSON file into v; a missing file is (false, nil).
func readJSON(path string, v any) (bool, error) {
	data, err := status.ReadFile(path, status.FollowLinks, maxFolderFile)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return true, status.FileError(path, err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return true, fmt.Errorf("%s: %w", path, jsonError(err))
	}
	return true, nil
}

func statDir(path string) (bool, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return false, err
	}
	return fi.IsDir(), nil
}
