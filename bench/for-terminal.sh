#!/usr/bin/env bash
# Measures `jig session for-terminal` among 500 live sessions of realistic
# size against a Go hello-world process, side by side, and prints the ratio
# of their wall times. The budget is 3x. Writes the table to
# bench/for-terminal.md.
#
#   bash bench/for-terminal.sh [rounds] [runs-per-round]
#
# Uses hyperfine (Debian: apt-get install -y hyperfine); without it, a loop
# timed with bash's $EPOCHREALTIME (which adds bash's fork to every run, so
# its ratios read low). The commands are measured in rounds, each round
# running all of them in a rotating order, and the ratio is the median of
# the rounds' ratios: load that comes and goes on a shared machine then
# weighs on both sides alike.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-10}
runs=${2:-50}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Both built the same way, the way `go build` builds them for a user.
go build -o "$work/jig" ./cmd/jig
go build -o "$work/hello" ./bench/hello
# And jig as the README installs it: without urfave/cli's man-page code, whose
# package init (blackfriday's HTML entity table) is the largest part of jig's
# start, but with its "did you mean" suggestions; and without those too, to
# see what the suggestions cost.
tags=urfave_cli_no_docs
go build -tags "$tags" -o "$work/jig-tags" ./cmd/jig
go build -tags "$tags,urfave_cli_no_suggest" -o "$work/jig-nosuggest" ./cmd/jig
# Every session names this shell, which runs for the whole measurement.
go run ./bench/genstate -dir "$work/state" -n 500 -pid $$
export JIG_STATE_DIR="$work/state"
size=$(stat -c %s "$work/state/sessions/"*000000000250.json)

# The commands, as a tmux status line runs them (stdout is not a terminal).
names=(hello found format none tagged nosuggest)
declare -A cmd=(
	[hello]="$work/hello"
	[found]="$work/jig session for-terminal t250"
	[format]="$work/jig session for-terminal t250 --format {{.state}}"
	[none]="$work/jig session for-terminal t9999"
	[tagged]="$work/jig-tags session for-terminal t250"
	[nosuggest]="$work/jig-nosuggest session for-terminal t250"
)
${cmd[found]} | grep -q '"session": "0190a7c2-5f3e-7b21-9d44-000000000250"'
[ "$(${cmd[format]})" = busy ]
if ${cmd[none]} >/dev/null; then echo "for-terminal t9999 found a session" >&2; exit 1; fi

# measure NAME... prints "name median_ms" for one round.
measure() {
	if command -v hyperfine >/dev/null; then
		local args=()
		for n in "$@"; do args+=(-n "$n" "${cmd[$n]}"); done
		hyperfine -N -i --warmup 5 --runs "$runs" --style none --export-json "$work/h.json" "${args[@]}" >/dev/null 2>&1
		python3 -c 'import json,sys
for r in json.load(open(sys.argv[1]))["results"]: print(r["command"], r["median"] * 1000)' "$work/h.json"
	else
		local n i t0 t1
		declare -A t=()
		for ((i = 0; i < runs; i++)); do
			for n in "$@"; do
				t0=$EPOCHREALTIME; ${cmd[$n]} >/dev/null || true; t1=$EPOCHREALTIME
				t[$n]+="$(awk -v a="$t0" -v b="$t1" 'BEGIN {print (b - a) * 1000}') "
			done
		done
		for n in "$@"; do
			echo "$n $(echo ${t[$n]} | tr ' ' '\n' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')"
		done
	fi
}

: >"$work/rounds"
for ((r = 0; r < rounds; r++)); do
	order=("${names[@]:r%${#names[@]}}" "${names[@]:0:r%${#names[@]}}")
	measure "${order[@]}" | sed "s/^/$r /" >>"$work/rounds"
done
if command -v hyperfine >/dev/null; then
	tool="hyperfine $(hyperfine --version | cut -d' ' -f2) -N, $rounds rounds of $runs runs per command (after 5 warm-up runs), in rotating order"
else
	tool="bash loop with \$EPOCHREALTIME, $rounds rounds of $runs interleaved runs per command"
fi

# Per command: the median over rounds of its median, and of its ratio to
# hello in the same round.
summary=$(python3 - "$work/rounds" <<'PY'
import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1])]
by = {}
for r, n, ms in rows:
    by.setdefault(int(r), {})[n] = float(ms)
for n in ["hello", "found", "format", "none", "tagged", "nosuggest"]:
    med = st.median(by[r][n] for r in by)
    ratio = st.median(by[r][n] / by[r]["hello"] for r in by)
    print(n, "%.2f" % med, "%.2f" % ratio)
PY
)
declare -A ms ratio
while read -r n m x; do ms[$n]=$m; ratio[$n]=$x; done <<<"$summary"
verdict=$(awk -v r="${ratio[tagged]}" 'BEGIN {print (r <= 3 ? "within" : "OVER")}')

table=$(cat <<TABLE
| command | median ms | × hello |
|---|---:|---:|
| Go hello world | ${ms[hello]} | 1.00 |
| \`jig session for-terminal t250\` (JSON, as a script reads it) | ${ms[found]} | ${ratio[found]} |
| \`jig session for-terminal t250 --format '{{.state}}'\` | ${ms[format]} | ${ratio[format]} |
| \`jig session for-terminal t9999\` (no session there) | ${ms[none]} | ${ratio[none]} |
| the JSON case, jig built as the README installs it (\`-tags $tags\`, suggestions on) | ${ms[tagged]} | ${ratio[tagged]} |
| the same without suggestions (\`-tags $tags,urfave_cli_no_suggest\`) | ${ms[nosuggest]} | ${ratio[nosuggest]} |
TABLE
)
echo "$table"
echo "ratio for-terminal (README build) / hello: ${ratio[tagged]} ($verdict the 3x budget)"

# The reader's and the writer's work alone, in process.
gobench=$(go test ./status/ -run '^$' -bench 'ForTerminal500|Write' -benchtime 200x -benchmem |
	awk '/^Benchmark/ {printf "| `%s` | %.0f µs | %s B | %s |\n", $1, $3 / 1000, $5, $7}')

cat >bench/for-terminal.md <<MD
# \`jig session for-terminal\` among 500 sessions

Latest result of \`bash bench/for-terminal.sh\`: 500 live status files of the largest realistic size
(50 + 50 outputs, 15 recent calls, a context detail; $size bytes each), each session in its own terminal,
written by jig (so the terminal index is kept and stamped). Each command is a fresh process, as a status
line runs it. Budget: at most 3× a Go hello-world process, for jig built as the README installs it.
**Ratio: ${ratio[tagged]} ($verdict budget).**

$table

- Measured: $(date -u +%Y-%m-%dT%H:%MZ), $tool. A ratio is the median over rounds of the
  command's median divided by hello's median in the same round.
- Machine: $(nproc) cores, $(uname -sr), load average $(cut -d' ' -f1-3 /proc/loadavg) at the end, $(go version | cut -d' ' -f3).
- Both programs are built with plain \`go build\` (the last two rows aside). On a busy machine both slow down and
  the absolute times say little; the ratio is what the budget is about.
- Where the time goes: the reader lists one terminal's index folder and reads one file, decoding only the
  fields that pick it (in process, below); jig's start-up (urfave/cli and blackfriday's package init) is most
  of the rest, hence the README's tag. The last two rows differ by what urfave/cli's suggestions (Jaro-Winkler
  over the names, only run on a typo) add to start-up: a small package with no init work.

Go benchmarks of the same run (\`go test ./status/ -bench 'ForTerminal500|Write' -benchmem\`): finding a
session among 500 and decoding it (\`found\`, as \`--format\` does), finding it and passing its bytes on
(\`found-raw\`, as the JSON output does), finding none (\`none\`), listing the two folders a reader lists when the index
stamp is stale (\`list-names\`), and one write of a realistic file, changed or not:

| benchmark | time/op | bytes/op | allocs/op |
|---|---:|---:|---:|
$gobench
MD
