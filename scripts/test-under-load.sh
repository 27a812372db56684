#!/usr/bin/env bash
# The test suite on a busy machine: two CPU-bound processes per core run
# beside it (plain shell loops, started here and stopped on exit) while
#   1. the HoistControlled example (two Python plugins) runs RUNS_SAME
#      times (default 100) through the cablefmu package, every output of
#      every step bitwise equal to a run made before the load started;
#   2. scripts/test.sh runs ROUNDS times in a row (default 3), each green.
# Prints each round's time beside the time of one round on the quiet
# machine (QUIET=0 skips that round). Exits non-zero at the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-3}
runs_same=${RUNS_SAME:-100}
mkdir -p out
bash scripts/setup.sh --test

quiet_time=""
if [ "${QUIET:-1}" != 0 ]; then
	echo "== test.sh on the quiet machine"
	start=$(date +%s)
	bash scripts/test.sh >out/test-quiet.log 2>&1 || { tail -50 out/test-quiet.log; echo "test-under-load: test.sh failed on the quiet machine (out/test-quiet.log)"; exit 1; }
	quiet_time=$(($(date +%s) - start))
	echo "quiet: passed in ${quiet_time} s"
fi

go run ./build export -o out/HoistControlled.fmu examples/massless-controlled
/usr/bin/python3 scripts/reliability/same_outputs.py --runs 1 --save out/massless-controlled-quiet.json out/HoistControlled.fmu

burners=()
stop_burners() {
	if ((${#burners[@]})); then
		kill "${burners[@]}" 2>/dev/null || true
		wait "${burners[@]}" 2>/dev/null || true
	fi
}
trap stop_burners EXIT
n=$((2 * $(nproc)))
for _ in $(seq "$n"); do
	bash -c 'while :; do :; done' &
	burners+=($!)
done
echo "== load: $n CPU-bound processes on $(nproc) cores"

/usr/bin/python3 scripts/reliability/same_outputs.py --runs "$runs_same" --against out/massless-controlled-quiet.json out/HoistControlled.fmu

for r in $(seq "$rounds"); do
	echo "== test.sh under load, round $r of $rounds"
	start=$(date +%s)
	if ! bash scripts/test.sh >"out/test-under-load-$r.log" 2>&1; then
		tail -50 "out/test-under-load-$r.log"
		echo "test-under-load: round $r failed (out/test-under-load-$r.log)"
		exit 1
	fi
	echo "round $r: passed in $(($(date +%s) - start)) s${quiet_time:+ (quiet: $quiet_time s)}"
done
echo "test-under-load: $rounds rounds passed under load, $runs_same HoistControlled runs bitwise equal"
