package cmdline

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"
)

// "Did you mean" comes from urfave/cli's own suggestions (Jaro-Winkler over
// the names). A build with -tags urfave_cli_no_suggest leaves them out:
// cli.SuggestCommand and cli.SuggestFlag are nil there and jig says no more
// than the error.

// didYouMean is ` (did you mean "NAME"?)` for the command or flag closest to
// typed, or "" when there is none worth naming. urfave always names the
// closest, however far; a name that does not even start with the same
// character as what was typed is more noise than help.
func didYouMean(typed, name string) string {
	if name == "" || typed == "" || name == "help" || name == "h" ||
		strings.TrimLeft(name, "-")[0] != strings.TrimLeft(typed, "-")[0] {
		return ""
	}
	return " (did you mean " + strconv.Quote(name) + "?)"
}

// SuggestCommand is didYouMean for an unknown command among cmds.
func SuggestCommand(cmds []*cli.Command, typed string) string {
	if cli.SuggestCommand == nil || typed == "" {
		return ""
	}
	var visible []*cli.Command
	for _, c := range cmds {
		if !c.Hidden {
			visible = append(visible, c)
		}
	}
	// urfave returns its sentence ("Did you mean %q?"): take the name from it.
	said := cli.SuggestCommand(visible, typed)
	i := strings.IndexByte(said, '"')
	if i < 0 {
		return ""
	}
	quoted, err := strconv.QuotedPrefix(said[i:])
	if err != nil {
		return ""
	}
	name, _ := strconv.Unquote(quoted)
	return didYouMean(typed, name)
}

// goFlagName finds the flag Go's flag package names in its errors, which it
// always spells with one dash ("flag provided but not defined: -jsn").
var goFlagName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(defined: |argument: |for flag |for )-([^\s:=]+)`)
})

// FlagError rewrites a flag parser's error for the command line args: each
// flag spelled as the user typed it (`--jsn`, not `-jsn`), and a flag that
// does not exist followed by the closest one that does.
func FlagError(err error, flags []cli.Flag, args []string) string {
	msg := err.Error()
	var unknown string
	re := goFlagName()
	msg = re.ReplaceAllStringFunc(msg, func(m string) string {
		sub := re.FindStringSubmatch(m)
		typed := asTyped(sub[2], args)
		if sub[1] == "defined: " {
			unknown = typed
		}
		return sub[1] + typed
	})
	if unknown != "" && cli.SuggestFlag != nil {
		msg += didYouMean(unknown, cli.SuggestFlag(flags, strings.TrimLeft(unknown, "-"), true))
	}
	return msg
}

// asTyped is flag name as args spell it (`-x`, `--name`, `--name=v`), else
// with the usual dashes.
func asTyped(name string, args []string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		bare := strings.TrimLeft(a, "-")
		if n, _, _ := strings.Cut(bare, "="); n == name && len(a) > len(bare) {
			return a[:len(a)-len(bare)] + name
		}
	}
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}
