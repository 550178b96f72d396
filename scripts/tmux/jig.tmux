#!/bin/sh
# jig as a tmux plugin (TPM runs every executable *.tmux at a plugin's root;
# the repository's own jig.tmux runs this file). It puts the agent of the
# pane where your own status line says so, and changes nothing else:
#
#   set -g status-right '#{jig_status} %H:%M'     # anywhere in status-right/-left
#   set -g @plugin 'OWNER/jig'                     # with TPM, or without it:
#   run-shell /path/to/jig/scripts/tmux/jig.tmux
#
# Every #{jig_status} in status-left and status-right becomes the segment of
# the focused pane (a #() job running jig with the pane's id). With no
# #{jig_status} in either, the segment goes in front of status-right.
# Running it again replaces the segment it placed (remembered in
# @jig-job-status-left, -status-right, -pane-border-format), never adds one.
# Options, set before the plugin runs:
#   @jig-bin          the jig to run (default: jig on tmux's PATH, and the
#                     jig-line beside it when it is installed, else jig-fast:
#                     either answers the segment's line alike, in half the
#                     time)
#   @jig-max-width    cells for the segment (default 40)
#   @jig-format       a jig --format template instead of the tmux preset
#   @jig-rate-limits  "on": the rate limits the agent reports (5h 42% 7d 18%)
#   @jig-busy-colour, @jig-attention-colour, @jig-ok-colour, @jig-warn-colour,
#   @jig-high-colour  the preset's colours (default blue, colour208 (orange),
#                     default, magenta, red: they read on tmux's default green
#                     bar); read by tmux each time it draws, so they can
#                     change at any time
#   @jig-window-glyph "on": each window's agents as one glyph on its tab in
#                     the window list (◐ when any of its panes waits for you,
#                     else ● busy, ○ idle), via #{jig_window} at the end of
#                     window-status-format and window-status-current-format,
#                     so a wait in another window is seen. A #{jig_window} you
#                     put there yourself is filled in either way; so is a
#                     #{jig_glyph}, the glyph of the window's active pane only.
#   @jig-pane-border  "on": each pane's own agent in its border, via
#                     #{jig_status} in pane-border-format (default
#                     ' #{pane_index} #{jig_status} ', at the top). tmux runs
#                     #() jobs only while the status line is on: with
#                     `status off` the borders stop changing.
opt() {
	tmux show-option -gqv "$1"
}
jig=$(opt @jig-bin)
[ -n "$jig" ] || jig=$(command -v jig) || {
	tmux display-message "jig: not found; set -g @jig-bin /path/to/jig"
	exit 0
}
if [ "${jig##*/}" = jig ]; then
	if [ -x "${jig%/*}/jig-line" ]; then
		jig="${jig%/*}/jig-line"
	elif [ -x "${jig%/*}/jig-fast" ]; then
		jig="${jig%/*}/jig-fast"
	fi
fi
width=$(opt @jig-max-width)
case "$width" in '' | *[!0-9]*) width=40 ;; esac

# quote is $1 as one /bin/sh word, with tmux's # doubled.
quote() {
	printf "'%s'" "$(printf %s "$1" | sed "s/'/'\\\\''/g; s/#/##/g")"
}
job() {
	style="--preset tmux"
	[ "$(opt @jig-rate-limits)" = on ] && style="$style --rate-limits"
	[ -n "$(opt @jig-format)" ] && style="--format $(quote "$(opt @jig-format)")"
	printf '#(%s session for-terminal "#{pane_id}" %s --max-width %s)' "$(quote "$jig")" "$style" "$1"
}
glyph_job() {
	printf '#(%s session for-terminal "#{pane_id}" --preset glyph)' "$(quote "$jig")"
}
# window_job: the window's panes (#{P:…} loops over them; a pane id is one
# shell word) in one call, which shows the most urgent of their agents.
window_job() {
	printf '#(%s session for-terminal #{P:#{pane_id} }--preset glyph)' "$(quote "$jig")"
}

# replace OLD NEW: the lines on stdin with every OLD turned into NEW
# (index/substr, not gsub: a path or format may hold & or \).
replace() {
	OLD="$1" NEW="$2" awk 'BEGIN { old = ENVIRON["OLD"]; new = ENVIRON["NEW"] }
	{ out = ""; line = $0
	  while ((i = index(line, old)) > 0) { out = out substr(line, 1, i - 1) new; line = substr(line, i + length(old)) }
	  print out line }'
}

# tokens OPTION TOKEN: the option's value with the job an earlier run put
# there for TOKEN (kept in @jig-job-OPTION, and for #{jig_window} in
# @jig-job-OPTION-window) turned back into TOKEN (#{jig_status},
# #{jig_glyph}, #{jig_window}), so running the plugin again (TPM's prefix I,
# a reloaded tmux.conf) replaces jig's segment, with the options as they are
# now, instead of adding another.
tokens() {
	value=$(opt "$1")
	earlier=$(opt "$(memory "$1" "$2")")
	if [ -n "$earlier" ]; then
		printf '%s\n' "$value" | replace "$earlier" "$2"
	else
		printf '%s\n' "$value"
	fi
}
memory() {
	case "$2" in
	'#{jig_window}') printf '@jig-job-%s-window' "$1" ;;
	*) printf '@jig-job-%s' "$1" ;;
	esac
}

# interpolate OPTION WIDTH [TOKEN JOB]: every TOKEN (#{jig_status}) in the
# option becomes the job (the status job of WIDTH cells).
interpolate() {
	tok=${3:-'#{jig_status}'}
	value=$(tokens "$1" "$tok")
	case "$value" in *"$tok"*) ;; *) return 1 ;; esac
	seg=${4:-$(job "$2")}
	tmux set-option -g "$1" "$(printf '%s\n' "$value" | replace "$tok" "$seg")"
	tmux set-option -g "$(memory "$1" "$tok")" "$seg"
}

placed=0
interpolate status-left "$width" && placed=1
interpolate status-right "$width" && placed=1
if [ "$placed" = 0 ]; then
	tmux set-option -g status-right "#{jig_status} $(opt status-right)"
	interpolate status-right "$width"
fi
# jig's segment is read every status-interval seconds: at most 2.
[ "$(opt status-interval)" -gt 2 ] 2>/dev/null && tmux set-option -g status-interval 2
len=$(opt status-right-length)
[ "${len:-0}" -lt $((width + 20)) ] 2>/dev/null && tmux set-option -g status-right-length $((width + 20))

if [ "$(opt @jig-pane-border)" = on ]; then
	case "$(tokens pane-border-format '#{jig_status}')" in
	*'#{jig_status}'*) ;;
	*) tmux set-option -g pane-border-format ' #{pane_index} #{jig_status} ' ;;
	esac
	[ "$(opt pane-border-status)" = off ] && tmux set-option -g pane-border-status top
	interpolate pane-border-format 50
fi

for option in window-status-format window-status-current-format; do
	if [ "$(opt @jig-window-glyph)" = on ]; then
		case "$(tokens "$option" '#{jig_window}')$(tokens "$option" '#{jig_glyph}')" in
		*'#{jig_window}'* | *'#{jig_glyph}'*) ;;
		*) tmux set-option -g "$option" "$(opt "$option")#{jig_window}" ;;
		esac
	fi
	interpolate "$option" 0 '#{jig_window}' "$(window_job)"
	interpolate "$option" 0 '#{jig_glyph}' "$(glyph_job)"
done
exit 0
