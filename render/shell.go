package render

import "strings"

// The shells --shell writes a prompt piece for.
const (
	ShellBash = "bash"
	ShellZsh  = "zsh"
	ShellFish = "fish"
)

// Shells lists the shell names, for help and errors.
var Shells = []string{ShellBash, ShellZsh, ShellFish}

// IsShell reports whether name is a shell --shell knows.
func IsShell(name string) bool {
	for _, s := range Shells {
		if s == name {
			return true
		}
	}
	return false
}

// ForShell makes rendered text a piece of a shell prompt: each escape
// sequence is marked as taking no columns, so the line editor puts the
// cursor where the text is (after Ctrl-A, after a long line wraps).
//
//   - bash: \001 and \002 around each sequence, the bytes bash's own \[ and
//     \] turn into. They work from PS1='$(jig …)', where bash reads
//     backslash escapes before it runs the command: a printed \[ would show.
//   - zsh: %{ and %} around each sequence, and every other % doubled: zsh
//     expands % escapes in what a command printed (setopt PROMPT_SUBST).
//   - fish: as it is; fish measures escape sequences itself.
//
// A prompt piece ends where the prompt goes on, so a trailing newline is
// dropped: fish prints what fish_prompt prints as it is (a newline would put
// the prompt on two lines), and bash's and zsh's $(…) drop it anyway.
func ForShell(text, shell string) string {
	if shell == "" {
		return text
	}
	text = strings.TrimSuffix(text, "\n")
	if shell == ShellFish {
		return text
	}
	var b strings.Builder
	for rest := text; rest != ""; {
		tok, _, kind := nextToken(rest)
		rest = rest[len(tok):]
		switch {
		case kind == tokenEscape && shell == ShellBash:
			b.WriteString("\x01" + tok + "\x02")
		case kind == tokenEscape && shell == ShellZsh:
			b.WriteString("%{" + tok + "%}")
		case shell == ShellZsh:
			b.WriteString(strings.ReplaceAll(tok, "%", "%%"))
		default:
			b.WriteString(tok)
		}
	}
	return b.String()
}
