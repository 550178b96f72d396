package ticket

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"jig/status"
)

// EvidenceDir holds what proves the work. Jig saves tool outputs there by
// itself under names beginning with AutoPrefix ("tool-bash-<call id>.txt");
// those are not user-facing and are left out.
const (
	EvidenceDir = "evidence"
	AutoPrefix  = "tool-"
)

// maxEntries bounds the entries read of one folder: a ticket folder holds a
// few dozen files, and a huge one must not stall the writer.
const maxEntries = 1000

// reportExt are the user-facing files outside evidence/.
var reportExt = map[string]bool{".md": true, ".txt": true, ".json": true}

// Outputs lists a ticket folder's user-facing files, two levels deep (the
// folder and its subfolders), newest first, up to the status file's caps:
// notes, plans and other .md, .txt and .json reports, and every file of
// evidence/ but the tool outputs Jig saved there (AutoPrefix). Never
// ticket.json, workflow.json, history/, a hidden file, or what a symlink
// points to outside the folder. at is the file's modification time; repo
// names the work tree holding it (nil: none).
func Outputs(folder string, repo func(string) *string) []status.Output {
	root, err := filepath.EvalSymlinks(folder)
	if err != nil {
		return []status.Output{}
	}
	l := lister{root: root, repo: repo, outs: []status.Output{}}
	l.list(folder, "", 1)
	sort.SliceStable(l.outs, func(i, j int) bool {
		a, b := l.outs[i], l.outs[j]
		if !a.At.Equal(b.At) {
			return a.At.After(b.At)
		}
		return a.Path < b.Path
	})
	return status.LimitOutputs(l.outs)
}

type lister struct {
	root string // the folder's real path: nothing outside it is listed
	repo func(string) *string
	outs []status.Output
}

// list reads one folder; sub is the name of the first-level subfolder it
// is ("" for the ticket folder itself), depth 1 or 2.
func (l *lister) list(dir, sub string, depth int) {
	f, err := status.OpenDir(dir)
	if err != nil {
		return
	}
	entries, _ := f.ReadDir(maxEntries)
	f.Close()
	for _, de := range entries {
		name := de.Name()
		if strings.HasPrefix(name, ".") || name == TicketFile || name == WorkflowFile {
			continue
		}
		path := filepath.Join(dir, name)
		fi, ok := l.inside(path, de)
		if !ok {
			continue
		}
		switch {
		case fi.IsDir():
			if depth == 1 && name != HistoryDir {
				l.list(path, name, 2)
			}
		case fi.Mode().IsRegular() && l.userFacing(sub, name):
			o := status.Output{Path: path, Action: status.Changed, At: fi.ModTime().UTC()}
			if l.repo != nil {
				o.Repo = l.repo(path)
			}
			l.outs = append(l.outs, o)
		}
	}
}

// inside stats an entry, following a symlink only to a target inside the
// ticket folder.
func (l *lister) inside(path string, de os.DirEntry) (os.FileInfo, bool) {
	if de.Type()&os.ModeSymlink == 0 {
		fi, err := de.Info()
		return fi, err == nil
	}
	target, err := filepath.EvalSymlinks(path)
	if err != nil || target == l.root || !strings.HasPrefix(target, l.root+string(filepath.Separator)) {
		return nil, false
	}
	fi, err := os.Stat(target)
	return fi, err == nil
}

func (l *lister) userFacing(sub, name string) bool {
	if sub == EvidenceDir {
		return !strings.HasPrefix(name, AutoPrefix)
	}
	return reportExt[strings.ToLower(filepath.Ext(name))]
}
