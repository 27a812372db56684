#!/usr/bin/env bash
# Writes cabi/default.pgo, the CPU profile the FMU binary is built with
# (profile-guided optimization: go build's default -pgo=auto takes the
# file beside the main package, cabi): the steps of the models, each
# benchmark run for the same time, merged into one profile. Run it again
# when the hot code changes much; a stale profile still builds, it only
# guides less. The benchmarks (bench.sh, bench-engines.sh) build with the
# same profile, so that they measure what the FMUs run.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=out/pgo
rm -rf "$dir" && mkdir -p "$dir"
profile() { # name package benchmark
	go test -run '^$' -bench "$3" -benchtime 2s -o "$dir/$1.test" -cpuprofile "$dir/$1.prof" "$2" >/dev/null
}
profile rigidhoist ./fmu/plugins/rigidcable/ 'BenchmarkRigidHoistDoStep'
profile wirehoist ./core/hmrwire/ 'BenchmarkWireHoist$'
profile massless ./core/massless/ 'BenchmarkHoistStep$'
profile massspring ./core/massspring/ 'BenchmarkHoistCable$'
profile spline ./core/spline/ 'BenchmarkSpline$'
go tool pprof -proto "$dir"/*.prof >cabi/default.pgo 2>/dev/null
echo "cabi/default.pgo: $(wc -c <cabi/default.pgo) bytes from $(ls "$dir"/*.prof | wc -l) profiles"
