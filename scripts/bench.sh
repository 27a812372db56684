#!/usr/bin/env bash
# Benchmarks: cost of internal steps and of the whole RigidHoist step at 20,
# 100 and 1000 segments (go test -bench), and of one FMI round trip through
# the C ABI (fmi2SetReal + fmi2DoStep + fmi2GetReal, timed by a C program).
# Prints a table; nothing is asserted.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >/dev/null
mkdir -p out
go test -run '^$' -bench . -benchmem ./core/... ./fmu/pyplugin/ ./fmu/plugins/rigidbodycable/ | tee out/bench-go.txt
go run ./build -o out/Hoist.fmu examples/hoist >/dev/null
rm -rf out/bench-fmu && mkdir -p out/bench-fmu && (cd out/bench-fmu && python3 -m zipfile -e ../Hoist.fmu .)
gcc -O2 -Wall -o out/roundtrip scripts/bench/roundtrip.c -ldl
trip=$(out/roundtrip "$PWD/out/bench-fmu" 200000)
echo
printf '%-52s %12s\n' "benchmark" "ns/op"
awk '/^Benchmark/ { printf "%-52s %12s\n", $1, $3 }' out/bench-go.txt
printf '%-52s %12s\n' "C ABI: SetReal(7)+DoStep(1/60 s)+GetReal(11)" "$(echo "$trip" | sed -E 's/.*: ([0-9]+) ns.*/\1/')"
