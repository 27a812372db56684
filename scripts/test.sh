#!/usr/bin/env bash
# The test suite: formatting, vet, staticcheck, the FMU tested from outside
# Go (Python ctypes and a C master load the built library; a fuzzer of the
# C API with a state-machine oracle), then the Go
# tests (physics against closed forms and the papers, the runtime, the
# model descriptions against the official FMI schemas).
set -euo pipefail
cd "$(dirname "$0")/.."
# The baseline x86-64 instruction set, as the engines are built: GOAMD64=v3
# fuses multiply-adds, and tests that hold two forms of a computation to the
# same bits (the unrolled chain kernels, a sparse refactorization) see them
# round apart.
export GOAMD64=v1
bash scripts/setup.sh --test

echo "== gofmt, go vet, staticcheck"
unformatted=$(gofmt -l $(find . -name '*.go' -not -path './out/*'))
if [ -n "$unformatted" ]; then
	echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
go vet ./...
go tool staticcheck ./...
# The Go kernels that stand in for the vector ones (core/multibody's
# vector_amd64.s) on processors without AVX and on other architectures:
# built, checked and run as those are.
go vet -tags purego ./core/multibody
GOARCH=arm64 go vet ./core/multibody
go test -count=1 -tags purego -run 'TestUnrolledKernels|TestVector' ./core/multibody
# Generated code as its generator writes it today.
(cd core/multibody && go run ./internal/gen6 | diff -u chain6_unrolled.go - >/dev/null) ||
	{ echo "core/multibody/chain6_unrolled.go is stale: run go generate ./core/multibody"; exit 1; }

echo "== Scenarios against the scenario JSON Schema (python3-jsonschema)"
/usr/bin/python3 scripts/check-scenarios.py

echo "== The cablefmu command: engines built once, exports without Go"
# The commands for Linux and Windows, each carrying both engines; then,
# from a folder outside the checkout with no go and no C compiler on the
# PATH, every scenario exported in FMI 2.0 and 3.0 into out/, each FMU
# compared byte for byte with the in-tree exporter's and cablefmu.exe's
# under Wine. The suites below run on those FMUs.
bash scripts/dist.sh out/dist
go vet -tags cablefmu_dist ./build  # the file that embeds the engines, now that they are built
go tool staticcheck -tags cablefmu_dist ./build
/usr/bin/python3 scripts/dist_check.py --dist out/dist --out out

echo "== FMU from outside Go"
HOIST_FMU=out/Hoist.fmu RIGIDHOIST_FMU=out/RigidHoist.fmu HOIST3_FMU=out/Hoist3.fmu RIGIDHOIST3_FMU=out/RigidHoist3.fmu \
	WIREBEAM_FMU=out/WireBeam.fmu WIREBEAM3_FMU=out/WireBeam3.fmu WIREHOIST_FMU=out/WireHoist.fmu WIREHOIST3_FMU=out/WireHoist3.fmu \
	MASSSPRINGHOIST_FMU=out/MassSpringHoist.fmu MASSSPRINGHOIST3_FMU=out/MassSpringHoist3.fmu \
	SPLINEHOIST_FMU=out/SplineHoist.fmu SPLINEHOIST3_FMU=out/SplineHoist3.fmu \
	HOISTCONTROLLED_FMU=out/HoistControlled.fmu PLUGINFAULTS_FMU=out/PluginFaults.fmu PLUGINFAULTS3_FMU=out/PluginFaults3.fmu \
	GANTRYCRANE_FMU=out/GantryCrane.fmu GANTRYCRANE3_FMU=out/GantryCrane3.fmu BOOMCRANE_FMU=out/BoomCrane.fmu BOOMCRANE3_FMU=out/BoomCrane3.fmu \
	RIGIDHOISTLONG_FMU=out/RigidHoistLong.fmu RIGIDHOISTLONG3_FMU=out/RigidHoistLong3.fmu \
	python3 -m unittest discover -s scripts/fmutest -v

echo "== The cablefmu Python package: simulate, studies serially and on a Dask LocalCluster, SSP systems"
HOIST_FMU=out/Hoist.fmu HOIST3_FMU=out/Hoist3.fmu HOISTWIND_FMU=out/HoistWind.fmu GANTRYCRANE_FMU=out/GantryCrane.fmu BOOMCRANE_FMU=out/BoomCrane.fmu WIREHOIST_FMU=out/WireHoist.fmu RIGIDHOIST_FMU=out/RigidHoist.fmu \
	/usr/bin/python3 -m unittest discover -s examples/clients/python/tests -v

echo "== C-API fuzzer: random FMI 2.0/3.0 call sequences against the state-machine oracle"
# FUZZ_SEEDS=N changes the number of sequences (one process each).
python3 scripts/reliability/fuzz.py --seeds "${FUZZ_SEEDS:-3000}" out/Hoist.fmu out/RigidHoist.fmu out/Hoist3.fmu \
	out/RigidHoist3.fmu out/HoistControlled.fmu out/PluginFaults.fmu out/PluginFaults3.fmu \
	out/WireBeam.fmu out/WireBeam3.fmu out/WireHoist.fmu out/WireHoist3.fmu out/MassSpringHoist.fmu out/MassSpringHoist3.fmu \
	out/SplineHoist.fmu out/SplineHoist3.fmu

echo "== Soak: long runs with state replays, memory flat"
python3 scripts/reliability/soak.py --steps 1000000 out/Hoist.fmu out/Hoist3.fmu
python3 scripts/reliability/soak.py --steps 100000 out/RigidHoist.fmu out/RigidHoist3.fmu
python3 scripts/reliability/soak.py --steps 60000 out/WireHoist.fmu out/WireHoist3.fmu
python3 scripts/reliability/soak.py --steps 100000 out/MassSpringHoist.fmu out/MassSpringHoist3.fmu
python3 scripts/reliability/soak.py --steps 100000 out/SplineHoist.fmu out/SplineHoist3.fmu

echo "== Go tests"
go test -count=1 ./...
