package status

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"time"
)

// TempGrace is how old a temp file of a one-step write must be before it
// counts as left behind: a write takes milliseconds, so one this old lost
// its writer (killed between creating it and the rename).
const TempGrace = 10 * time.Minute

// RemoveStaleTemps removes the temp files of one-step writes
// (".NAME.json<digits>", as createTemp names them) left in sessions/
// and requests/ by a writer killed mid-write, once older than TempGrace.
// Readers skip them; nothing else would remove them. It reports how many
// it removed.
func (d *Dir) RemoveStaleTemps(now time.Time) (int, error) {
	removed := 0
	for _, sub := range []string{SessionsDir, RequestsDir} {
		if err := d.Check(sub); err != nil {
			return removed, err
		}
		des, err := os.ReadDir(d.Path(sub))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return removed, err
		}
		for _, de := range des {
			if !isWriteTemp(de.Name()) {
				continue
			}
			fi, err := de.Info() // lstat: a planted link is removed, never followed
			if err != nil || now.Sub(fi.ModTime()) < TempGrace {
				continue
			}
			if os.Remove(d.Path(sub, de.Name())) == nil {
				removed++
			}
		}
	}
	return removed, nil
}

// isWriteTemp reports whether name is a temp file of a write (createTemp)
// for a .json file: a dot, the file's name, then random digits.
func isWriteTemp(name string) bool {
	i := strings.LastIndex(name, ".json")
	if !strings.HasPrefix(name, ".") || i < 2 {
		return false
	}
	digits := name[i+len(".json"):]
	return digits != "" && strings.Trim(digits, "0123456789") == ""
}
