#!/usr/bin/env bash
# Times what a status bar pays per refresh: one whole `jig session
# for-terminal ID --preset …` process (start, find, read, render), over 20
# live sessions, N runs each, and prints the Markdown table kept in
# bench/statusline.md. Usage: bench/statusline.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-300}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -trimpath -ldflags='-s -w' -o "$tmp/jig" ./cmd/jig
export JIG_STATE_DIR="$tmp/state" TMUX=/tmp/bench,1,0
for i in $(seq 1 20); do
	echo '{"state":"busy","model":{"id":"claude-sonnet-4-5"},"thinking":"high","context":{"percent":42},"usage":{"cost":1.5}}' |
		TMUX_PANE="%$i" "$tmp/jig" session write --session "bench-$i" --pid $$
done
unset TMUX

per_call() { # label command...: median and fastest of n runs
	local label=$1; shift
	local start end
	for _ in $(seq 1 "$n"); do
		start=$(date +%s%N)
		"$@" >/dev/null 2>&1 || true
		end=$(date +%s%N)
		echo $((end - start))
	done | sort -n | awk -v label="$label" '{ t[NR] = $1 } END { printf "| %s | %.2f ms | %.2f ms |\n", label, t[int((NR + 1) / 2)] / 1e6, t[1] / 1e6 }'
}

echo "jig $(git rev-parse --short HEAD), $(go version | cut -d' ' -f3), $(nproc) cores, load average $(cut -d' ' -f1 /proc/loadavg), $n runs each, 20 live sessions"
echo
echo '| Call | Median | Fastest |'
echo '|---|---|---|'
per_call '`/bin/true` (process start alone)' /bin/true
for p in tmux wezterm ansi plain; do
	per_call "\`for-terminal %7 --preset $p --max-width 40\`" "$tmp/jig" session for-terminal %7 --preset "$p" --max-width 40
done
per_call '`for-terminal %99 --preset tmux` (no session, exit 1)' "$tmp/jig" session for-terminal %99 --preset tmux
per_call '`session wait --idle --terminal %7 --timeout 1ms` (busy, exit 6)' "$tmp/jig" session wait --idle --terminal %7 --timeout 1ms
