package transcript

import (
	"fmt"
	"strings"

	"jig/status"
)

// MatchID is the file of the session whose id is arg, else of the one
// session whose id starts with it: how every agent's show (`jig pi show
// ID`, `jig claude show ID`, …) finds a transcript among those listed in
// folder. Finding none, or more than one, is status.ErrNotFound.
func MatchID[T any](arg, folder string, list []T, idFile func(T) (id, file string)) (string, error) {
	var found []string
	for _, in := range list {
		id, file := idFile(in)
		if id == arg {
			return file, nil
		}
		if strings.HasPrefix(id, arg) {
			found = append(found, file)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return "", status.Mark(status.ErrNotFound, fmt.Errorf("%s: no such file or session in %s", arg, folder))
	}
	return "", status.Mark(status.ErrNotFound, fmt.Errorf("%s: %d sessions start with it; give more of the id", arg, len(found)))
}
