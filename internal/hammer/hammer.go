// Package hammer is what the hammer tests of every package share: the
// -hammer.full flag, which runs them at the counts bench/reliability
// records (without it they stay short enough for every `go test ./...`),
// and the figure line that bench/reliability/run.sh turns into its table;
// and the plants of plant.go, which every reader of a foreign file must
// refuse at once.
package hammer

import (
	"flag"
	"slices"
	"strconv"
	"strings"
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

// Row is one attack's line in bench/reliability's table, so that one run
// is compared with the next number by number.
type Row struct {
	Attack  string // what was tried
	Load    string // how much of it
	Kept    string // what held, counted: "59 of 59 changes", "old file intact"
	Lost    int64  // what went wrong: lost, torn, hidden or wrong (must be 0)
	Blocked int64  // runs that hung past their bound (must be 0)
	Exit    string // the exit codes the processes gave, "-" for none
}

// Figure logs r as the line bench/reliability/run.sh turns into its table,
// with the time since start.
func Figure(t testing.TB, r Row, start time.Time) {
	t.Helper()
	if r.Exit == "" {
		r.Exit = "-"
	}
	t.Logf("figure|%s|%s|%s|%d|%d|%s|%s", r.Attack, r.Load, r.Kept, r.Lost, r.Blocked, r.Exit, time.Since(start).Round(time.Millisecond))
}

// Exits lists the distinct exit codes seen, in the order first seen:
// "0", "0, 7".
type Exits []int

// Add records one process's exit code.
func (e *Exits) Add(code int) {
	if !slices.Contains(*e, code) {
		*e = append(*e, code)
	}
}

func (e Exits) String() string {
	words := make([]string, len(e))
	for i, c := range e {
		words[i] = strconv.Itoa(c)
	}
	return strings.Join(words, ", ")
}
