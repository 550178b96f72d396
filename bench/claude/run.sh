#!/usr/bin/env bash
# Measures `jig claude hook` when nothing changed since the last hook (the
# common case: a Notification, the second hook of a call) against a Go
# hello-world process, side by side, and prints the ratio of their wall
# times. A hook blocks Claude Code while it runs; the budget is 3x.
# Writes the table to bench/claude/RESULTS.md.
#
#   bash bench/claude/run.sh [rounds] [runs-per-round]
#
# Each round runs both commands `runs` times, interleaved, timed with bash's
# $EPOCHREALTIME (which adds bash's fork to both alike); the ratio is the
# median over rounds of the medians' ratio, so load that comes and goes on
# a shared machine weighs on both sides alike.
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-5}
runs=${2:-40}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

go build -o "$work/hello" ./bench/hello
go build -o "$work/jig" ./cmd/jig
tags=urfave_cli_no_docs,netgo,urfave_cli_no_suggest
go build -tags "$tags" -o "$work/jig-tags" ./cmd/jig

# The hook's own work, in process (before HOME moves for the hooks).
gobench=$(go test ./claude/ -run '^$' -bench 'HookNothingChanged|PreToolUseNothingNew' -benchtime 500x -benchmem |
	awk '/^Benchmark/ {printf "| `%s` | %.0f µs | %s B | %s |\n", $1, $3 / 1000, $5, $7}')

# A session of realistic size: 200 calls with their results, 200 outputs.
t="$work/home/.claude/projects/-w/s1.jsonl"
mkdir -p "$(dirname "$t")"
for i in $(seq 1 200); do
	printf '{"parentUuid":null,"isSidechain":false,"message":{"content":[{"id":"toolu_%d","input":{"file_path":"/w/f%d.go"},"name":"Edit","type":"tool_use"}],"id":"msg_%d","model":"claude-opus-5-5","role":"assistant","stop_reason":"tool_use","type":"message","usage":{"input_tokens":1000,"cache_creation_input_tokens":0,"cache_read_input_tokens":500,"output_tokens":40}},"type":"assistant","timestamp":"2026-11-30T12:00:00Z","cwd":"/w","sessionId":"s1"}\n' $i $i $i
	printf '{"isSidechain":false,"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_%d","type":"tool_result","content":"ok"}]},"timestamp":"2026-11-30T12:00:01Z","toolUseResult":{"filePath":"/w/f%d.go"},"sessionId":"s1"}\n' $i $i
done >"$t"
printf '{"session_id":"s1","transcript_path":"%s","cwd":"/w","hook_event_name":"Notification"}' "$t" >"$work/in.json"
export JIG_STATE_DIR="$work/state" HOME="$work/home" CLAUDE_PID=$$ TMUX=/tmp/t,1,0 TMUX_PANE=%1
"$work/jig" claude hook <"$work/in.json" # the first hook reads the transcript; the rest find nothing new
size=$(stat -c %s "$JIG_STATE_DIR/sessions/s1.json")

declare -A cmd=([hello]="$work/hello" [hook]="$work/jig claude hook" [tagged]="$work/jig-tags claude hook")
. bench/hook-rounds.sh

table=$(cat <<TABLE
| command | median ms | × hello |
|---|---:|---:|
| Go hello world | ${ms[hello]} | 1.00 |
| \`jig claude hook\` (Notification, nothing new) | ${ms[hook]} | ${ratio[hook]} |
| the same, jig built with \`-tags $tags\` | ${ms[tagged]} | ${ratio[tagged]} |
TABLE
)
echo "$table"
cat >bench/claude/RESULTS.md <<MD
# \`jig claude hook\` when nothing changed

Latest result of \`bash bench/claude/run.sh\`. A hook blocks Claude Code while it runs, so what counts is
one whole process: start, read the cursor, stat the transcript (nothing new), build the status and find it
equal to the file (no write), exit. The session has 200 tool calls and 200 outputs; its file is $size
bytes. Budget: at most 3× a Go hello-world process. **Ratio: ${ratio[hook]} ($verdict budget).**

$table

$counted

- Measured: $(date -u +%Y-%m-%dT%H:%MZ), a bash loop with \$EPOCHREALTIME, $rounds rounds of $runs
  interleaved runs per command; a ratio is the median over rounds of the command's median divided by hello's.
- Machine: $(nproc) cores, $(uname -sr), load average $(cut -d' ' -f1-3 /proc/loadavg) at the end, $(go version | cut -d' ' -f3).

The hook's own work, in process (\`go test ./claude -bench 'HookNothingChanged|PreToolUseNothingNew' -benchmem\`):

| benchmark | time/op | bytes/op | allocs/op |
|---|---:|---:|---:|
$gobench
MD
