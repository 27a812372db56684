#!/usr/bin/env bash
# Builds the cablefmu command for Linux and Windows, each carrying the
# engine library of both platforms, so that exporting needs no Go, no C
# compiler and no source tree:
#
#   bash scripts/dist.sh [OUT]      (default out/dist)
#
# writes OUT/linux64/cablefmu and OUT/win64/cablefmu.exe, and copies them
# into the Python package (examples/clients/python/cablefmu/bin/), which
# then exports through the command of its platform.
#
# First the engines: the C ABI compiled once per platform by the same code
# the in-tree exporter (go run ./build export) compiles them with, into
# build/engines; then the command, pure Go, with the build tag
# cablefmu_dist that embeds them. The same commit gives the same engines,
# so both ways export the same bytes.
set -euo pipefail
out=$(realpath -m "${1:-$(dirname "$0")/../out/dist}") # OUT as given, from the working directory
cd "$(dirname "$0")/.."
bash scripts/setup.sh
rm -rf build/engines
go run ./build engines -o build/engines -platforms linux64,win64
# The command records the sources its engines were built from, and
# refuses to export with engines of others.
source=$(cat build/engines/source)
for p in linux64:linux:cablefmu win64:windows:cablefmu.exe; do
	IFS=: read -r platform goos exe <<<"$p"
	mkdir -p "$out/$platform"
	CGO_ENABLED=0 GOOS=$goos GOARCH=amd64 GOAMD64=v1 go build -tags cablefmu_dist -trimpath -ldflags "-s -w -X main.distSource=$source" \
		-o "$out/$platform/$exe" ./build
	mkdir -p examples/clients/python/cablefmu/bin/$platform
	cp "$out/$platform/$exe" examples/clients/python/cablefmu/bin/$platform/
done
"$out/linux64/cablefmu" --version
echo "dist: $out/linux64/cablefmu, $out/win64/cablefmu.exe"
