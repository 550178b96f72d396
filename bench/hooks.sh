#!/usr/bin/env bash
# Measures each hook-driven agent's hook when it finds nothing new against
# a Go hello-world process, side by side, and writes bench/hooks.md. A hook
# blocks its agent while it runs: Claude Code's and Codex's PreToolUse, Qwen
# Code's, Gemini CLI's BeforeTool, and Claude's Notification, each on a
# session of realistic size (bench/hookstate: 200 calls, 200 written files)
# whose transcript an earlier hook read. The budget (issue 32) is 2x.
#
#   bash bench/hooks.sh [rounds] [runs-per-round]
#
# BASE=<source tree> adds that tree's README build to the same run, as the
# "before" column (its cursors are its own: it gets a state dir of its own).
#
# Each round runs every command `runs` times, interleaved, timed with bash's
# $EPOCHREALTIME (which adds bash's fork to hello and the hooks alike); a
# ratio is the median over rounds of the command's median over hello's, so
# load that comes and goes weighs on both sides alike. With valgrind, each
# command's instructions are counted (callgrind, GODEBUG=asyncpreemptoff=1),
# and with perf its CPU time and page faults: neither moves with the load.
# Every command runs from this shell itself: the hooks take the process
# that runs them for their agent, and a subshell's would be a new one each
# time (a write, not a hook that finds nothing new).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
runs=${2:-30}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

tags=urfave_cli_no_docs,netgo # the README's build
go build -o "$work/hello" ./bench/hello
go build -tags "$tags" -o "$work/jig" ./cmd/jig
# The same hooks in a program that links nothing else (bench/floor/hook):
# what a hook costs without the rest of jig's start-up.
go build -tags "$tags" -o "$work/floor" ./bench/floor/hook
# jig-fast, which the installers write into the agents' hooks, beside jig
# (docs/architecture.md, "Three programs").
go build -tags "$tags" -o "$work/jig-fast" ./cmd/jig-fast
bins=(jig fast floor)
if [ -n "${BASE:-}" ]; then
	(cd "$BASE" && go build -tags "$tags" -o "$work/base" ./cmd/jig)
	bins+=(base)
fi
go run ./bench/hookstate "$work"

# The hooks' own work, in process: no start, no exec.
gobench=$(for p in claude codex gemini qwen; do
	go test "./$p/" -run '^$' -bench 'NothingNew|NothingChanged' -benchtime 300x -benchmem |
		awk -v p="$p" '/^Benchmark/ {printf "| %s `%s` | %.0f µs | %s B | %s |\n", p, $1, $3 / 1000, $5, $7}'
done)

export HOME="$work/home" CLAUDE_PID=$$ CODEX_HOME="$work/codex" TMUX=/tmp/t,1,0 TMUX_PANE=%1
# hooks: name, agent, input
hooks=("claude-pre claude claude-pre" "claude-note claude claude-note" "codex-pre codex codex-pre"
	"gemini-model gemini gemini-model" "gemini-pre gemini gemini-pre" "qwen-pre qwen qwen-pre")
# run NAME BIN: one run of a command, from this shell, stdin its input.
# hookline BIN AGENT is the command line of AGENT's hook in BIN.
hookline() {
	case $1 in
	floor) echo "$work/floor $2" ;;
	fast) echo "$work/jig-fast $2 hook" ;;
	*) echo "$work/$1 $2 hook" ;;
	esac
}
run() {
	local name=$1 bin=$2 h agent input
	if [ "$name" = hello ]; then
		"$work/hello" >/dev/null
		return
	fi
	for h in "${hooks[@]}"; do
		read -r n agent input <<<"$h"
		if [ "$n" = "$name" ]; then
			JIG_STATE_DIR="$work/state-$bin" $(hookline "$bin" "$agent") <"$work/$input.json" >/dev/null
			return
		fi
	done
}
names=(hello)
for h in "${hooks[@]}"; do names+=("${h%% *}"); done
for bin in "${bins[@]}"; do
	for n in "${names[@]:1}"; do run "$n" "$bin"; done # the first hooks read the transcripts
done

: >"$work/rounds"
for ((k = 0; k < rounds; k++)); do
	declare -A tm=()
	for ((i = 0; i < runs; i++)); do
		for n in "${names[@]}"; do
			for bin in "${bins[@]}"; do
				[ "$n" = hello ] && [ "$bin" != jig ] && continue
				t0=$EPOCHREALTIME
				run "$n" "$bin"
				t1=$EPOCHREALTIME
				tm[$n/$bin]+="$(((${t1/./} - ${t0/./}))) "
			done
		done
	done
	for key in "${!tm[@]}"; do
		echo "$k $key $(echo ${tm[$key]} | tr ' ' '\n' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)] / 1000}')"
	done >>"$work/rounds"
done
summary=$(python3 - "$work/rounds" <<'PY'
import sys, statistics as st
by = {}
for r, key, ms in (l.split() for l in open(sys.argv[1])):
    by.setdefault(int(r), {})[key] = float(ms)
for key in sorted(by[0]):
    print(key, "%.2f" % st.median(by[r][key] for r in by), "%.2f" % st.median(by[r][key] / by[r]["hello/jig"] for r in by))
PY
)
declare -A ms ratio
while read -r key m x; do ms[$key]=$m; ratio[$key]=$x; done <<<"$summary"

declare -A ir clock faults
counted=no
if command -v valgrind >/dev/null; then
	counted=yes
	for n in "${names[@]}"; do
		for bin in "${bins[@]}"; do
			[ "$n" = hello ] && [ "$bin" != jig ] && continue
			: >"$work/irs"
			for i in 1 2 3; do
				if [ "$n" = hello ]; then
					GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
						"$work/hello" >/dev/null 2>"$work/vg"
				else
					read -r _ agent input <<<"$(printf '%s\n' "${hooks[@]}" | grep "^$n ")"
					JIG_STATE_DIR="$work/state-$bin" GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind \
						--callgrind-out-file=/dev/null $(hookline "$bin" "$agent") <"$work/$input.json" >/dev/null 2>"$work/vg"
				fi
				awk '/Collected/ {print $4}' "$work/vg" >>"$work/irs"
			done
			ir[$n/$bin]=$(sort -n "$work/irs" | sed -n 2p)
		done
	done
fi
if command -v perf >/dev/null && perf stat -e task-clock true >/dev/null 2>&1; then
	for n in "${names[@]}"; do
		for bin in "${bins[@]}"; do
			[ "$n" = hello ] && [ "$bin" != jig ] && continue
			: >"$work/perfs"
			for i in $(seq 30); do
				if [ "$n" = hello ]; then
					perf stat -x, -e task-clock,page-faults -o "$work/perf" "$work/hello" >/dev/null
				else
					read -r _ agent input <<<"$(printf '%s\n' "${hooks[@]}" | grep "^$n ")"
					JIG_STATE_DIR="$work/state-$bin" perf stat -x, -e task-clock,page-faults -o "$work/perf" \
						$(hookline "$bin" "$agent") <"$work/$input.json" >/dev/null
				fi
				cat "$work/perf" >>"$work/perfs"
			done
			clock[$n/$bin]=$(awk -F, '/task-clock/ {s += $1; k++} END {printf "%.2f", s / k}' "$work/perfs")
			faults[$n/$bin]=$(awk -F, '/page-faults/ {s += $1; k++} END {printf "%.0f", s / k}' "$work/perfs")
		done
	done
fi

declare -A what=([hello]="Go hello world" [claude-pre]="\`jig claude hook\`, PreToolUse of a call read"
	[claude-note]="\`jig claude hook\`, Notification" [codex-pre]="\`jig codex hook\`, PreToolUse of a call read"
	[gemini-model]="\`jig gemini hook\`, BeforeModel" [gemini-pre]="\`jig gemini hook\`, BeforeTool (the call recorded: a write)" [qwen-pre]="\`jig qwen hook\`, PreToolUse of a call read")
x() { awk -v a="$1" -v b="$2" 'BEGIN {if (a == "" || b == "") print "-"; else printf "%.2f", a / b}'; }
head="| command | jig-fast: median ms | × hello | instructions | × hello | CPU ms | page faults | jig: median ms | × hello | instructions | hook-only program: median ms | × hello | instructions |"
rule="|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
if [ -n "${BASE:-}" ]; then
	head+=" before: median ms | × hello | instructions |"
	rule+="---:|---:|---:|"
fi
table="$head"$'\n'"$rule"
for n in "${names[@]}"; do
	if [ "$n" = hello ]; then
		row="| ${what[$n]} | ${ms[hello/jig]} | 1.00 | ${ir[hello/jig]:--} | 1.00 | ${clock[hello/jig]:--} | ${faults[hello/jig]:--} | | | | | | |"
		[ -n "${BASE:-}" ] && row+=" | | |"
		table+=$'\n'"$row"
		continue
	fi
	row="| ${what[$n]} | ${ms[$n/fast]} | **${ratio[$n/fast]}** | ${ir[$n/fast]:--} | $(x "${ir[$n/fast]:-}" "${ir[hello/jig]:-}") | ${clock[$n/fast]:--} | ${faults[$n/fast]:--} |"
	row+=" ${ms[$n/jig]} | ${ratio[$n/jig]} | ${ir[$n/jig]:--} | ${ms[$n/floor]} | ${ratio[$n/floor]} | ${ir[$n/floor]:--} |"
	[ -n "${BASE:-}" ] && row+=" ${ms[$n/base]} | ${ratio[$n/base]} | ${ir[$n/base]:--} |"
	table+=$'\n'"$row"
done
echo "$table"
# What the last run's reader wrote below the tables stays (where the time
# goes, and what was done): everything from the notes' heading on.
notes=$(sed -n '/^## Where the time goes/,$p' bench/hooks.md 2>/dev/null || true)
[ -n "$notes" ] && notes=$'\n'"$notes"
# Gemini CLI's BeforeTool always writes (Gemini records a call only when it
# ends, so jig records it pending): shown, but not a hook that finds nothing new.
nothing=(); for n in "${names[@]:1}"; do [ "$n" = gemini-pre ] || nothing+=("$n"); done
over=$(for n in "${nothing[@]}"; do echo "${ratio[$n/fast]}"; done | awk '$1 > 2 {k++} END {print k + 0}')
cat >bench/hooks.md <<MD
# A hook that finds nothing new

Latest result of \`bash bench/hooks.sh\`. A hook blocks its agent while it runs, so what counts is one whole
process: start, read the hook's input, decide a refusal (the switches and a waiting request), read the cursor and
find the transcript has nothing new, read the status file and find the event changes nothing in it (no encode, no
write), exit. Each session has 200 calls and 200 written files (\`bench/hookstate\`). Budget (issue 32): at most 2×
a Go hello-world process, for what the installers write into the agents' hooks: \`jig-fast AGENT hook\`
(docs/architecture.md, "Three programs"). **Rows over it: $over of ${#nothing[@]}** (Gemini CLI's BeforeTool, a write at
every call, is shown beside them and not counted).

$table

- Measured: $(date -u +%Y-%m-%dT%H:%MZ), $rounds rounds of $runs interleaved runs per command, each timed with
  \$EPOCHREALTIME (bash's fork counted on both sides); a ratio is the median over rounds of the command's median
  over hello's. Instructions: callgrind, GODEBUG=asyncpreemptoff=1, the median of three$([ "$counted" = yes ] || echo " (no valgrind: not counted)").
  CPU time and page faults: perf stat, the mean of 30 runs.
- Built as the README installs jig and jig-fast (\`-tags $tags\`); the hook-only program is \`bench/floor/hook\`, the
  same package call as \`jig AGENT hook\` in a binary that links only the four hook agents$([ -n "${BASE:-}" ] && echo "; \"before\" is the same build of \`BASE\`").
- Machine: $(nproc) cores, $(uname -sr), load average $(cut -d' ' -f1-3 /proc/loadavg) at the end, $(go version | cut -d' ' -f3).

The hooks' own work, in process (\`go test ./<agent> -bench 'NothingNew|NothingChanged' -benchmem\`):

| benchmark | time/op | bytes/op | allocs/op |
|---|---:|---:|---:|
$gobench
$notes
MD
