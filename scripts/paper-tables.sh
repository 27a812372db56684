#!/usr/bin/env bash
# Prints the source papers' tables and figures as numbers next to ours:
# the validation and stability tests log each comparison, this collects
# them. Rigid-body cable (Servin & Lacoursière 2008): Figs. 10–12, Tables I
# and II, Fig. 16; massless cable (2007): §5.1 periods.
set -euo pipefail
cd "$(dirname "$0")/.."
go test -count=1 -v -run 'TestTableI$|TestTableII|TestStretchMatches|TestTwistMatches|TestBendMatches|TestGantryCycle|TestStretchPeriodsSL07|TestTwistPeriodsSL07' \
	./core/... ./fmu/plugins/rigidbodycable/ >out/paper-tables.log 2>&1 || { cat out/paper-tables.log; exit 1; }
for section in "Fig. 10" "Fig. 11" "Fig. 12" "Table I " "Table II" "Fig. 16" "c_s =" "c_t ="; do
	grep -h "$section" out/paper-tables.log | sed -E 's/^ +[a-z_]+\.go:[0-9]+: /  /'
done
