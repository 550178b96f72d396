package cmdline

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// Version says which jig this is, from what the Go toolchain recorded in the
// binary: the module version (`go install jig@v1.2.0`), else "(devel)" for
// a build from a checkout, and the VCS revision when the build saw one.
//
// Go 1.24+ stamps a build from a checkout with a pseudo-version made of the
// revision and its time (v0.0.0-20261130123721-8b9792ba220b+dirty, or
// v1.2.1-0.… after a tag v1.2.0). jig says (devel) instead: that number was
// never released, and the revision, time and local changes follow spelt out.
// A checkout on a tag is stamped with the tag's version, which stays.
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "jig (devel) (no build information)"
	}
	return VersionLine(bi)
}

// VersionLine is Version from the build information bi.
func VersionLine(bi *debug.BuildInfo) string {
	var rev, at string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	v := bi.Main.Version
	if v == "" || stampedFrom(v, rev) {
		v = "(devel)"
	}
	var about []string
	switch {
	case rev == "":
		about = append(about, "revision unknown")
	case modified:
		about = append(about, "revision "+short(rev)+" with local changes")
	default:
		about = append(about, "revision "+short(rev))
	}
	if at != "" {
		about = append(about, at)
	}
	about = append(about, bi.GoVersion)
	return fmt.Sprintf("jig %s (%s)", v, strings.Join(about, ", "))
}

// stampedFrom reports whether version is the pseudo-version Go made from
// the checkout's revision: it ends with the revision's first 12 characters,
// and "+dirty" with local changes.
func stampedFrom(version, rev string) bool {
	return rev != "" && strings.HasSuffix(strings.TrimSuffix(version, "+dirty"), "-"+short(rev))
}

// short is a commit hash cut to the 12 characters git shows.
func short(rev string) string {
	if len(rev) > 12 {
		return rev[:12]
	}
	return rev
}
