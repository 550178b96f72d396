package transcript

import (
	"slices"
	"strings"
	"time"

	"jig/status"
)

// Written is a file a successful write or edit touched, as an agent's
// reader keeps it by path: created by the call (or an earlier one),
// and when, in unix ms.
type Written struct {
	Created bool  `json:"created"`
	At      int64 `json:"at"`
}

// WrittenOutputs are the files in the status file's terms: newest first,
// within the status file's limits. repo names the git work tree holding a
// path (nil for none).
func WrittenOutputs(files map[string]Written, repo func(path string) *string) []status.Output {
	outs := make([]status.Output, 0, len(files))
	for p, o := range files {
		out := status.Output{Path: p, Action: status.Changed, At: MsTime(o.At)}
		if o.Created {
			out.Action = status.Created
		}
		if repo != nil {
			out.Repo = repo(p)
		}
		outs = append(outs, out)
	}
	slices.SortFunc(outs, func(a, b status.Output) int {
		if c := b.At.Compare(a.At); c != 0 {
			return c
		}
		return strings.Compare(a.Path, b.Path)
	})
	return status.LimitOutputs(outs)
}

// MsTime is unix ms as a time, the zero time for 0 (not known).
func MsTime(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}
