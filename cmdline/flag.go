package cmdline

import (
	"fmt"
	"time"

	"github.com/urfave/cli/v2"
)

// OptionalDuration is the value of a flag whose duration may be left out:
// --wait is Bare, --wait=5s is 5s.
type OptionalDuration struct {
	Bare  time.Duration // the duration of the bare flag
	D     time.Duration
	Given bool
}

func (o *OptionalDuration) String() string {
	if o == nil || !o.Given {
		return ""
	}
	return o.D.String()
}

func (o *OptionalDuration) Set(v string) error {
	switch v {
	case "true":
		o.D, o.Given = o.Bare, true
		return nil
	case "false":
		o.Given = false
		return nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return fmt.Errorf("want a duration such as 10s or 500ms, got %q", v)
	}
	o.D, o.Given = d, true
	return nil
}

// IsBoolFlag lets the flag parser take a bare --wait, and --wait=5s.
func (o *OptionalDuration) IsBoolFlag() bool { return true }

// OptionalFlag is a flag whose value is optional: it never takes the next
// argument as its value (write --wait=5s, not --wait 5s).
type OptionalFlag struct{ *cli.GenericFlag }

func (OptionalFlag) TakesValue() bool { return false }

// String is the help line, built from this flag so it shows no placeholder.
func (f OptionalFlag) String() string { return cli.FlagStringer(f) }
