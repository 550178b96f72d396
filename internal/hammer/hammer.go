// Package hammer is what the hammer tests of every package share: the
// -hammer.full flag, which runs them at the counts bench/reliability
// records (without it they stay short enough for every `go test ./...`),
// and the figure line that bench/reliability/run.sh turns into its table.
package hammer

import (
	"flag"
	"testing"
	"time"
)

var full = flag.Bool("hammer.full", false, "run the hammer tests at full counts (bench/reliability)")

// Full reports whether the tests run at full counts.
func Full() bool { return *full }

// Scaled is n, or fullN under -hammer.full.
func Scaled(n, fullN int) int {
	if *full {
		return fullN
	}
	return n
}

// Figure logs one row of bench/reliability's table: what was hammered, how
// hard, how many things went wrong (the count that must be 0), how long.
func Figure(t testing.TB, what, load string, bad int64, start time.Time) {
	t.Helper()
	t.Logf("figure|%s|%s|%d|%s", what, load, bad, time.Since(start).Round(time.Millisecond))
}
