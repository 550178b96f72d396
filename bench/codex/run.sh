#!/usr/bin/env bash
# Measures `jig codex hook` when nothing changed since the last hook (the
# second PreToolUse of a call: the switches read for a refusal, the cursor,
# the rollout stat'ed, the status built and found equal, no write) against
# a Go hello-world process, side by side. A hook blocks Codex while it
# runs; the budget is 3x. Writes the table to bench/codex/RESULTS.md.
#
#   bash bench/codex/run.sh [rounds] [runs-per-round]
#
# As bench/claude/run.sh: each round runs both commands `runs` times,
# interleaved, timed with bash's $EPOCHREALTIME; the ratio is the median
# over rounds of the medians' ratio, so load that comes and goes on a
# shared machine weighs on both sides alike.
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

# The hook's own work, in process.
gobench=$(go test ./codex/ -run '^$' -bench HookNothingChanged -benchtime 500x -benchmem |
	awk '/^Benchmark/ {printf "| `%s` | %.0f µs | %s B | %s |\n", $1, $3 / 1000, $5, $7}')

# A session of realistic size: 200 commands and 200 patches with their
# results and Codex's counts.
r="$work/codex/sessions/2026/12/01/rollout-2026-12-01T10-00-00-s1.jsonl"
mkdir -p "$(dirname "$r")"
{
	printf '{"timestamp":"2026-12-01T10:00:00.000Z","type":"session_meta","payload":{"id":"s1","timestamp":"2026-12-01T10:00:00Z","cwd":"/w","model_provider":"openai"}}\n'
	printf '{"timestamp":"2026-12-01T10:00:00.000Z","type":"turn_context","payload":{"cwd":"/w","model":"gpt-5.5","effort":"medium"}}\n'
	for i in $(seq 1 200); do
		printf '{"timestamp":"2026-12-01T10:00:01.000Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{}","call_id":"c%d"}}\n' $i
		printf '{"timestamp":"2026-12-01T10:00:01.000Z","type":"event_msg","payload":{"type":"item_completed","item":{"type":"CommandExecution","id":"c%d","status":"completed","exit_code":0}}}\n' $i
		printf '{"timestamp":"2026-12-01T10:00:02.000Z","type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","input":"","call_id":"p%d"}}\n' $i
		printf '{"timestamp":"2026-12-01T10:00:02.000Z","type":"event_msg","payload":{"type":"item_completed","item":{"type":"FileChange","id":"p%d","status":"completed","changes":{"/w/f%d.go":{"type":"update"}}}}}\n' $i $i
		printf '{"timestamp":"2026-12-01T10:00:02.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":%d,"cached_input_tokens":500,"output_tokens":40,"total_tokens":1040},"last_token_usage":{"input_tokens":1000,"output_tokens":40,"total_tokens":1040},"model_context_window":258400}}}\n' $((i * 1000))
	done
} >"$r"
printf '{"session_id":"s1","transcript_path":"%s","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"c200","tool_input":{"command":"go test ./..."}}' "$r" >"$work/in.json"
export JIG_STATE_DIR="$work/state" HOME="$work/home" CODEX_HOME="$work/codex" TMUX=/tmp/t,1,0 TMUX_PANE=%1
"$work/jig" codex hook <"$work/in.json" # the first hook reads the rollout; the rest find nothing new
size=$(stat -c %s "$JIG_STATE_DIR/sessions/s1.json")

declare -A cmd=([hello]="$work/hello" [hook]="$work/jig codex hook" [tagged]="$work/jig-tags codex hook")
. bench/hook-rounds.sh

table=$(cat <<TABLE
| command | median ms | × hello |
|---|---:|---:|
| Go hello world | ${ms[hello]} | 1.00 |
| \`jig codex hook\` (PreToolUse again, nothing new) | ${ms[hook]} | ${ratio[hook]} |
| the same, jig built with \`-tags $tags\` | ${ms[tagged]} | ${ratio[tagged]} |
TABLE
)
echo "$table"
cat >bench/codex/RESULTS.md <<MD
# \`jig codex hook\` when nothing changed

Latest result of \`bash bench/codex/run.sh\`. A hook blocks Codex while it runs, so what counts is one whole
process: start, read the session's switches and waiting request (the refusal is decided from them), read the
cursor, stat the rollout (nothing new), build the status and find it equal to the file (no write), exit. The
session has 200 commands and 200 patches; its file is $size bytes. Budget: at most 3× a Go hello-world
process. **Ratio: ${ratio[hook]} ($verdict budget).** [bench/claude](../claude/RESULTS.md) has Claude Code's hook
measured the same way.

$table

$counted

- Measured: $(date -u +%Y-%m-%dT%H:%MZ), a bash loop with \$EPOCHREALTIME, $rounds rounds of $runs
  interleaved runs per command; a ratio is the median over rounds of the command's median divided by hello's.
- Machine: $(nproc) cores, $(uname -sr), load average $(cut -d' ' -f1-3 /proc/loadavg) at the end, $(go version | cut -d' ' -f3).

The hook's own work, in process (\`go test ./codex -bench HookNothingChanged -benchmem\`):

| benchmark | time/op | bytes/op | allocs/op |
|---|---:|---:|---:|
$gobench
MD
