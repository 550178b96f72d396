#!/usr/bin/env bash
# The reliability suite in full mode: every hammer and fault test at full
# counts (-hammer.full), then every fuzz target for FUZZTIME each (default
# 2m). Prints the tables README.md records; the whole log goes to $LOG.
#
#   bash bench/reliability/run.sh [FUZZTIME]
set -euo pipefail
cd "$(dirname "$0")/../.."
fuzztime="${1:-2m}"
log="${LOG:-$(mktemp -t jig-reliability.XXXXXX)}"

echo "machine: $(nproc) cores, $(go version | cut -d' ' -f3-), Linux $(uname -r), temp dirs on $(df -T "${TMPDIR:-/tmp}" | awk 'NR==2 {print $2}'), uid $(id -u)"
echo

start=$SECONDS
go test ./status ./cmd/jig -count=1 -v -timeout 60m -run Hammer -hammer.full >"$log" 2>&1 || {
	grep -E -- '^(--- FAIL|FAIL|ok|panic)|_test.go' "$log" >&2
	exit 1
}
echo "hammer and fault tests ($((SECONDS - start)) s in all):"
echo
echo "| What | Load | Lost, torn, hidden or wrong (must be 0) | Time |"
echo "|---|---|---|---|"
sed -n 's/^ *[a-z_]*_test\.go:[0-9]*: figure|\(.*\)|\(.*\)|\(.*\)|\(.*\)$/| \1 | \2 | \3 | \4 |/p' "$log"
echo

start=$SECONDS
bash .ci/fuzz "$fuzztime" >>"$log" 2>&1 || {
	tail -40 "$log" >&2
	exit 1
}
echo "fuzz targets, $fuzztime each ($((SECONDS - start)) s in all):"
echo
echo "| Package | Target | Executions | New interesting inputs | Result |"
echo "|---|---|---|---|---|"
awk '/^fuzz: jig/ { pkg = $2; name = $3; next }
     /execs:/     { execs = $5; inter = $9 }
     /^ok /       { if (name != "") print "| " pkg " | " name " | " execs " | " inter " | ok |"; name = "" }' "$log"
echo
echo "log: $log"
