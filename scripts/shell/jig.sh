# jig's shell functions: source this file from ~/.bashrc or ~/.zshrc. POSIX
# sh, so dash, bash and zsh all take it; the JSON ones need jq. Each function
# is a one-liner you may copy instead (scripts/README.md shows them), and each
# returns 0 when it found something, 1 when not, and jig's code on an error.

# jig_here prints this terminal's id (the innermost host's); 1 outside any.
jig_here() {
	jig terminal --json | jq -er '.[0].id // empty' || return 1
}

# jig_watch [TERMINAL] shows a terminal's session every 2 s on one line
# (default: this terminal's), blank while it runs no agent.
# JIG_WATCH_COUNT=N stops after N refreshes.
jig_watch() {
	_jw_t=${1:-$(jig_here)} || return 1
	_jw_n=0
	while :; do
		printf '\r\033[K%s' "$(jig session for-terminal "$_jw_t" --preset ansi)"
		_jw_n=$((_jw_n + 1))
		if [ "$_jw_n" = "${JIG_WATCH_COUNT:-0}" ]; then
			echo
			return 0
		fi
		sleep 2
	done
}

# jig_busy lists the busy sessions: id, terminal, model; 1 when none is.
jig_busy() {
	jig session list --json |
		jq -r '.[] | select(.state == "busy") | [.session, .terminal // "-", .model.id // "-"] | @tsv' |
		grep .
}

# jig_cost_today prints what the sessions updated today (local time) cost,
# ended ones whose files remain included; a session without a price counts 0.
jig_cost_today() {
	jig session list --all --json |
		jq --arg day "$(date +%F)" '[.[] | select(.updatedAt | sub("\\.[0-9]+"; "") | fromdateiso8601 | strflocaltime("%F") == $day) | .usage.cost // 0] | add // 0' |
		awk '{ printf "$%.2f\n", $1 }'
}

# jig_bash_off [DIR] asks every live session working in DIR's git repo
# (default: the current one) to turn its bash tool off, printing each
# request's id; 1 when no session works there, 2 when DIR is not in git.
jig_bash_off() {
	_jb_root=$(git -C "${1:-.}" rev-parse --show-toplevel) || return 2
	jig session list --json |
		jq -r --arg root "$_jb_root" '.[] | select(.cwd == $root or (.cwd | startswith($root + "/"))) | .session' |
		{
			_jb_n=0
			while IFS= read -r _jb_s; do
				jig request tool bash off --session "$_jb_s" && _jb_n=$((_jb_n + 1))
			done
			[ "$_jb_n" -gt 0 ]
		}
}

# jig_wait_idle [TERMINAL] [TIMEOUT] returns once the terminal's agent is
# idle: 0 idle, 5 no live session, 6 timed out. For example:
#   jig_wait_idle %3 10m && notify-send 'agent done'
jig_wait_idle() {
	_jwi_t=${1:-$(jig_here)} || return 1
	jig session wait --idle --terminal "$_jwi_t" --timeout "${2:-0}"
}
