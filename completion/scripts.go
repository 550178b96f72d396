package completion

// The shell scripts ask jig itself for the words that may come next (the
// words typed and --generate-bash-completion, the last word the one being
// completed, maybe empty), so they never go out of date: the same answers
// in bash, zsh and fish. An answer of the one line :files or :dirs asks the
// shell for its own file or folder names; no answer offers nothing, never
// file names. None needs the shell's completion framework (bash-completion).
const (
	bashCompletion = `# jig completion for bash: source <(jig completion bash)
_jig_complete() {
  # The words as typed, split at blanks: bash's COMP_WORDS splits at : and =
  # too, which Herdr's w1:p2 and --preset=ansi hold.
  local line=${COMP_LINE:0:COMP_POINT} cur opts
  local -a words
  read -ra words <<<"$line"
  if [[ -z $line || $line == *[[:blank:]] ]]; then words+=(""); fi
  cur=${words[${#words[@]}-1]}
  opts=$("${words[@]}" --generate-bash-completion 2>/dev/null | cut -f1) # bash shows no descriptions
  case $opts in
  :files) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
  :dirs) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")) ;;
  *) COMPREPLY=($(compgen -W "$opts" -- "$cur")) ;;
  esac
  # bash replaces its own last word only: what follows the last : or =.
  local own=${COMP_WORDS[COMP_CWORD]}
  local before=${cur%"$own"}
  if [[ -n $before && $cur == *"$own" ]]; then COMPREPLY=("${COMPREPLY[@]#"$before"}"); fi
}
complete -F _jig_complete jig
`
	zshCompletion = `#compdef jig
# jig completion for zsh: source <(jig completion zsh), after compinit
_jig() {
  local -a opts cands shown
  local o
  opts=(${(f)"$("${(@Q)words[1,CURRENT-1]}" "${(Q)words[CURRENT]}" --generate-bash-completion 2>/dev/null)"})
  case $opts[1] in
  :files) _files ;;
  :dirs) _files -/ ;;
  *)
    # each line a word, and after a tab what it does: shown beside it
    for o in $opts; do
      cands+=("${o%%$'\t'*}")
      if [[ $o == *$'\t'* ]]; then shown+=("${o%%$'\t'*}  -- ${o#*$'\t'}"); else shown+=("$o"); fi
    done
    if [[ -n ${(M)opts:#*$'\t'*} ]]; then compadd -l -d shown -a cands; else compadd -a cands; fi ;;
  esac
}
compdef _jig jig
`
	fishCompletion = `# jig completion for fish: jig completion fish > ~/.config/fish/completions/jig.fish
function __jig_complete
    set -l cur (commandline -ct)
    set -l opts (commandline -opc) "$cur" --generate-bash-completion
    set opts ($opts 2>/dev/null)
    switch "$opts[1]"
        case :files
            __fish_complete_path "$cur"
        case :dirs
            __fish_complete_directories "$cur"
        case '*'
            for o in $opts # a word, and after a tab what it does: fish shows it
                echo $o
            end
    end
end
complete -c jig -f -a '(__jig_complete)'
`
)

// Script is the completion script for shell: bash, zsh or fish; false for
// another.
func Script(shell string) (string, bool) {
	s, ok := map[string]string{"bash": bashCompletion, "zsh": zshCompletion, "fish": fishCompletion}[shell]
	return s, ok
}
