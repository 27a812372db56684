#!/usr/bin/env bash
# Benchmarks: cost of internal steps and of the whole RigidHoist step at 20,
# 100 and 1000 segments (go test -bench), of the HMR wire's step on a
# chain, a net, a wire over an n-gon cylinder and the example crane's
# hoist (at rest, hauling, the boom tip moving, set down) split into its
# phases, of the mass–spring and spline cables per degree of freedom, and of one FMI round trip through the C ABI (fmi2SetReal +
# fmi2DoStep + fmi2GetReal, timed by a C program). Prints tables; nothing
# is asserted.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >/dev/null
mkdir -p out
# Built with the profile the FMUs are built with (scripts/pgo.sh), so that
# the figures are the FMUs'.
pgo=-pgo=$PWD/cabi/default.pgo
go test "$pgo" -run '^$' -bench . -benchmem ./core/... ./fmu/pyplugin/ ./fmu/plugins/rigidcable/ | tee out/bench-go.txt
go run ./build export -o out/Hoist.fmu examples/massless >/dev/null
rm -rf out/bench-fmu && mkdir -p out/bench-fmu && (cd out/bench-fmu && python3 -m zipfile -e ../Hoist.fmu .)
gcc -O2 -Wall -o out/roundtrip scripts/bench/roundtrip.c -ldl
trip=$(out/roundtrip "$PWD/out/bench-fmu" 200000)
echo
printf '%-52s %12s\n' "benchmark" "ns/op"
awk '/^Benchmark/ { printf "%-52s %12s\n", $1, $3 }' out/bench-go.txt
printf '%-52s %12s\n' "C ABI: SetReal(7)+DoStep(1/60 s)+GetReal(11)" "$(echo "$trip" | sed -E 's/.*: ([0-9]+) ns.*/\1/')"

# The HMR wire's step ([SLNB11] Figs. 7–9, and the example crane's hoist
# in the phases of its co-simulation) split into its phases, µs per step:
# contact update, resolution (coarsen, refine, rebuild), the sparse
# solver's symbolic analysis, assembly, numeric factorization and
# substitution, and the rest of the world's step (rows, integration); and
# how many times faster than real time a step of 1/60 s runs.
echo
printf '%-40s %7s %8s %8s %8s %8s %8s %8s %8s %8s %8s %8s\n' "HMR wire step (µs)" nodes "ns/node" total contact resol symbol assem numeric solve rows+int "x-real"
awk '/^BenchmarkWire/ {
	delete m
	for (i = 3; i < NF; i += 2) m[$(i + 1)] = $i
	name = $1; sub(/^Benchmark/, "", name); sub(/-[0-9]+$/, "", name)
	printf "%-40s %7d %8.0f %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %8.0f\n", name, m["nodes"], m["ns/node"], m["ns/op"] / 1000,
		m["ns-contacts"] / 1000, m["ns-resolution"] / 1000, m["ns-symbolic"] / 1000, m["ns-assembly"] / 1000,
		m["ns-numeric"] / 1000, m["ns-solve"] / 1000, m["ns-rows+integration"] / 1000, m["x-realtime"]
}' out/bench-go.txt

# The comparison models per degree of freedom: the mass–spring cable's
# direct solve (3 a point) and the spline's dynamic system (4 a control
# point), and the spline's cost over the mass–spring cable's (target: 3).
echo
printf '%-10s %22s %22s %8s\n' "N" "mass-spring ns/dof" "spline ns/dof" "ratio"
awk '/^BenchmarkHoistCable\/N=[0-9]+\/direct/ { split($1, a, /[=\/]/); for (i = 3; i < NF; i += 2) if ($(i + 1) == "ns/node") ms[a[3]] = $i / 3 }
	/^BenchmarkSpline\/N=[0-9]+\/dynamic/ { split($1, a, /[=\/]/); for (i = 3; i < NF; i += 2) if ($(i + 1) == "ns/dof") sp[a[3]] = $i }
	END { for (n in sp) if (n in ms) printf "%-10s %22.0f %22.0f %8.2f\n", n, ms[n], sp[n], sp[n] / ms[n] }' out/bench-go.txt | sort -n

# Where the time of the whole RigidHoist step goes: the cumulative share of
# each phase in a CPU profile of BenchmarkRigidHoistDoStep (function|label),
# on one processor (-cpu 1): a step split in two halves (N = 1000) then runs
# them in turn, its work whole under each phase's function, without the
# other goroutine's share or its waiting.
phases=(
	'rigidcable.(*Joint).Update|constraints evaluate their rows (Joint.Update)'
	"rigidcable.(*Joint).TurnStiffness|turning stiffness: the joints' pulls (AddPull)"
	'multibody.(*World).takeTurnStiffness|turning stiffness: criterion and inertia'
	'multibody.(*World).assemble|rows: M⁻¹J, Σ, right-hand side (World.assemble)'
	'multibody.(*Chain).factor|chain: blocks assembled and factored (Chain.factor)'
	'multibody.(*Chain).Substitute|chain: substitution (Chain.Substitute)'
	'multibody.(*World).integrate|impulses, bodies moved, Apply (World.integrate)'
)
echo
printf '%-58s %8s %8s %8s\n' "RigidHoist step, share of the time" "N=20" "N=100" "N=1000"
declare -A share
for n in 20 100 1000; do
	go test "$pgo" -run '^$' -cpu 1 -bench "BenchmarkRigidHoistDoStep/N=$n\$" -benchtime=2s -cpuprofile "out/cpu-$n.prof" \
		-o out/rigidcable.test ./fmu/plugins/rigidcable/ >/dev/null
	top=$(go tool pprof -top -cum -nodecount=300 out/rigidcable.test "out/cpu-$n.prof" 2>/dev/null)
	for p in "${phases[@]}"; do
		fn=${p%%|*}
		pct=$(echo "$top" | awk -v f="$fn" '{ n = length($NF); m = length(f) } n >= m && substr($NF, n - m + 1) == f { print $5; exit }')
		share["$p,$n"]=${pct:-0%}
	done
done
for p in "${phases[@]}"; do
	printf '%-58s %8s %8s %8s\n' "${p#*|}" "${share["$p,20"]}" "${share["$p,100"]}" "${share["$p,1000"]}"
done

# A long rope's step through the C ABI, split between two processors or
# not: back to back, paced, beside busy processes.
echo
/usr/bin/python3 scripts/bench_split.py

# Studies with the cablefmu Python package: runs per second of the
# payload-sweep example serially, in the default mode, on a local Dask
# cluster and on a LocalCluster reached by its address (and with FMPy on
# dask.bag where FMPy is on PYTHONPATH: scripts/bench_studies_fmpy.py), with
# the example's runs and runs almost seven times as long (Debian's
# python3-distributed: setup.sh --studies).
bash scripts/setup.sh --studies >/dev/null
echo
/usr/bin/python3 scripts/bench_studies.py 2>/dev/null
echo
/usr/bin/python3 scripts/bench_studies.py --stop 400 2>/dev/null

# The SSP master: its own cost per communication step beyond the FMUs' in
# each coupling, and a 10-minute crane cycle's wall time, on the systems of
# examples/crane-system (the FMUs exported into out/ from the tree first).
for pair in "examples/massless Hoist" "examples/gantry-crane GantryCrane" "examples/boom-crane BoomCrane" "examples/wire-hoist WireHoist"; do
	set -- $pair
	go run ./build export -o "out/$2.fmu" -platforms linux64 "$1" >/dev/null
done
echo
/usr/bin/python3 scripts/bench_system.py --fmus out --cycle
