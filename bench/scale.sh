#!/usr/bin/env bash
# Measures the commands that go over every session — `session list --json`
# and `session gc` — among 500, 5 000 and 20 000 live sessions of the
# largest realistic size (bench/genstate: 24 KB each), next to a Go hello
# world, and `for-terminal`, which must stay flat. Prints a markdown table
# (wall time as a median of runs, CPU time per session, peak RSS) and writes
# it to bench/scale.md.
#
#   bash bench/scale.sh [runs] [counts...]
#
# Budgets (issue: the house and its scale): peak RSS <= 64 MB at any count;
# gc <= 20 us and list --json <= 100 us of wall time per session.
# Needs GNU time (/usr/bin/time, Debian package time).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
shift || true
counts=("${@:-500 5000 20000}")
read -r -a counts <<<"${counts[*]}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

tags=urfave_cli_no_docs,netgo # as the README's install line builds it
go build -tags "$tags" -o "$work/jig" ./cmd/jig
go build -tags "$tags" -o "$work/jig-line" ./cmd/jig-line # what terminals' status lines run
go build -o "$work/hello" ./bench/hello

# A stand-in herdr (Herdr cannot run here) listing three panes, whose
# sessions sit among all the others: herdr sync's cost must not grow with
# the sessions in no pane.
mkdir -p "$work/bin"
cat >"$work/bin/herdr" <<'SH'
#!/bin/sh
case "$1 $2" in
"pane list") printf '{"id":"cli:pane:list","result":{"type":"pane_list","panes":[%s]}}\n' "$HERDR_PANES" ;;
*) echo '{"id":"cli:pane:report_metadata","result":{"type":"ok"}}' ;;
esac
SH
chmod 0755 "$work/bin/herdr"

# measure CMD...: "wall_ms cpu_ms rss_kb" for each run, one line a run.
# Wall time from bash's clock (GNU time counts in 10 ms steps); CPU time
# and peak RSS from GNU time.
measure() {
	local i t0 t1
	for ((i = 0; i < runs; i++)); do
		t0=$EPOCHREALTIME
		/usr/bin/time -f '%U %S %M' -o "$work/t" "$@" >/dev/null 2>"$work/err" || {
			cat "$work/err" >&2
			return 1
		}
		t1=$EPOCHREALTIME
		awk -v a="$t0" -v b="$t1" '{printf "%.2f %.1f %d\n", (b-a)*1000, ($1+$2)*1000, $3}' "$work/t"
	done
}

# median of column COL of stdin; max for rss
median() { sort -n -k"$1" | awk -v c="$1" '{v[NR]=$c} END {print v[int((NR+1)/2)]}'; }
maxcol() { sort -n -k"$1" | tail -1 | awk -v c="$1" '{print $c}'; }

row() { # name count file
	local wall cpu rss
	wall=$(median 1 <"$3")
	cpu=$(median 2 <"$3")
	rss=$(maxcol 3 <"$3")
	awk -v n="$1" -v c="$2" -v w="$wall" -v u="$cpu" -v r="$rss" 'BEGIN {
		printf "| %s | %d | %.0f ms | %.1f us | %.1f us | %.1f MB |\n", n, c, w, w*1000/c, u*1000/c, r/1024 }'
}

{
	echo "| command | sessions | wall (median of $runs) | wall / session | CPU / session | peak RSS |"
	echo "|---|---:|---:|---:|---:|---:|"
	measure "$work/hello" >"$work/hello.txt"
	awk -v w="$(median 1 <"$work/hello.txt")" -v r="$(maxcol 3 <"$work/hello.txt")" 'BEGIN {
		printf "| Go hello world | - | %.2f ms | - | - | %.1f MB |\n", w, r/1024 }'
	for n in "${counts[@]}"; do
		state="$work/state-$n"
		go run ./bench/genstate -dir "$state" -n "$n" -pid $$
		export JIG_STATE_DIR="$state"
		measure "$work/jig" session list --json >"$work/list.txt"
		row '`session list --json`' "$n" "$work/list.txt"
		measure "$work/jig" session gc >"$work/gc.txt"
		row '`session gc`' "$n" "$work/gc.txt"
		panes=""
		for i in 1 $((n / 2)) $((n - 1)); do
			panes="$panes${panes:+,}{\"pane_id\":\"t$i\",\"agent_status\":\"working\",\"revision\":1}"
		done
		HERDR_PANES=$panes HERDR_BIN_PATH="$work/bin/herdr" measure "$work/jig" herdr sync >"$work/hs.txt"
		awk -v w="$(median 1 <"$work/hs.txt")" -v r="$(maxcol 3 <"$work/hs.txt")" -v n="$n" 'BEGIN {
			printf "| `herdr sync` (3 panes, stand-in herdr) | %d | %.2f ms | - | - | %.1f MB |\n", n, w, r/1024 }'
		measure "$work/jig" session for-terminal "t$((n / 2))" >"$work/ft.txt"
		awk -v w="$(median 1 <"$work/ft.txt")" -v r="$(maxcol 3 <"$work/ft.txt")" -v n="$n" 'BEGIN {
			printf "| `session for-terminal` | %d | %.2f ms | - | - | %.1f MB |\n", n, w, r/1024 }'
		measure "$work/jig-line" session for-terminal "t$((n / 2))" >"$work/ff.txt"
		awk -v w="$(median 1 <"$work/ff.txt")" -v r="$(maxcol 3 <"$work/ff.txt")" -v n="$n" 'BEGIN {
			printf "| `jig-line session for-terminal` | %d | %.2f ms | - | - | %.1f MB |\n", n, w, r/1024 }'
		rm -rf "$state"
	done
} | tee "$work/table.md"

# What the last run's reader wrote below the table stays (the rounds of
# the issues): everything from the first such heading on.
notes=$(sed -n '/^## Issue /,$p' bench/scale.md 2>/dev/null || true)

{
	echo "# Whole-state commands at scale"
	echo
	echo "From \`bash bench/scale.sh $runs ${counts[*]}\` on $(nproc) cores ($(uname -m)), $(date -u +%Y-%m-%d)."
	echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg). Every session names one live process"
	echo "(this shell), so liveness costs one /proc read a pass; the files are bench/genstate's (24 KB: 50 + 50"
	echo "outputs, 15 recent calls, a context detail). CPU is user + system time, which GNU time counts in 10 ms steps (coarse in the 500 rows)."
	echo
	cat "$work/table.md"
	[ -z "$notes" ] || printf '\n%s\n' "$notes"
} >bench/scale.md
