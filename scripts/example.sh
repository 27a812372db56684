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

# The same hoist with Python plugins inside the FMU: a winch controller
# with overload protection and a wind load from a gust input.
go run ./build -o out/HoistControlled.fmu examples/hoist-controlled
python3 examples/clients/python/hoist_controlled.py out/HoistControlled.fmu --csv out/controlled.csv
go run ./examples/hoist/plot -csv out/controlled.csv -o out/controlled.png -height 26 \
	-panels 'load.z+controller.reference:Lift (controller plugin):load height (m):1;cable.tension:Cable tension (limit 12 kN):tension (kN):1e-3;wind.force:Wind on the load (wind plugin):force (N):1;load.x:Sway:load x (m):1'
echo "plot: out/controlled.png"
