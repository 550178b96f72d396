package hot

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"jig/exit"
	"jig/render"
)

// ErrPass: this program does not answer the command line as it is given;
// jig does (Main).
var ErrPass = errors.New("jig answers this command line")

// Main runs a program beside jig (jig-line, jig-fast): answer takes args
// (os.Args) without the program's name, and says ErrPass for a line it does
// not read whole — another command, a flag it does not know or a form it
// does not read, --help, flags that do not go together — which jig (Exec)
// then answers, its errors too. Its exit code, and the one line on stderr
// when it fails, are jig's (jig/exit).
func Main(args []string, e *Env, answer func(args []string) error, jig func(args []string) error) int {
	err := answer(args[1:])
	if err == ErrPass {
		err = jig(args)
	}
	if err != nil {
		exit.Say(e.Stderr, err)
	}
	return exit.Code(err)
}

// AnswerLine is jig-line: `session for-terminal` without --jq, read whole
// in the forms the installers write and people type (OutputFlags); every
// other line is ErrPass.
func (e *Env) AnswerLine(args []string) error {
	if len(args) < 2 || args[0] != "session" || args[1] != "for-terminal" {
		return ErrPass
	}
	o, ids, ok := OutputFlags(args[2:], "")
	if !ok {
		return ErrPass
	}
	out, err := e.PassPrinter(o)
	if err != nil {
		return err
	}
	return exit.Named("session for-terminal", e.ForTerminal(out, ids))
}

// PassPrinter is o's printer for a line a program beside jig answers; flags
// that do not go together are jig's to say (ErrPass), before anything is
// done.
func (e *Env) PassPrinter(o render.Output) (*render.Printer, error) {
	o.Summary = e.StdoutTTY
	out, err := e.Printer(o)
	if err != nil {
		return nil, ErrPass
	}
	return out, nil
}

// OutputFlags reads a status-line command's arguments: ids and the output
// flags of a status line, --flag or --flag=value, each once, and the bool
// flag ignored (a mark, "" for none). ok is false for anything else (--jq,
// -h, a short form, an empty word, a word starting with "-" where a value
// or an id goes, a --max-width that is not plain digits): jig reads those.
func OutputFlags(args []string, ignored string) (o render.Output, ids []string, ok bool) {
	seen := map[string]bool{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "--") {
			if a == "" || a[0] == '-' {
				return o, nil, false
			}
			ids = append(ids, a)
			continue
		}
		name, value, inline := strings.Cut(a[2:], "=")
		if seen[name] {
			return o, nil, false
		}
		seen[name] = true
		switch name {
		case "json", "rate-limits", ignored:
			if inline || name == "" {
				return o, nil, false
			}
			if name == "json" {
				o.JSON = true
			} else if name == "rate-limits" {
				o.RateLimits = true
			}
			continue
		case "preset", "format", "shell", "max-width":
		default:
			return o, nil, false
		}
		if !inline {
			if i++; i == len(args) {
				return o, nil, false
			}
			value = args[i]
		}
		if value == "" || value[0] == '-' {
			return o, nil, false
		}
		switch name {
		case "preset":
			o.Preset = &value
		case "format":
			o.Format = &value
		case "shell":
			o.Shell = &value
		case "max-width":
			n, err := strconv.Atoi(value)
			if err != nil || len(value) > 9 || strings.Trim(value, "0123456789") != "" {
				return o, nil, false
			}
			o.MaxWidth = &n
		}
	}
	return o, ids, true
}

// Exec hands the command line to the jig beside this program (jig-line,
// jig-fast) by exec: it is this process, with its parent (an agent's hook
// keeps its agent), stdin and environment. It returns only when it could
// not.
func Exec(args []string) error {
	self, err := os.Executable()
	if err != nil {
		return exit.Named(filepath.Base(args[0]), err)
	}
	name := filepath.Base(self)
	jig := beside(self)
	if same(jig, self) {
		return exit.Named(name, fmt.Errorf("%w %s", errNoJig, name))
	}
	err = syscall.Exec(jig, append([]string{jig}, args[1:]...), os.Environ())
	return exit.Named(name, fmt.Errorf("%w %s: %v", errNoJig, name, err))
}

// same reports whether a and b are one file (a jig that is this program
// would hand every line to itself).
func same(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}
