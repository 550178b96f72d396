package render

import "testing"

// TestOneFormatter: every view prints a percentage and a cost through
// these two, with one rounding (a half goes up, as Herdr.app's mods round
// in JavaScript): 85 k of 200 k tokens is 43 % everywhere.
func TestOneFormatter(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	for _, c := range []struct{ got, want string }{
		{Percent(f(85000.0 / 200000 * 100)), "43%"},
		{Percent(f(42.5)), "43%"},
		{Percent(f(52.5)), "53%"},
		{Percent(f(0.4)), "0%"},
		{Percent(f(100)), "100%"},
		{Percent(nil), "?"},
		{Money(f(1.125)), "$1.13"},
		{Money(f(0.125)), "$0.13"},
		{Money(f(0)), "$0.00"},
		{Money(f(12.5)), "$12.50"},
		{Money(nil), "?"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
