#!/usr/bin/env bash
# The reliability suite in full mode: every hammer, fault and attack test at
# full counts (-hammer.full), then every fuzz target for FUZZTIME each
# (default 2m, minimising an input for at most MINIMIZETIME, default 30s).
# Prints the tables README.md records, one row per attack with its figures,
# so one run is compared with the next number by number; the whole log goes
# to $LOG.
#
#   bash bench/reliability/run.sh [FUZZTIME [MINIMIZETIME]]
set -euo pipefail
cd "$(dirname "$0")/../.."
fuzztime="${1:-2m}"
minimize="${2:-30s}"
log="${LOG:-$(mktemp -t jig-reliability.XXXXXX)}"

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(go version | cut -d' ' -f3-), Linux $(uname -r), temp dirs on $(df -T "${TMPDIR:-/tmp}" | awk 'NR==2 {print $2}'), uid $(id -u)"
echo

start=$SECONDS
go test ./status ./cmd/jig ./terminal -count=1 -v -timeout 60m -run 'Hammer|Attack' -hammer.full >"$log" 2>&1 || {
	grep -E -- '^(--- FAIL|FAIL|ok|panic)|_test.go' "$log" >&2
	exit 1
}
echo "hammer, fault and attack tests ($((SECONDS - start)) s in all):"
echo
echo "| Attack | Load | Kept | Lost or wrong (must be 0) | Blocked (must be 0) | Exit | Time |"
echo "|---|---|---|---|---|---|---|"
sed -n 's/^ *[a-z_]*_test\.go:[0-9]*: figure|\(.*\)|\(.*\)|\(.*\)|\(.*\)|\(.*\)|\(.*\)|\(.*\)$/| \1 | \2 | \3 | \4 | \5 | \6 | \7 |/p' "$log"
echo

start=$SECONDS
bash .ci/fuzz "$fuzztime" "$minimize" >>"$log" 2>&1 || {
	tail -40 "$log" >&2
	exit 1
}
echo "fuzz targets, $fuzztime each, minimising at most $minimize an input ($((SECONDS - start)) s in all):"
echo
echo "| Package | Target | Executions | New interesting inputs | Seeds kept (inputs that once failed) | Result |"
echo "|---|---|---|---|---|---|"
awk '/^fuzz: jig/   { pkg = $2; name = $3; next }
     /execs:/       { execs = $5; inter = $9 }
     /^ok /         { if (name != "") {
                        dir = substr(pkg, 5) "/testdata/fuzz/" name
                        seeds = 0; cmd = "ls " dir " 2>/dev/null"; while ((cmd | getline f) > 0) seeds++; close(cmd)
                        print "| " pkg " | " name " | " execs " | " inter " | " seeds " | ok |" }
                      name = "" }' "$log"
echo
echo "log: $log"
