#!/bin/sh
# Measures `jig pi tree` on a 100 MB transcript against today's whole read
# (`jig pi show`), wall time and peak RSS, and the CPU a `jig session watch`
# uses while its session is idle for 10 s. Prints Markdown tables (kept in
# bench/tree.md). Usage: bench/tree.sh [SHARED_DIR]; needs Go and GNU time.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
shared=${1:-$root/../shared}
[ -d "$shared/pi-sessions" ] || shared=$root/../../shared
sessions=$shared/pi-sessions
[ -d "$sessions" ] || { echo "tree.sh: no real transcripts in $sessions" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'kill $watch 2>/dev/null || true; rm -rf "$tmp"' EXIT
watch=
(cd "$root" && go build -o "$tmp/tb" ./bench/transcript && go build -o "$tmp/jig" ./cmd/jig)
"$tmp/tb" gen "$tmp/100MB-v1.jsonl" 104857600 "$sessions"/*.jsonl
"$tmp/tb" v3 "$tmp/100MB-v1.jsonl" "$tmp/100MB-v3.jsonl"

echo "Machine: $(uname -srm), $(nproc) cores; Go $(go env GOVERSION)"
echo
echo "| 100 MB transcript | command | wall (s, best of 3) | peak RSS (MB) |"
echo "|---|---|---:|---:|"
for f in 100MB-v1 100MB-v3; do
	for cmd in "pi show" "pi tree"; do
		best=
		for _ in 1 2 3; do
			/usr/bin/time -f '%e %M' -o "$tmp/t" "$tmp/jig" $cmd "$tmp/$f.jsonl" --json >/dev/null 2>&1
			read -r s kb <"$tmp/t"
			best=$(echo "$best $s $kb" | awk '{ if ($1 == "" || $2 < $1) print $2, $3; else print $1, $2 }')
		done
		echo "$best" | awk -v f="$f" -v c="jig $cmd" '{ printf "| %s | `%s` | %.2f | %.1f |\n", f, c, $1, $2/1024 }'
	done
done

# watch, idle: a live session (this shell's pid) whose file does not change
export JIG_STATE_DIR="$tmp/state"
echo '{"state":"idle"}' | "$tmp/jig" session write --session idle-bench --pid $$
"$tmp/jig" session watch idle-bench --json >/dev/null &
watch=$!
sleep 1
t0=$(awk '{ print $14 + $15 }' "/proc/$watch/stat")
sleep 10
t1=$(awk '{ print $14 + $15 }' "/proc/$watch/stat")
hz=$(getconf CLK_TCK)
echo
echo "| jig session watch, idle for 10 s | CPU time (user + system) |"
echo "|---|---:|"
echo "$t0 $t1 $hz" | awk '{ printf "| inotify | %.0f ms |\n", ($2 - $1) * 1000 / $3 }'
