#!/usr/bin/env bash
# Measures `jig session for-terminal` among 500 live sessions of realistic
# size against a Go hello-world process, side by side, and prints the ratio
# of their median wall times. The budget is 3x. Writes the table to
# bench/for-terminal.md.
#
#   bash bench/for-terminal.sh [runs]
#
# Uses hyperfine (Debian: apt-get install -y hyperfine); without it, a plain
# interleaved loop timed with date +%s%N.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-500}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Both built the same way, the way `go build` builds them for a user.
go build -o "$work/jig" ./cmd/jig
go build -o "$work/hello" ./bench/hello
# And jig without urfave/cli's man-page and suggestion code, whose
# package init (blackfriday's) is the largest part of jig's start-up.
tags=urfave_cli_no_docs,urfave_cli_no_suggest
go build -tags "$tags" -o "$work/jig-tags" ./cmd/jig
# Every session names this shell, which runs for the whole measurement.
go run ./bench/genstate -dir "$work/state" -n 500 -pid $$
export JIG_STATE_DIR="$work/state"
size=$(stat -c %s "$work/state/sessions/"*000000000250.json)

# The commands, as a tmux status line runs them (stdout is not a terminal).
hello="$work/hello"
found="$work/jig session for-terminal t250"
format="$work/jig session for-terminal t250 --format {{.State}}"
none="$work/jig session for-terminal t9999"
tagged="$work/jig-tags session for-terminal t250"
$found >/dev/null
$format >/dev/null
if $none >/dev/null; then echo "for-terminal t9999 found a session" >&2; exit 1; fi

declare -A median
if command -v hyperfine >/dev/null; then
	tool="hyperfine $(hyperfine --version | cut -d' ' -f2), -N, $runs runs each after 20 warm-up runs"
	hyperfine -N -i --warmup 20 --runs "$runs" --style none --export-json "$work/h.json" \
		"$hello" "$found" "$format" "$none" "$tagged" >/dev/null
	while IFS=$'\t' read -r cmd med; do median[$cmd]=$med; done < <(
		python3 -c 'import json,sys
for r in json.load(open(sys.argv[1]))["results"]: print(r["command"], r["median"]*1000, sep="\t")' "$work/h.json")
else
	tool="bash loop, date +%s%N, $runs interleaved runs each"
	declare -A times
	for ((i = 0; i < runs; i++)); do
		for cmd in "$hello" "$found" "$format" "$none" "$tagged"; do
			t0=$(date +%s%N); $cmd >/dev/null || true; t1=$(date +%s%N)
			times[$cmd]+="$(((t1 - t0) / 1000)) "
		done
	done
	for cmd in "$hello" "$found" "$format" "$none" "$tagged"; do
		median[$cmd]=$(echo ${times[$cmd]} | tr ' ' '\n' | sort -n | awk '{a[NR]=$1} END {printf "%.3f", a[int((NR+1)/2)]/1000}')
	done
fi

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
h=${median[$hello]}
r_found=$(ratio "${median[$found]}" "$h")
r_format=$(ratio "${median[$format]}" "$h")
r_none=$(ratio "${median[$none]}" "$h")
r_tagged=$(ratio "${median[$tagged]}" "$h")
verdict=$(awk -v r="$r_found" 'BEGIN {print (r <= 3 ? "within" : "OVER")}')

table=$(cat <<TABLE
| command | median ms | × hello |
|---|---:|---:|
| Go hello world | $(printf %.2f "$h") | 1.00 |
| \`jig session for-terminal t250\` (JSON) | $(printf %.2f "${median[$found]}") | $r_found |
| \`jig session for-terminal t250 --format '{{.State}}'\` | $(printf %.2f "${median[$format]}") | $r_format |
| \`jig session for-terminal t9999\` (none) | $(printf %.2f "${median[$none]}") | $r_none |
| same as the first, jig built with \`-tags $tags\` | $(printf %.2f "${median[$tagged]}") | $r_tagged |
TABLE
)
echo "$table"
echo "ratio for-terminal / hello: $r_found ($verdict the 3x budget)"

cat >bench/for-terminal.md <<MD
# \`jig session for-terminal\` among 500 sessions

Latest result of \`bash bench/for-terminal.sh\`: 500 live status files of the largest realistic size
(50 + 50 outputs, 15 recent calls, a context detail; $size bytes each), each session in its own terminal,
written by jig (so the terminal index is kept and stamped). Each command is a fresh process, as a status
line runs it. Budget: at most 3× a Go hello-world process. **Ratio: $r_found ($verdict budget).**

$table

- Measured: $(date -u +%Y-%m-%dT%H:%MZ), $tool.
- Machine: $(nproc) cores, $(uname -sr), load average $(cut -d' ' -f1-3 /proc/loadavg) at the end, $(go version | cut -d' ' -f3).
- Both programs are built with plain \`go build\` (the last row aside). The ratio is of medians, side by side in one run, so a
  busy machine slows both; absolute times on an idle machine are several times lower.
MD
