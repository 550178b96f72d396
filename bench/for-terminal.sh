#!/usr/bin/env bash
# Measures `jig session for-terminal` among 500 and 20 000 live sessions of
# realistic size against a Go hello-world process, side by side, and prints
# the ratio of their wall times. The budget (issue 32) is 1.5x for what a
# status line runs as the README installs it: jig-line. Writes the table to
# bench/for-terminal.md.
#
#   bash bench/for-terminal.sh [rounds] [runs-per-round]
#
# BASE=<source tree> (say `git archive <rev> | tar -x -C dir`) adds that
# tree's README build to the same interleaved run, as the "before" row.
# With valgrind, each command's instructions are counted too
# (callgrind, GODEBUG=asyncpreemptoff=1): unlike wall time, they do not
# move with the machine's load.
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
tags=urfave_cli_no_docs,netgo
go build -tags "$tags" -o "$work/jig-tags" ./cmd/jig
# The JSON case's package call in a program that links nothing else
# (bench/floor/statusline): what the lookup costs without jig's start-up.
go build -tags "$tags" -o "$work/floor" ./bench/floor/statusline
# jig-line, which the installers write into terminals' status lines, and
# jig-fast, into agents' (docs/architecture.md, "Three programs"); beside
# jig, as they are installed.
go build -tags "$tags" -o "$work/jig-line" ./cmd/jig-line
go build -tags "$tags" -o "$work/jig-fast" ./cmd/jig-fast
if [ -n "${BASE:-}" ]; then
	(cd "$BASE" && go build -tags "$tags" -o "$work/jig-base" ./cmd/jig)
fi
# Every session names this shell, which runs for the whole measurement.
go run ./bench/genstate -dir "$work/state" -n 500 -pid $$
# And 20 000 of them, for the lookup that must stay flat (issue 32): about
# 480 MB in the temp folder while it runs.
go run ./bench/genstate -dir "$work/state20k" -n 20000 -pid $$
export JIG_STATE_DIR="$work/state"
size=$(stat -c %s "$work/state/sessions/"*000000000250.json)

# The commands, as a tmux status line runs them (stdout is not a terminal).
names=(hello found preset tagged line line20k linepreset lineformat linenone fast fastpreset floor)
[ -n "${BASE:-}" ] && names+=(base)
declare -A cmd=(
	[hello]="$work/hello"
	[found]="$work/jig session for-terminal t250"
	[preset]="$work/jig session for-terminal t250 --preset tmux"
	[tagged]="$work/jig-tags session for-terminal t250"
	[line]="$work/jig-line session for-terminal t250"
	[line20k]="$work/jig-line session for-terminal t250"
	[linepreset]="$work/jig-line session for-terminal t250 --preset tmux"
	[lineformat]="$work/jig-line session for-terminal t250 --format {{.state}}"
	[linenone]="$work/jig-line session for-terminal t9999"
	[fast]="$work/jig-fast session for-terminal t250"
	[fastpreset]="$work/jig-fast session for-terminal t250 --preset tmux"
	[floor]="$work/floor t250"
	[base]="$work/jig-base session for-terminal t250"
)
# The state dir a command runs over, when not the 500 sessions'.
declare -A dirs=([line20k]="$work/state20k")
JIG_STATE_DIR=${dirs[line20k]} ${cmd[line20k]} | grep -q '"session": "0190a7c2-5f3e-7b21-9d44-000000000250"'
cmp <(${cmd[found]}) <(${cmd[floor]})
cmp <(${cmd[found]}) <(${cmd[line]})
cmp <(${cmd[found]}) <(${cmd[fast]})
cmp <(${cmd[preset]}) <(${cmd[linepreset]})
cmp <(${cmd[preset]}) <(${cmd[fastpreset]})
${cmd[found]} | grep -q '"session": "0190a7c2-5f3e-7b21-9d44-000000000250"'
[ "$(${cmd[lineformat]})" = busy ]
if ${cmd[linenone]} >/dev/null; then echo "for-terminal t9999 found a session" >&2; exit 1; fi

# measure NAME... prints "name median_ms" for one round.
measure() {
	if command -v hyperfine >/dev/null; then
		# hyperfine sets no environment per command: one run of it for each
		# state dir, in the round's order
		local n dir
		for dir in "$JIG_STATE_DIR" "${dirs[@]}"; do
			local args=()
			for n in "$@"; do
				[ "${dirs[$n]:-$JIG_STATE_DIR}" = "$dir" ] && args+=(-n "$n" "${cmd[$n]}")
			done
			JIG_STATE_DIR=$dir hyperfine -N -i --warmup 5 --runs "$runs" --style none --export-json "$work/h.json" "${args[@]}" >/dev/null 2>&1
			python3 -c 'import json,sys
for r in json.load(open(sys.argv[1]))["results"]: print(r["command"], r["median"] * 1000)' "$work/h.json"
		done
	else
		local n i t0 t1
		declare -A t=()
		for ((i = 0; i < runs; i++)); do
			for n in "$@"; do
				t0=$EPOCHREALTIME; JIG_STATE_DIR=${dirs[$n]:-$JIG_STATE_DIR} ${cmd[$n]} >/dev/null || true; t1=$EPOCHREALTIME
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
summary=$(python3 - "$work/rounds" "${names[@]}" <<'PY'
import sys, statistics as st
rows = [l.split() for l in open(sys.argv[1])]
by = {}
for r, n, ms in rows:
    by.setdefault(int(r), {})[n] = float(ms)
for n in sys.argv[2:]:
    med = st.median(by[r][n] for r in by)
    ratio = st.median(by[r][n] / by[r]["hello"] for r in by)
    print(n, "%.2f" % med, "%.2f" % ratio)
PY
)
declare -A ms ratio
while read -r n m x; do ms[$n]=$m; ratio[$n]=$x; done <<<"$summary"
verdict=$(awk -v r="${ratio[line]}" -v r2="${ratio[line20k]}" -v r3="${ratio[linepreset]}" \
	'BEGIN {print (r <= 1.5 && r2 <= 1.5 && r3 <= 1.5 ? "within" : "OVER")}')

baserow=""
[ -n "${BASE:-}" ] && baserow="| the JSON case, the README build of the baseline (\`BASE\`) | ${ms[base]} | ${ratio[base]} |"
table=$(cat <<TABLE
| command | median ms | × hello |
|---|---:|---:|
| Go hello world | ${ms[hello]} | 1.00 |
| \`jig session for-terminal t250\` (JSON, as a script reads it; plain \`go build\`) | ${ms[found]} | ${ratio[found]} |
| \`jig session for-terminal t250 --preset tmux\` (the README's tmux status line; plain \`go build\`) | ${ms[preset]} | ${ratio[preset]} |
| the JSON case, jig built as the README installs it (\`-tags $tags\`) | ${ms[tagged]} | ${ratio[tagged]} |
| **\`jig-line session for-terminal t250\`** (JSON; what the installers write into a terminal's status line) | ${ms[line]} | **${ratio[line]}** |
| **the same among 20 000 sessions** | ${ms[line20k]} | **${ratio[line20k]}** |
| **\`jig-line session for-terminal t250 --preset tmux\`** | ${ms[linepreset]} | **${ratio[linepreset]}** |
| \`jig-line session for-terminal t250 --format '{{.state}}'\` | ${ms[lineformat]} | ${ratio[lineformat]} |
| \`jig-line session for-terminal t9999\` (no session there) | ${ms[linenone]} | ${ratio[linenone]} |
| \`jig-fast session for-terminal t250\` (JSON; the program the agents' hooks run, every agent linked) | ${ms[fast]} | ${ratio[fast]} |
| \`jig-fast session for-terminal t250 --preset tmux\` | ${ms[fastpreset]} | ${ratio[fastpreset]} |
| the JSON case's package call alone, in a program that links only \`status\` (\`bench/floor/statusline\`) | ${ms[floor]} | ${ratio[floor]} |
$baserow
TABLE
)
table=$(grep -v '^$' <<<"$table")

# Instructions, the median of three runs each under callgrind, and the
# CPU time (user and system: exec, page faults and all) and page faults of
# 50 runs each under perf stat: neither waits for a core, as wall time does
# on a loaded machine.
icount() {
	local i n=()
	for i in 1 2 3; do
		n+=("$(GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
			awk '/Collected/ {print $4}')")
	done
	printf '%s\n' "${n[@]}" | sort -n | sed -n 2p
}
counts=""
if command -v valgrind >/dev/null && command -v perf >/dev/null; then
	declare -A ir clock faults
	for n in "${names[@]}"; do
		ir[$n]=$(JIG_STATE_DIR=${dirs[$n]:-$JIG_STATE_DIR} icount ${cmd[$n]})
		JIG_STATE_DIR=${dirs[$n]:-$JIG_STATE_DIR} perf stat -r 50 -x, -e task-clock,page-faults -o "$work/perf" ${cmd[$n]} >/dev/null 2>&1 || true
		clock[$n]=$(awk -F, '/task-clock/ {printf "%.2f", $1}' "$work/perf")
		faults[$n]=$(awk -F, '/page-faults/ {print $1}' "$work/perf")
	done
	counts="Per run, counted rather than timed: instructions (callgrind, GODEBUG=asyncpreemptoff=1, the median of three),
and CPU time and page faults (perf stat, the mean of 50 runs):

| command | instructions | × hello | CPU ms | × hello | page faults |
|---|---:|---:|---:|---:|---:|"
	for n in "${names[@]}"; do
		counts+=$'\n'"| $n | ${ir[$n]} | $(awk -v a="${ir[$n]}" -v b="${ir[hello]}" 'BEGIN {printf "%.2f", a / b}') | ${clock[$n]} | $(awk -v a="${clock[$n]}" -v b="${clock[hello]}" 'BEGIN {printf "%.2f", a / b}') | ${faults[$n]} |"
	done
fi

echo "$table"
echo "ratio jig-line for-terminal / hello: ${ratio[line]}, among 20 000: ${ratio[line20k]}, --preset tmux: ${ratio[linepreset]} ($verdict the 1.5x budget); jig-fast's: ${ratio[fast]}; jig's own: ${ratio[tagged]}"

# The reader's and the writer's work alone, in process.
gobench=$(go test ./status/ -run '^$' -bench 'ForTerminal500|Write' -benchtime 200x -benchmem |
	awk '/^Benchmark/ {printf "| `%s` | %.0f µs | %s B | %s |\n", $1, $3 / 1000, $5, $7}')

# What the last run's reader wrote below the tables stays (the rounds of
# issue 32 and before): everything from the first such heading on.
notes=$(sed -n '/^## Issue /,$p' bench/for-terminal.md 2>/dev/null || true)
[ -n "$notes" ] && notes=$'\n'"$notes"

cat >bench/for-terminal.md <<MD
# \`jig session for-terminal\` among 500 and 20 000 sessions

Latest result of \`bash bench/for-terminal.sh\`: 500 live status files of the largest realistic size
(50 + 50 outputs, 15 recent calls, a context detail; $size bytes each), each session in its own terminal,
written by jig (so the terminal index is kept and stamped), and 20 000 such files for one row. Each command is a
fresh process, as a status line runs it. Budget (issue 32): at most 1.5× a Go hello-world process at both counts,
for what a status line runs as the README installs it: \`jig-line\` (docs/architecture.md, "Three programs").
**Ratio: ${ratio[line]} among 500, ${ratio[line20k]} among 20 000, ${ratio[linepreset]} for the tmux preset ($verdict budget);**
jig-fast's JSON case: ${ratio[fast]}; jig's own: ${ratio[tagged]}.

$table

$counts

- Measured: $(date -u +%Y-%m-%dT%H:%MZ), $tool. A ratio is the median over rounds of the
  command's median divided by hello's median in the same round.
- Machine: $(nproc) cores, $(uname -sr), load average $(cut -d' ' -f1-3 /proc/loadavg) at the end, $(go version | cut -d' ' -f3).
- jig's first two rows are plain \`go build\`; every other program is built as the README installs it. On a busy
  machine all slow down and the absolute times say little; the ratio is what the budget is about.
- Where jig's own time goes (issue 32; callgrind's exclusive costs, a build that exits in main's init for the
  start-up (callgrind's --toggle-collect is not reliable over Go's stack switches), \`GODEBUG=inittrace=1\`,
  \`perf stat\`): before the Go runtime reaches main, 1.83 M instructions and 461 page faults, against hello's whole
  0.34 M and 191. In it: gojq's package init, the table of its jq-defined builtins (0.55 M, 2 278 allocations,
  219 KB, 136 KB of code run once; it runs wherever gojq is linked, and \`--jq\` needs it); serve's net/http,
  crypto (edwards25519's base point table) and html/template inits (~0.5 M); the runtime's start over the
  binary's tables (moduledataverify1 alone 0.14 M over a 4.4 MB pclntab) and small inits (unicode, urfave/cli,
  fsnotify). jig's own packages do no work at init. After main, ~0.7 M: building the one command named (0.11 M),
  reading the command line and running the action (~0.1 M), finding, reading and checking the file (~0.5 M, of
  it \`status.validJSON\` 0.32 M: the file is passed on only when it is one JSON value). Gone since the issue:
  ticket's, the replay's, cmdline's and install's regexps at init (~0.25 M); urfave/cli's own run of the
  command (~0.6 M: \`cmdline.Run\` calls a plain leaf command's action itself); \`json.Unmarshal\` of the whole
  file into a Head, then \`json.Valid\` (0.83 M); building every command of the tree to run one (0.15 M).
- Instructions are not all of a process's cost: hello runs 0.34 M of them in ~1.4 ms of CPU, the rest is the
  kernel's exec, page faults and thread starts. jig takes ~2.6× hello's page faults (its 18 MB binary's
  tables and code, gojq's init allocations, the 24 KB file), which is why the wall-time ratio falls by less
  than the instruction count. \`--format\` decodes only the top-level keys its template names (the rest of the
  file is scanned, not built); \`--preset\` decodes the head and the seven members a preset shows
  (\`status.DecodeMembers\`; it decoded the whole file into a Status before, 5.7 M instructions, now ~3.5 M).
- Wall times move with the machine's load (the load average above) by more than the ratio's noise, and the
  instruction counts are the steadier measure. hyperfine runs each command without a shell between; the bash
  loop counts bash's fork on both sides, so its ratios read lower.

Go benchmarks of the same run (\`go test ./status/ -bench 'ForTerminal500|Write' -benchmem\`): finding a
session among 500 and decoding it (\`found\`, as \`--format\` does), finding it and passing its bytes on
(\`found-raw\`, as the JSON output does), finding none (\`none\`), listing the two folders a reader lists when the index
stamp is stale (\`list-names\`), and one write of a realistic file, changed or not:

| benchmark | time/op | bytes/op | allocs/op |
|---|---:|---:|---:|
$gobench
$notes
MD
