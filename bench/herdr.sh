#!/bin/sh
# Times what the Herdr integrations run on every refresh, end to end, with a
# real jig binary and a real status file: `jig panel --once` (the plugin's
# Work pane draws this every 2 s), `jig session for-terminal --json` (the
# Herdr.app mods' read) and `jig session context`. Prints a Markdown table
# for docs/herdr-bench.md. Usage: bench/herdr.sh [RUNS]
set -eu
runs=${1:-200}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/jig" "$root/cmd/jig"
export JIG_STATE_DIR="$tmp/state"
# The fixture, made a live session of this shell: its host and start time.
"$tmp/jig" session write --session bench-1 --pid $$ <"$root/herdr/app/testdata/status_full.json"
printf '{"host":"%s","startedAt":"%s"}' "$(hostname)" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" |
	"$tmp/jig" session write --session bench-1 --pid $$

time_it() { # name, command...
	name=$1
	shift
	start=$(date +%s%N)
	i=0
	while [ $i -lt "$runs" ]; do
		"$@" >/dev/null
		i=$((i + 1))
	done
	end=$(date +%s%N)
	awk -v name="$name" -v runs="$runs" -v ns=$((end - start)) \
		'BEGIN { printf "| `%s` | %d | %.2f ms |\n", name, runs, ns / runs / 1e6 }'
}

"$tmp/jig" panel --terminal t7 --once | grep -q '^busy' || {
	echo "bench: no session found in t7" >&2
	exit 1
}
echo "| Command | Runs | Mean wall time per run |"
echo "|---|---|---|"
time_it "jig panel --terminal t7 --once" "$tmp/jig" panel --terminal t7 --once
time_it "jig session for-terminal t7 --json" "$tmp/jig" session for-terminal t7 --json
time_it "jig session context bench-1" "$tmp/jig" session context bench-1
