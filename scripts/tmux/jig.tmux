#!/bin/sh
# jig as a tmux plugin: run it from tmux.conf with
#   run-shell /path/to/jig/scripts/tmux/jig.tmux
# (TPM runs only the *.tmux files at a plugin repository's top level, and
# this one is in scripts/tmux/, so a TPM user adds this run-shell line). It asks jig
# for the status-line lines (`jig install tmux`, with jig's absolute path)
# and sources them. Set `set -g @jig-bin /path/to/jig` first when tmux's
# PATH does not find jig; set @jig-pane-border to "on" for the border variant.
jig=$(tmux show-option -gqv @jig-bin)
[ -n "$jig" ] || jig=$(command -v jig) || {
	tmux display-message "jig: not found; set -g @jig-bin /path/to/jig"
	exit 0
}
conf=$(mktemp) || exit 0
trap 'rm -f "$conf"' EXIT
set -- tmux
[ "$(tmux show-option -gqv @jig-pane-border)" = on ] && set -- tmux --pane-border
"$jig" install "$@" >"$conf" && tmux source-file "$conf"
