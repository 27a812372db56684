#!/usr/bin/env bash
# The model atlas: the same crane scenarios on the five cable models
# (massless, rigid-body, HMR wire, mass–spring, spline) through their
# FMU plugins, a table per scenario (cost, largest stable step, errors
# against the closed forms, largest stable load/element mass ratio), and
# the loads' swing after the trolley move of the first scenario in one
# plot (out/atlas.png, data in out/atlas.csv).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >/dev/null
mkdir -p out
go run ./build/atlas -o out/atlas
go run ./build/plot -csv out/atlas.csv -o out/atlas.png \
	-panels 'massless+rigid+hmr+massspring+spline:Load after a 2 m trolley move, 10 m rope and 1 t (five models):x (m):1'
echo "plot: out/atlas.png"
