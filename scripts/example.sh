#!/usr/bin/env bash
# Builds the Hoist FMU, co-simulates a trolley move with the Python ctypes
# client (standard library only), prints a summary and writes
# out/hoist.csv and the plot out/hoist.png; then the same with Python
# plugins inside the FMU (out/controlled.png), and a crane's lift cycle on
# the reeved WireHoist (out/wirehoist.png).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
go run ./build export -o out/Hoist.fmu examples/massless
python3 examples/clients/python/hoist_cosim.py out/Hoist.fmu --csv out/hoist.csv
go run ./build/plot -csv out/hoist.csv -o out/hoist.png
echo "plot: out/hoist.png"

# The same hoist with Python plugins inside the FMU: a winch controller
# with overload protection and a wind load from a gust input.
go run ./build export -o out/HoistControlled.fmu examples/massless-controlled
python3 examples/clients/python/hoist_controlled.py out/HoistControlled.fmu --csv out/controlled.csv
go run ./build/plot -csv out/controlled.csv -o out/controlled.png -height 26 \
	-panels 'load.z+controller.reference:Lift (controller plugin):load height (m):1;cable.tension:Cable tension (limit 12 kN):tension (kN):1e-3;wind.force:Wind on the load (wind plugin):force (N):1;load.x:Sway:load x (m):1'
echo "plot: out/controlled.png"

# A crane's hoisting system on the HMR wire: drum, turning sheaves, four
# falls, a 20 t load lifted, moved with the boom tip, set down on the
# ground and lifted again.
go run ./build export -o out/WireHoist.fmu examples/wire-hoist
python3 examples/clients/python/wirehoist_cosim.py out/WireHoist.fmu --csv out/wirehoist.csv
go run ./build/plot -csv out/wirehoist.csv -o out/wirehoist.png -height 30 \
	-panels 'hook.z+load.z:Hook and load (lift, boom-tip move, set-down, lift):height (m):1;fall[1].tension+fall[2].tension+fall[3].tension+fall[4].tension:Tension per fall:tension (kN):1e-3;sheave[1].omega+sheave[2].omega+sheave[3].omega+sheave[4].omega:Sheaves (boom 1, hook 1, boom 2, hook 2):speed (rad/s):1;cable.massNodes+cable.contactNodes:Wire resolution:nodes:1;sway:Sway of the hook:angle (deg):1'
echo "plot: out/wirehoist.png"
