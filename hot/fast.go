package hot

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	"jig/agents/peer"
	"jig/exit"
	"jig/render"
)

// errPass: jig-fast does not answer this command line as it is given; jig
// does (Main).
var errPass = errors.New("jig answers this command line")

// Main is jig-fast: args (os.Args) answered as jig answers them. It takes
// `session for-terminal` and `AGENT statusline` without --jq or --then,
// and `AGENT hook`, read whole in the forms the installers write them;
// anything else — another command, a flag it does not know or a form it
// does not read, --help, a line whose flags do not go together — it hands
// to jig (Exec), which answers it, its errors too. Its exit code, and the
// one line on stderr when it fails, are jig's (jig/exit).
func Main(args []string, e *Env, jig func(args []string) error) int {
	err := e.fast(args[1:])
	if err == errPass {
		err = jig(args)
	}
	if err != nil {
		exit.Say(e.Stderr, err)
	}
	return exit.Code(err)
}

func (e *Env) fast(args []string) error {
	if len(args) < 2 {
		return errPass
	}
	if args[0] == "session" && args[1] == "for-terminal" {
		o, ids, ok := outputFlags(args[2:], "")
		if !ok {
			return errPass
		}
		out, err := e.fastPrinter(o)
		if err != nil {
			return err
		}
		return exit.Named("session for-terminal", e.ForTerminal(out, ids))
	}
	a, ok := agent(args[0])
	switch {
	case ok && args[1] == "hook" && len(args) == 2 && a.Hook != nil:
		name := a.Name + " hook"
		err := e.Hook(a, func(err error) { exit.Say(e.Stderr, exit.Named(name, err)) })
		return exit.Named(name, err)
	case ok && args[1] == "statusline" && a.StatusLine != nil:
		o, ids, ok := outputFlags(args[2:], "refreshed")
		if !ok || len(ids) > 0 {
			return errPass
		}
		if o.Preset == nil && o.Format == nil && !o.JSON {
			ansi := render.PresetANSI // the line Claude shows unless told otherwise
			o.Preset = &ansi
		}
		out, err := e.fastPrinter(o)
		if err != nil {
			return err
		}
		return exit.Named(a.Name+" statusline", e.StatusLine(a, out))
	}
	return errPass
}

// agent is the registered agent whose commands are `jig NAME …`.
func agent(name string) (peer.Agent, bool) {
	for _, a := range peer.All() {
		if a.Name == name {
			return a, true
		}
	}
	return peer.Agent{}, false
}

// fastPrinter is o's printer; flags that do not go together are jig's to
// say (errPass), before anything is done.
func (e *Env) fastPrinter(o render.Output) (*render.Printer, error) {
	o.Summary = e.StdoutTTY
	out, err := e.Printer(o)
	if err != nil {
		return nil, errPass
	}
	return out, nil
}

// outputFlags reads a status-line command's arguments: ids and the output
// flags of a status line, --flag or --flag=value, each once, and the bool
// flag ignored (a mark, "" for none). ok is false for anything else (--jq,
// -h, a short form, an empty word, a word starting with "-" where a value
// or an id goes, a --max-width that is not plain digits): jig reads those.
func outputFlags(args []string, ignored string) (o render.Output, ids []string, ok bool) {
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

// Exec hands the command line to the jig beside this jig-fast by exec: it
// is this process, with its parent (an agent's hook keeps its agent), stdin
// and environment. It returns only when it could not.
func Exec(args []string) error {
	self, err := os.Executable()
	if err != nil {
		return exit.Named(FastName, err)
	}
	jig := besideFast(self)
	if same(jig, self) {
		return exit.Named(FastName, errNoJig)
	}
	err = syscall.Exec(jig, append([]string{jig}, args[1:]...), os.Environ())
	return exit.Named(FastName, fmt.Errorf("%w: %v", errNoJig, err))
}

// same reports whether a and b are one file (a jig that is this jig-fast
// would hand every line to itself).
func same(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}
