# Sourced by bench/claude/run.sh and bench/codex/run.sh: times a hook
# command against a Go hello world and the same jig built with the tags,
# interleaved, in $rounds rounds of $runs runs each, with $work/in.json on
# stdin. Needs cmd (an associative array: hello, hook, tagged). Sets ms and
# ratio (per name: the median over rounds of its median, and of its median
# over hello's) and verdict ("within" or "OVER" the 3× budget).
names=(hello hook tagged)
: >"$work/rounds"
for ((k = 0; k < rounds; k++)); do
	declare -A tm=()
	for ((i = 0; i < runs; i++)); do
		for n in "${names[@]}"; do
			t0=$EPOCHREALTIME
			${cmd[$n]} <"$work/in.json" >/dev/null
			t1=$EPOCHREALTIME
			tm[$n]+="$(awk -v a="$t0" -v b="$t1" 'BEGIN {print (b - a) * 1000}') "
		done
	done
	for n in "${names[@]}"; do
		echo "$k $n $(echo ${tm[$n]} | tr ' ' '\n' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')"
	done >>"$work/rounds"
done
summary=$(python3 - "$work/rounds" <<'PY'
import sys, statistics as st
by = {}
for r, n, ms in (l.split() for l in open(sys.argv[1])):
    by.setdefault(int(r), {})[n] = float(ms)
for n in ["hello", "hook", "tagged"]:
    print(n, "%.2f" % st.median(by[r][n] for r in by), "%.2f" % st.median(by[r][n] / by[r]["hello"] for r in by))
PY
)
declare -A ms ratio
while read -r n m x; do ms[$n]=$m; ratio[$n]=$x; done <<<"$summary"
verdict=$(awk -v r="${ratio[hook]}" 'BEGIN {print (r <= 3 ? "within" : "OVER")}')
# Instructions per run, which a loaded machine does not move as it moves
# wall time (callgrind, the median of three; the hook finds nothing new
# each time): sets counted, a line for RESULTS, when there is valgrind.
counted=""
if command -v valgrind >/dev/null; then
	declare -A ir
	for n in "${names[@]}"; do
		ir[$n]=$(for i in 1 2 3; do
			GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null ${cmd[$n]} <"$work/in.json" 2>&1 >/dev/null |
				awk '/Collected/ {print $4}'
		done | sort -n | sed -n 2p)
	done
	counted="Instructions per run (callgrind, GODEBUG=asyncpreemptoff=1, the median of three): hello ${ir[hello]},
the hook ${ir[hook]} ($(awk -v a="${ir[hook]}" -v b="${ir[hello]}" 'BEGIN {printf "%.1f", a / b}')× hello), the tagged build ${ir[tagged]} ($(awk -v a="${ir[tagged]}" -v b="${ir[hello]}" 'BEGIN {printf "%.1f", a / b}')×)."
fi
