package cmdline

import (
	"bytes"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// TestRunDirectAsUrfave runs the same command lines through Run and
// through app.Run: the action sees the same flags, arguments and command
// name, and whatever Run leaves to urfave/cli (help, errors, aliases,
// Before) comes out as urfave/cli says it.
func TestRunDirectAsUrfave(t *testing.T) {
	newApp := func(out *bytes.Buffer, direct *bool) *cli.App {
		leaf := func(flags ...cli.Flag) *cli.Command {
			return &cli.Command{Name: "leaf", Flags: flags, Action: func(c *cli.Context) error {
				*direct = c.Lineage()[len(c.Lineage())-1] == c // urfave/cli's has the parents' contexts
				out.WriteString(strings.Join([]string{c.Command.HelpName, c.String("s"), c.Args().First(),
					map[bool]string{true: "b", false: "-"}[c.Bool("b")], map[bool]string{true: "set", false: "unset"}[c.IsSet("s")]}, " "))
				return nil
			}}
		}
		plain := leaf(&cli.BoolFlag{Name: "b"}, &cli.StringFlag{Name: "s"}, &cli.IntFlag{Name: "n", Value: 3})
		aliased := leaf(&cli.StringFlag{Name: "s", Aliases: []string{"x"}})
		aliased.Name = "aliased"
		before := leaf(&cli.StringFlag{Name: "s"})
		before.Name, before.Before = "before", func(*cli.Context) error { return nil }
		return &cli.App{Name: "jig", Writer: out, ErrWriter: out, HideHelpCommand: true, ExitErrHandler: func(*cli.Context, error) {},
			Commands: []*cli.Command{{Name: "top", Subcommands: []*cli.Command{plain, aliased, before}}}}
	}
	for _, c := range []struct {
		args   string
		direct bool
	}{
		{"jig top leaf --s v --b arg", true},
		{"jig top leaf arg", true},
		{"jig top leaf --s= arg", true},
		{"jig top leaf --s v -- --b", true},
		{"jig top leaf --help", false},
		{"jig top leaf --nope arg", false},
		{"jig top leaf --n x arg", false},
		{"jig top aliased --x v arg", false},
		{"jig top before --s v arg", false},
		{"jig top", false},
	} {
		args := strings.Fields(c.args)
		var want, got bytes.Buffer
		var direct bool
		wantErr := newApp(&want, &direct).Run(args)
		gotErr := Run(newApp(&got, &direct), args)
		if got.String() != want.String() || (gotErr == nil) != (wantErr == nil) {
			t.Errorf("%s: Run said %q (%v), app.Run %q (%v)", c.args, got.String(), gotErr, want.String(), wantErr)
		}
		if direct != c.direct {
			t.Errorf("%s: ran directly %v, want %v", c.args, direct, c.direct)
		}
	}
}
