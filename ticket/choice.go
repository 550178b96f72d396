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

// TicketsDir holds the `jig ticket use` choices in the state dir, one file
// per working folder.
const TicketsDir = "tickets"

// choice is a `jig ticket use` file. Cwd is kept in it so a folder whose
// safe name another folder shares never takes its choice.
type choice struct {
	Schema int    `json:"schema"`
	CWD    string `json:"cwd"`
	Key    string `json:"key"`
}

func choicePath(d *status.Dir, cwd string) string {
	return d.Path(TicketsDir, status.SafeName(cwd)+".json")
}

// Use records key as the ticket of the working folder cwd (absolute), in
// one step, mode 0600.
func Use(d *status.Dir, cwd, key string) error {
	if !ValidKey(key) {
		return fmt.Errorf("%q is not a ticket key (such as SHOP-142)", status.Cut(key))
	}
	if !filepath.IsAbs(cwd) {
		return fmt.Errorf("%q: want an absolute folder", status.Cut(cwd))
	}
	if err := d.Ensure(TicketsDir); err != nil {
		return err
	}
	data, _ := json.Marshal(choice{Schema: 1, CWD: filepath.Clean(cwd), Key: key})
	return status.WriteFileAtomic(choicePath(d, filepath.Clean(cwd)), append(data, '\n'))
}

// Clear forgets the choice of cwd; none is not an error.
func Clear(d *status.Dir, cwd string) error {
	if err := d.Check(TicketsDir); err != nil {
		return err
	}
	err := os.Remove(choicePath(d, filepath.Clean(cwd)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// Chosen is the key chosen for cwd or the nearest folder above it, and
// that folder; "" when none.
func Chosen(d *status.Dir, cwd string) (key, folder string, err error) {
	if err := d.Check(TicketsDir); err != nil {
		return "", "", err
	}
	for dir := filepath.Clean(cwd); ; {
		data, err := status.ReadFileNoFollow(choicePath(d, dir))
		switch {
		case err == nil:
			var c choice
			if json.Unmarshal(data, &c) == nil && c.CWD == dir && ValidKey(c.Key) {
				return c.Key, dir, nil
			}
		case !errors.Is(err, fs.ErrNotExist):
			return "", "", err
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", "", nil
		}
		dir = up
	}
}
