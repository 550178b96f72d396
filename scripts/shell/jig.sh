# jig's shell functions: source this file from ~/.bashrc or ~/.zshrc (POSIX
# sh, so dash, bash and zsh all take it). README.md next to it lists each
# function with the one-liner inside it.

# jig_here prints this terminal's id (the innermost host's), exit 1 outside any.
jig_here() {
	jig terminal --json | jq -er '.[0].id // empty'
}

# jig_watch [TERMINAL] shows a terminal's session every 2 s (default: this
# terminal's). JIG_WATCH_COUNT=N stops after N refreshes.
jig_watch() {
	_jw_t=${1:-$(jig_here)} || return 1
	_jw_n=0
	while :; do
		printf '\r\033[K%s' "$(jig session for-terminal "$_jw_t" --preset ansi)"
		_jw_n=$((_jw_n + 1))
		[ "$_jw_n" = "${JIG_WATCH_COUNT:-0}" ] && { echo; return 0; }
		sleep 2
	done
}

# jig_wait_idle [TERMINAL] [TIMEOUT] returns once the terminal's agent is idle:
#   jig_wait_idle %3 10m && notify-send 'agent done'
jig_wait_idle() {
	_jwi_t=${1:-$(jig_here)} || return 1
	jig session wait --idle --terminal "$_jwi_t" --timeout "${2:-0}"
}
