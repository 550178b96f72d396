package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// The shell scripts ask jig itself for the words that may come next (urfave/cli's
// hidden --generate-bash-completion flag after the words typed, the last one
// the word being completed, maybe empty), so they never go out of date.
// They follow urfave/cli v2's scripts, named for jig; the bash one needs no
// bash-completion package.
const (
	bashCompletion = `# jig completion for bash: source <(jig completion bash)
_jig_complete() {
  local cur=${COMP_WORDS[COMP_CWORD]}
  local request=("${COMP_WORDS[@]:0:COMP_CWORD}" "$cur")
  local opts
  opts=$("${request[@]}" --generate-bash-completion 2>/dev/null)
  COMPREPLY=($(compgen -W "${opts}" -- "${cur}"))
}
complete -o bashdefault -o default -F _jig_complete jig
`
	zshCompletion = `#compdef jig
# jig completion for zsh: source <(jig completion zsh)
_jig() {
  local -a opts
  local cur=${words[-1]}
  opts=("${(@f)$(${words[@]:0:#words[@]-1} "${cur}" --generate-bash-completion 2>/dev/null)}")
  if [[ "${opts[1]}" != "" ]]; then
    _describe 'values' opts
  else
    _files
  fi
}
compdef _jig jig
`
)

func completionCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print the shell completion script for bash, zsh or fish",
		ArgsUsage: "bash|zsh|fish",
		UsageText: "jig completion bash|zsh|fish\n\n" +
			"example: source <(jig completion bash)    # or add it to ~/.bashrc\n" +
			"         jig completion fish > ~/.config/fish/completions/jig.fish",
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return usageError(c, "want one shell: bash, zsh or fish")
			}
			switch shell := c.Args().First(); shell {
			case "bash":
				fmt.Fprint(e.stdout, bashCompletion)
			case "zsh":
				fmt.Fprint(e.stdout, zshCompletion)
			case "fish":
				script, err := c.App.ToFishCompletion()
				if err != nil {
					return err
				}
				fmt.Fprintln(e.stdout, script)
			default:
				return usageError(c, "unknown shell %q: want bash, zsh or fish", shell)
			}
			return nil
		},
	}
}
