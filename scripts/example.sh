#!/usr/bin/env bash
# Builds the Hoist FMU, co-simulates a trolley move with the Python ctypes
# client (standard library only), prints a summary and writes
# out/hoist.csv and the plot out/hoist.png.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
go run ./build -o out/Hoist.fmu examples/hoist
python3 examples/clients/python/hoist_cosim.py out/Hoist.fmu --csv out/hoist.csv
go run ./examples/hoist/plot -csv out/hoist.csv -o out/hoist.png
echo "plot: out/hoist.png"
