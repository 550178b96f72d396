# jig for kitty: each kitty window's title shows its agent, so the tab bar
# shows the focused window's: "● claude-sonnet-4-5 42% $1.23". Source this
# from ~/.bashrc or ~/.zshrc (`jig install kitty` prints the lines):
#
#   [ -n "$KITTY_WINDOW_ID" ] && . /path/to/jig-kitty.sh && jig_kitty_title /path/to/jig &
#
# kitty.conf needs `allow_remote_control yes` (or socket-only with
# listen_on) for `kitten @`. The loop runs jig every 2 s, calls kitten only
# when the text changes, gives the title back to the shell when no agent
# runs, and ends when kitten fails (the window is gone). Its argument (or
# JIG) is the jig command; JIG_KITTY_INTERVAL (seconds) and JIG_KITTY_COUNT
# (stop after N rounds) change its pace.
jig_kitty_title() {
	[ -n "$KITTY_WINDOW_ID" ] || return 1
	_jk_jig=${1:-${JIG:-jig}} _jk_last= _jk_n=0
	while :; do
		_jk_seg=$("$_jk_jig" session for-terminal "$KITTY_WINDOW_ID" --preset plain --max-width 40 2>/dev/null)
		if [ "$_jk_seg" != "$_jk_last" ]; then
			if [ -n "$_jk_seg" ]; then
				kitten @ set-window-title --match "id:$KITTY_WINDOW_ID" "$_jk_seg" || return 0
			else
				kitten @ set-window-title --match "id:$KITTY_WINDOW_ID" || return 0
			fi
			_jk_last=$_jk_seg
		fi
		_jk_n=$((_jk_n + 1))
		[ "$_jk_n" = "${JIG_KITTY_COUNT:-0}" ] && return 0
		sleep "${JIG_KITTY_INTERVAL:-2}"
	done
}
