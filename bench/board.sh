#!/usr/bin/env bash
# Measures one refresh of `jig board` (--once: the rows of every live
# session, read as the live view reads them) beside `session list --json`
# and a Go hello world: among 500 local sessions of the largest realistic
# size (bench/genstate), and over 50 sessions on two ssh hosts (a real sshd
# on 127.0.0.1 with two names, 25 sessions in each one's state dir) with a
# warm ControlMaster. Prints a markdown table and writes it to
# bench/board.md.
#
#   bash bench/board.sh [runs]
#
# Budgets (issue: jig board): a local refresh over 500 sessions within
# 30 ms; over 50 sessions on two ssh hosts within 100 ms. Needs root (sshd).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-11}
work=$(mktemp -d)
chmod 0755 "$work"
cleanup() {
	[ -n "${sshd_pid:-}" ] && kill "$sshd_pid" 2>/dev/null
	ssh -F "$work/ssh_config" -O exit hosta 2>/dev/null || true
	ssh -F "$work/ssh_config" -O exit hostb 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

go build -tags urfave_cli_no_docs,netgo -o "$work/bin/jig" ./cmd/jig
go build -o "$work/hello" ./bench/hello

# wall time in ms of each run of CMD..., one line a run
measure() {
	local i t0 t1
	for ((i = 0; i < runs; i++)); do
		t0=$EPOCHREALTIME
		"$@" >/dev/null
		t1=$EPOCHREALTIME
		awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f\n", (b-a)*1000}'
	done
}
median() { sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
row() { printf '| %s | %s | %s ms |\n' "$1" "$2" "$(median)"; }

# the remote side: one sshd, two host names, a state dir each
mkdir -p /run/sshd "$work/a" "$work/b" "$work/home"
chmod 0700 "$work/a" "$work/b"
ssh-keygen -q -t ed25519 -N '' -f "$work/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$work/client_key"
cp "$work/client_key.pub" "$work/authorized_keys"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat >"$work/sshd_config" <<EOF
Port $port
ListenAddress 127.0.0.1
HostKey $work/host_key
AuthorizedKeysFile $work/authorized_keys
PidFile none
StrictModes no
UsePAM no
PasswordAuthentication no
PermitRootLogin prohibit-password
AcceptEnv JIG_STATE_DIR
SetEnv PATH=$work/bin:/usr/bin:/bin HOME=$work/home
EOF
/usr/sbin/sshd -D -e -f "$work/sshd_config" 2>"$work/sshd.log" &
sshd_pid=$!
for name in a b; do
	cat >>"$work/ssh_config" <<EOF
Host host$name
  HostName 127.0.0.1
  Port $port
  User $(id -un)
  IdentityFile $work/client_key
  IdentitiesOnly yes
  StrictHostKeyChecking no
  UserKnownHostsFile /dev/null
  BatchMode yes
  LogLevel ERROR
  SetEnv JIG_STATE_DIR=$work/$name
  ControlMaster auto
  ControlPath $work/cm-%n
  ControlPersist 60
EOF
done
sleep 0.5

go run ./bench/genstate -dir "$work/local" -n 500 -pid $$
go run ./bench/genstate -dir "$work/a" -n 25 -pid $$
go run ./bench/genstate -dir "$work/b" -n 25 -pid $$
export JIG_SSH="ssh -F $work/ssh_config"
# warm the masters
ssh -F "$work/ssh_config" hosta true
ssh -F "$work/ssh_config" hostb true

{
	echo "| command | sessions | wall (median of $runs) |"
	echo "|---|---:|---:|"
	measure "$work/hello" | row "Go hello world" "-"
	JIG_STATE_DIR="$work/local" measure "$work/bin/jig" session list --json | row '`session list --json`' 500
	JIG_STATE_DIR="$work/local" measure "$work/bin/jig" board --once | row '`board --once`' 500
	# each benchmark $runs times, interleaved, its median: one run on a shared machine says little
	JIG_BENCH_STATE="$work/local" go test ./board -run '^$' -bench '^Benchmark(Local|LiveRefresh|RowOf)$' -benchtime 20x -count "$runs" >"$work/bench.txt"
	grep '^BenchmarkLocal-' "$work/bench.txt" | awk '{print $3/1e6}' | median |
		awk '{printf "| a live refresh of this machine (board.Local, in the running board) | 500 | %.2f ms |\n", $1}'
	grep '^BenchmarkLiveRefresh-' "$work/bench.txt" | awk '{print $3/1e6}' | median |
		awk '{printf "| the same, sorted and drawn in colour on a 160×50 screen (a redraw after a file event) | 500 | %.2f ms |\n", $1}'
	grep '^BenchmarkRowOf-' "$work/bench.txt" | awk '{print $3/1e6}' | median |
		awk '{printf "| one file decoded into its row (rowOf, in process, no system calls) | 1 | %.3f ms |\n", $1}'
	JIG_STATE_DIR="$work/a" measure "$work/bin/jig" session list --json | row '`session list --json` (on one host)' 25
	JIG_STATE_DIR="$work/a" measure "$work/bin/jig" session list --json --slim | row '`session list --json --slim` (on one host: what the board asks)' 25
	measure ssh -F "$work/ssh_config" hosta true | row 'ssh + `true` (warm master): the cost of one question' -
	measure ssh -F "$work/ssh_config" hosta jig session list --json | row 'ssh + `session list --json` (warm master)' 25
	measure ssh -F "$work/ssh_config" hosta jig session list --json --slim | row 'ssh + `session list --json --slim` (warm master)' 25
	JIG_STATE_DIR="$work/empty" measure "$work/bin/jig" board --once --host hosta --host hostb | row '`board --once --host hosta --host hostb`' 50
} | tee "$work/table.md"
# What the last run's reader wrote below the table stays (the rounds of
# issue 32 and before): everything from the first such heading on.
notes=$(sed -n '/^## /,$p' bench/board.md 2>/dev/null || true)
{
	echo "# jig board: one refresh"
	echo
	echo "Measured by \`bash bench/board.sh\` on $(nproc) cores, $(date -u +%Y-%m-%d), load average $(cut -d' ' -f1 /proc/loadavg) at the end. Budgets: a local refresh"
	echo "over 500 sessions within 30 ms (issue 32: a live refresh within 15 ms, \`board --once\` within 30 ms); over 50"
	echo "sessions on two ssh hosts (warm ControlMaster) within 100 ms."
	echo
	cat "$work/table.md"
	[ -z "$notes" ] || printf '\n%s\n' "$notes"
} >bench/board.md
