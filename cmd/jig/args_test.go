package main

import (
	"io"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"jig/cmdline"
	"jig/exit"
	"jig/hot"
	"jig/render"
)

// TestNormalizeArgs: flags after arguments move before them, keeping their
// values, for every command; `--` ends the flags; nothing is dropped.
func TestNormalizeArgs(t *testing.T) {
	app := newApp(&env{Env: &hot.Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard,
		Getenv: func(string) string { return "" }, Now: time.Now, Hostname: func() (string, error) { return "h", nil }}})
	for _, tc := range []struct{ in, want string }{
		{"jig", "jig"},
		{"jig terminal", "jig terminal"},
		{"jig terminal --json", "jig terminal --json"},
		// the case urfave/cli v2 gets wrong (#976, #1177): a flag after the argument
		{"jig session for-terminal %3 --json", "jig session for-terminal --json %3"},
		{"jig session for-terminal %3 --format {{.State}}", "jig session for-terminal --format {{.State}} %3"},
		{"jig session for-terminal %3 --format={{.State}}", "jig session for-terminal --format={{.State}} %3"},
		{"jig session for-terminal --format {{.State}} %3", "jig session for-terminal --format {{.State}} %3"},
		// every command that takes arguments, as people type them
		{"jig request tool bash off --session S", "jig request tool --session S bash off"},
		{"jig request skill pdf=on xlsx=off --terminal %3 --wait=5s", "jig request skill --terminal %3 --wait=5s pdf=on xlsx=off"},
		{"jig request tool bash off --wait --session S", "jig request tool --wait --session S bash off"},
		{"jig session show s1 --format {{.State}}", "jig session show --format {{.State}} s1"},
		{"jig pi show f.jsonl --json", "jig pi show --json f.jsonl"},
		{"jig session context s1 --help", "jig session context --help"},
		{"jig completion bash --help", "jig completion --help"},
		// a value that looks like a flag stays the flag's value
		{"jig session write --session -odd --pid 7", "jig session write --session -odd --pid 7"},
		{"jig session for-terminal t7 --format --json", "jig session for-terminal --format --json t7"},
		// bool flags take no value: what follows is an argument
		{"jig session for-terminal --json t7", "jig session for-terminal --json t7"},
		{"jig session write --end --session s", "jig session write --end --session s"},
		{"jig session write --end extra --session s", "jig session write --end --session s extra"},
		// single-dash spelling and short help
		{"jig session for-terminal t7 -format x", "jig session for-terminal -format x t7"},
		{"jig session for-terminal t7 -h", "jig session for-terminal --help"},
		{"jig session for-terminal t7 --json --help", "jig session for-terminal --help"},
		// `--` ends the flags: an id that starts with a dash
		{"jig session for-terminal -- --odd-id", "jig session for-terminal -- --odd-id"},
		{"jig session for-terminal --json -- --odd-id", "jig session for-terminal --json -- --odd-id"},
		{"jig session for-terminal -- -x --json", "jig session for-terminal -- -x --json"},
		{"jig session for-terminal t7 --json -- --odd", "jig session for-terminal --json t7 -- --odd"},
		// a lone dash is an argument (stdin, by convention)
		{"jig session show - --json", "jig session show --json -"},
		// unknown flags move too, so the parser names them instead of taking them as arguments
		{"jig session for-terminal t7 --bogus", "jig session for-terminal --bogus t7"},
		{"jig session for-terminal t7 --bogus value", "jig session for-terminal --bogus t7 value"},
		// a flag missing its value at the end stays, for the parser to report
		{"jig session write --session", "jig session write --session"},
		// flags of a command group stay before its subcommand
		{"jig session --help", "jig session --help"},
		{"jig --help session", "jig --help session"},
		// an unknown command: its words stay in order after the flags
		{"jig session nope --json", "jig session --json nope"},
		{"jig nope x", "jig nope x"},
		// shell completion's flag stays last, where urfave/cli looks for it
		{"jig session for-terminal - --generate-bash-completion", "jig session for-terminal - --generate-bash-completion"},
		{"jig session for-terminal t7 --json --generate-bash-completion", "jig session for-terminal --json t7 --generate-bash-completion"},
	} {
		got, err := cmdline.Normalize(app, strings.Fields(tc.in))
		if err != nil {
			t.Errorf("Normalize(%q): %v", tc.in, err)
		}
		if want := strings.Fields(tc.want); !reflect.DeepEqual(got, want) {
			t.Errorf("Normalize(%q)\n got %q\nwant %q", tc.in, got, want)
		}
	}
}

func TestNormalizeArgsDanglingValueFlag(t *testing.T) {
	app := newApp(&env{Env: &hot.Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard,
		Getenv: func(string) string { return "" }, Now: time.Now, Hostname: func() (string, error) { return "h", nil }}})
	_, err := cmdline.Normalize(app, strings.Fields("jig session for-terminal t7 --format"))
	if err == nil || err.Error() != "session for-terminal: flag needs an argument: --format" || exit.Code(err) != exit.Usage {
		t.Errorf("dangling --format: %v", err)
	}
}

// TestHelp: every command of this file's areas says in one line what it
// does and shows an example in its --help.
func TestHelp(t *testing.T) {
	app := newApp(&env{Env: &hot.Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard,
		Getenv: func(string) string { return "" }, Now: time.Now, Hostname: func() (string, error) { return "h", nil }}})
	mine := map[string]bool{"terminal": true, "session": true, "demo": true, "completion": true}
	var walk func(prefix string, cmds []*cli.Command)
	walk = func(prefix string, cmds []*cli.Command) {
		for _, c := range cmds {
			name := strings.TrimSpace(prefix + " " + c.Name)
			if c.Hidden || c.Name == "help" {
				continue
			}
			if c.Usage == "" || strings.Contains(c.Usage, "\n") {
				t.Errorf("jig %s: want a one-line usage, got %q", name, c.Usage)
			}
			_, example, ok := strings.Cut(c.UsageText, "example: ")
			if !ok || !strings.Contains(example, "jig ") {
				t.Errorf("jig %s: no example in --help", name)
			}
			walk(name, c.Subcommands)
		}
	}
	for _, c := range app.Commands {
		if mine[c.Name] {
			walk("", []*cli.Command{c})
		}
	}
}

// FuzzNormalizeArgs: whatever the command line, Normalize only moves
// words: none is lost or added (but for --help, which replaces the rest),
// the command words keep their place, and `--` and what follows keep their
// order at the end.
func FuzzNormalizeArgs(f *testing.F) {
	app := newApp(&env{Env: &hot.Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard,
		Getenv: func(string) string { return "" }, Now: time.Now, Hostname: func() (string, error) { return "h", nil }}})
	for _, s := range []string{
		"session for-terminal %3 --json", "session write --session s --pid 3 --end", "session for-terminal -- -x --json",
		"session for-terminal t7 --format", "terminal --json extra", "session show - --format {{.State}}", "--help session",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := append([]string{"jig"}, strings.Fields(line)...)
		got, err := cmdline.Normalize(app, args)
		if err != nil {
			if exit.Code(err) != exit.Usage {
				t.Fatalf("%q: error %v is not a usage error", args, err)
			}
			return
		}
		if got[0] != "jig" {
			t.Fatalf("%q: program name moved: %q", args, got)
		}
		for _, w := range got {
			if w == "--help" {
				return
			}
		}
		if !sameWords(args, got) {
			t.Fatalf("%q became %q: words lost or added", args, got)
		}
		// `--` ends the flags, unless it is the value of the flag before it
		// (`--format --`, as Go's flag package reads it): then it moves with it.
		if i := indexOf(args, "--"); i >= 0 && !strings.HasPrefix(args[i-1], "-") {
			tail := args[i:]
			if j := indexOf(got, "--"); j < 0 || !reflect.DeepEqual(got[len(got)-len(tail):], tail) {
				t.Fatalf("%q became %q: the words after -- moved", args, got)
			}
		}
	})
}

func sameWords(a, b []string) bool {
	count := map[string]int{}
	for _, w := range a {
		count[w]++
	}
	for _, w := range b {
		count[w]--
	}
	for _, n := range count {
		if n != 0 {
			return false
		}
	}
	return len(a) == len(b)
}

func indexOf(list []string, w string) int {
	for i, v := range list {
		if v == w {
			return i
		}
	}
	return -1
}

// TestHelpNamesUsageAndExample walks every command: each has a one-line
// usage and an example in its --help.
func TestHelpNamesUsageAndExample(t *testing.T) {
	app := newApp(newEnv())
	var walk func(path string, cmds []*cli.Command)
	full, err := os.ReadFile("../../status/testdata/full.json")
	if err != nil {
		t.Fatal(err)
	}
	formatArg := regexp.MustCompile(`--format '([^']*)'`)
	check := func(path, usage, text string) {
		// A --format in an example must run on a complete status file.
		for _, m := range formatArg.FindAllStringSubmatch(text, -1) {
			if err := render.Template(io.Discard, m[1], full, time.Now()); err != nil {
				t.Errorf("%s: the example's --format %q fails: %v", path, m[1], err)
			}
		}
		if usage == "" || strings.Contains(usage, "\n") {
			t.Errorf("%s: want a one-line usage, got %q", path, usage)
		}
		if !regexp.MustCompile(`(?m)examples?: .*\bjig `).MatchString(text) {
			t.Errorf("%s: --help has no example", path)
		}
	}
	walk = func(path string, cmds []*cli.Command) {
		for _, c := range cmds {
			if c.Hidden || c.Name == "help" {
				continue
			}
			p := path + " " + c.Name
			check(p, c.Usage, c.UsageText)
			walk(p, c.Subcommands)
		}
	}
	check("jig", app.Usage, app.UsageText)
	walk("jig", app.Commands)
}

// TestNormalizeArgsEmpty: an empty argument, and an empty value of every
// flag of every command that takes an ID, is a usage error naming what is
// empty, whichever spelling (`--terminal ""`, `--terminal=`, after `--`).
// Before, `for-terminal ""` said "want one terminal ID, got 1 arguments"
// and `--terminal ""` read as no --terminal: the session of this terminal.
func TestNormalizeArgsEmpty(t *testing.T) {
	app := newApp(&env{Env: &hot.Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard,
		Getenv: func(string) string { return "" }, Now: time.Now, Hostname: func() (string, error) { return "h", nil }}})
	cases := emptyCases(app)
	idFlags := 0
	for _, c := range cases {
		_, err := cmdline.Normalize(app, c.args)
		if exit.Code(err) != exit.Usage || err == nil || !strings.HasSuffix(err.Error(), ": "+c.what+" is empty") {
			t.Errorf("%q: %v, want a usage error ending %q", c.args, err, c.what+" is empty")
		}
		if strings.HasSuffix(c.what, " ID") {
			idFlags++
		}
	}
	if idFlags < 16 {
		t.Errorf("only %d empty ID flags tried: --session and --terminal of request, session and panel should be", idFlags)
	}
	for args, what := range map[string]string{
		"session for-terminal": "ID", "session show": "ID", "pi show": "FILE|ID", "ticket use": "KEY", "request tool": "NAME",
	} {
		if got := cmdline.ArgName(findPath(app, args), strings.Fields(args), 0); got != what {
			t.Errorf("jig %s's argument: %q, want %q", args, got, what)
		}
	}
}

// emptyCase is a command line with an empty word and what its error names.
type emptyCase struct {
	args []string
	what string
}

// emptyCases are, for every command, each flag that takes an ID given an
// empty value (both spellings) and, for a command without subcommands, an
// empty first argument (plain and after `--`).
func emptyCases(app *cli.App) []emptyCase {
	var cases []emptyCase
	var walk func(path []string, cmds []*cli.Command)
	walk = func(path []string, cmds []*cli.Command) {
		for _, c := range cmds {
			p := append(append([]string{"jig"}, path...), c.Name)
			walk(p[1:], c.Subcommands)
			for _, f := range c.Flags {
				if flag := "--" + f.Names()[0]; cmdline.TakesID(c.Flags, flag) {
					cases = append(cases, emptyCase{append(slices.Clone(p), flag, ""), flag + " ID"},
						emptyCase{append(slices.Clone(p), flag+"="), flag + " ID"})
				}
			}
			if len(c.Subcommands) == 0 {
				name := cmdline.ArgName(c, p[1:], 0)
				cases = append(cases, emptyCase{append(slices.Clone(p), ""), name}, emptyCase{append(slices.Clone(p), "--", ""), name})
			}
		}
	}
	walk(nil, app.Commands)
	return cases
}

// findPath is the command at a path of names.
func findPath(app *cli.App, path string) *cli.Command {
	var c *cli.Command
	cmds := app.Commands
	for _, name := range strings.Fields(path) {
		c = cmdline.FindCommand(cmds, name)
		cmds = c.Subcommands
	}
	return c
}
