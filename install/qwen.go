package install

import (
	"errors"
	"path/filepath"

	"jig/qwen"
)

// Qwen is `jig install qwen`: jig's hook merged into Qwen Code's user
// settings ($QWEN_HOME/settings.json, else ~/.qwen/settings.json).
// Everything else in the file stays.
type Qwen struct {
	Getenv    Getenv
	Uninstall bool // remove exactly jig's entries instead
}

func (q Qwen) path() (string, error) {
	home := qwen.Home(q.Getenv)
	if home == "" {
		return "", errors.New("no HOME or QWEN_HOME to find Qwen Code's settings in")
	}
	return filepath.Join(home, "settings.json"), nil
}

// Edit merges jig's hook, which runs jig by its absolute path (JigPath),
// or with Uninstall removes exactly jig's entries.
func (q Qwen) Edit() (File, error) {
	path, err := q.path()
	if err != nil {
		return File{}, err
	}
	if q.Uninstall {
		return EditFile(path, qwen.Uninstall)
	}
	bin, err := JigPath(q.Getenv)
	if err != nil {
		return File{}, err
	}
	return EditFile(path, func(old []byte) ([]byte, bool, error) { return qwen.Install(old, bin) })
}
