package cmdline

import (
	"runtime/debug"
	"testing"
)

func TestVersionLine(t *testing.T) {
	rev := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "8b9792ba220ba2d558f0e484bb929bd0ea262be5"},
		{Key: "vcs.time", Value: "2026-11-30T12:37:21Z"}, {Key: "vcs.modified", Value: "false"}}
	dirty := append(rev[:3:3], debug.BuildSetting{Key: "vcs.modified", Value: "true"})
	for _, c := range []struct {
		version  string
		settings []debug.BuildSetting
		want     string
	}{
		{"v1.2.0", nil, "jig v1.2.0 (revision unknown, go1.26.8)"},
		{"(devel)", nil, "jig (devel) (revision unknown, go1.26.8)"},
		{"", nil, "jig (devel) (revision unknown, go1.26.8)"},
		{"(devel)", rev, "jig (devel) (revision 8b9792ba220b, 2026-11-30T12:37:21Z, go1.26.8)"},
		{"(devel)", dirty, "jig (devel) (revision 8b9792ba220b with local changes, 2026-11-30T12:37:21Z, go1.26.8)"},
		// What Go 1.24+ stamps into a build from a checkout: (devel), as the README says.
		{"v0.0.0-20261130123721-8b9792ba220b", rev, "jig (devel) (revision 8b9792ba220b, 2026-11-30T12:37:21Z, go1.26.8)"},
		{"v0.0.0-20261130123721-8b9792ba220b+dirty", dirty, "jig (devel) (revision 8b9792ba220b with local changes, 2026-11-30T12:37:21Z, go1.26.8)"},
		{"v1.2.1-0.20261130123721-8b9792ba220b", rev, "jig (devel) (revision 8b9792ba220b, 2026-11-30T12:37:21Z, go1.26.8)"},
		// A pseudo-version of another revision is not this checkout's: it stays.
		{"v1.2.1-0.20261130123721-0123456789ab", rev, "jig v1.2.1-0.20261130123721-0123456789ab (revision 8b9792ba220b, 2026-11-30T12:37:21Z, go1.26.8)"},
		// go install jig@<commit> from the module proxy: no VCS settings, the pseudo-version is all there is.
		{"v1.2.1-0.20261130123721-8b9792ba220b", nil, "jig v1.2.1-0.20261130123721-8b9792ba220b (revision unknown, go1.26.8)"},
	} {
		bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "jig", Version: c.version}, Settings: c.settings}
		if got := VersionLine(bi); got != c.want {
			t.Errorf("VersionLine(%q, %v)\n got %q\nwant %q", c.version, c.settings, got, c.want)
		}
	}
}
