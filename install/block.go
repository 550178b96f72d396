// Package install puts jig's integrations where each host finds them: the
// lines of a config file (tmux.conf, wezterm.lua, kitty.conf) between
// jig's begin and end lines, the files jig ships (the WezTerm module, the
// kitty watcher, the Herdr mods and plugin, the Pi extension) and the
// entries jig merges into Claude Code's settings. Each host has its
// functions, which return what they did; `jig install` prints it.
package install

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"jig/configfile"
)

// Change is what one step did to one file.
type Change int

const (
	Unchanged Change = iota // already as wanted: nothing written
	Added                   // jig's lines or file put in place
	Updated                 // jig's lines or file replaced by the current ones
	Removed                 // jig's lines or file taken out
)

// Edit is what a --write or --uninstall did to a host's config.
type Edit struct {
	File    string   // the config file edited (a link's target)
	Change  Change   // to the config file: Unchanged when it had jig's lines (write) or none (uninstall)
	Saved   string   // the file jig saved beside the config (the watcher, jig.lua), if any
	Deleted []string // the files jig wrote that went with the lines, in order
	Reload  string   // a command that makes the running host read its config again, if there is one
}

// Block is what `jig install HOST --write` adds to a config file: lines
// between a begin and an end line, in the file's comment syntax, so that a
// later write replaces exactly them (a variant added afterwards takes
// effect) and an uninstall removes exactly them.
type Block struct {
	File    string // the config file; a link is followed to the file it points at
	Comment string // the config's comment marker: "#", "--"
	Name    string // the host, named in the begin and end lines
	// Fresh is the file as jig makes it when there is none. A file that is
	// Fresh again once the block is out is jig's own and goes too.
	Fresh string
}

func (b Block) begin() string { return b.Comment + " jig install " + b.Name + ": begin\n" }
func (b Block) end() string   { return b.Comment + " jig install " + b.Name + ": end\n" }

// Find is where the block is in data: [i, j), or ok false. A block at the
// end of a file that had no final newline has none either, and the newline
// jig put before it is its own: [i, j) holds it.
func (b Block) Find(data []byte) (i, j int, ok bool) {
	i = bytes.Index(data, []byte(b.begin()))
	if i < 0 || (i > 0 && data[i-1] != '\n') {
		return 0, 0, false
	}
	if end := bytes.Index(data[i:], []byte(b.end())); end >= 0 {
		return i, i + end + len(b.end()), true
	}
	bare := strings.TrimSuffix(b.end(), "\n")
	if !bytes.HasSuffix(data, []byte(bare)) || len(data)-len(bare) < i+len(b.begin()) {
		return 0, 0, false
	}
	return max(i-1, 0), len(data), true
}

// lines are the block's own lines, as Find found it.
func (b Block) lines(block []byte) string {
	text := strings.TrimPrefix(string(block), "\n")
	text = strings.TrimPrefix(text, b.begin())
	return strings.TrimSuffix(strings.TrimSuffix(text, "\n"), strings.TrimSuffix(b.end(), "\n"))
}

// around is the block's text where it goes: after a line that has no
// newline, a newline first; at the end of a file that has no final
// newline, none at its end either, so the file still has none.
func (b Block) around(text string, head, tail []byte) string {
	want := b.begin() + text + b.end()
	if len(head) > 0 && !bytes.HasSuffix(head, []byte("\n")) {
		want = "\n" + want
		if len(tail) == 0 {
			want = strings.TrimSuffix(want, "\n")
		}
	}
	return want
}

// Place is where a new block goes in a config, or ok false when the config
// has no such place.
type Place func(old []byte) (at int, ok bool)

// AtEnd places a new block at the end of a file.
func AtEnd(old []byte) (int, bool) { return len(old), true }

// NoPlaceError is a config in which Place found no place for jig's lines.
type NoPlaceError struct {
	File, Want, Lines string // the file, what it lacks, the lines to add by hand
}

func (e *NoPlaceError) Error() string {
	return fmt.Sprintf("%s has no %s: add these lines to it yourself: %s", e.File, e.Want, e.Lines)
}

// readConfig reads b's file for an edit (configfile: through a dotfiles
// manager's link, the file it points at is the one edited; a read-only one
// is refused).
func (b Block) readConfig() (configfile.File, error) { return configfile.Read(b.File) }

// Write puts text between b's lines in its file, in one step: replacing
// the block already there, else where place says (a missing file is
// b.Fresh first). noPlace names, for the error, what place looks for.
func (b Block) Write(text string, place Place, noPlace string) (Edit, error) {
	c, err := b.readConfig()
	if err != nil {
		return Edit{}, err
	}
	old := c.Data
	if old == nil {
		old = []byte(b.Fresh)
	}
	edit := Edit{File: c.Target, Change: Added}
	var updated []byte
	if i, j, ok := b.Find(old); ok {
		want := b.begin() + text + b.end()
		if j == len(old) && !bytes.HasSuffix(old, []byte("\n")) && i > 0 {
			want = "\n" + strings.TrimSuffix(want, "\n") // still no final newline
		}
		if string(old[i:j]) == want {
			edit.Change = Unchanged
			return edit, nil
		}
		edit.Change = Updated
		updated = append(append(append([]byte{}, old[:i]...), want...), old[j:]...)
	} else {
		at, ok := place(old)
		if !ok {
			return Edit{}, &NoPlaceError{File: c.Target, Want: noPlace, Lines: string(bytes.TrimSpace([]byte(text)))}
		}
		head := old[:at]
		updated = append(append(append([]byte{}, head...), b.around(text, head, old[at:])...), old[at:]...)
	}
	if err := c.Write(updated, 0o644); err != nil {
		return Edit{}, err
	}
	return edit, nil
}

// Remove takes b's lines out of its file, in one step, and nothing else; a
// file without them is left as it is. A file that is then as jig made it
// (b.Fresh) goes, unless it is reached through a link. It returns the
// lines it took out.
func (b Block) Remove() (Edit, string, error) {
	c, err := b.readConfig()
	if err != nil {
		return Edit{}, "", err
	}
	edit := Edit{File: c.Target}
	i, j, ok := b.Find(c.Data)
	if !ok {
		return edit, "", nil
	}
	edit.Change = Removed
	lines := b.lines(c.Data[i:j])
	updated := append(append([]byte{}, c.Data[:i]...), c.Data[j:]...)
	if string(updated) == b.Fresh && !c.Linked {
		if err := c.Remove(); err != nil {
			return Edit{}, "", err
		}
		edit.Deleted = append(edit.Deleted, c.Target)
		return edit, lines, nil
	}
	if err := c.Write(updated, 0o644); err != nil {
		return Edit{}, "", err
	}
	return edit, lines, nil
}

// removeOwn removes path when it is a regular file that starts with head
// (a file jig wrote), and says whether it did; anything else there (a
// file of the user's, a link) stays.
func removeOwn(path, head string) (bool, error) {
	data, err := readFile(path)
	if err != nil || !bytes.HasPrefix(data, []byte(head)) {
		return false, nil
	}
	if err := os.Remove(path); err != nil {
		return false, err
	}
	return true, nil
}
