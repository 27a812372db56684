#!/usr/bin/env bash
# Prints the source papers' tables and figures as numbers next to ours:
# the validation and stability tests log each comparison, this collects
# them. Rigid-body cable (Servin & Lacoursière 2008): Figs. 10–12, Tables I
# and II, Fig. 16; massless cable (2007): §5.1 periods; hybrid multiresolution
# wire (2011): Fig. 12, friction, capstan, Figs. 10–11.
set -euo pipefail
cd "$(dirname "$0")/.."
go test -count=1 -v -run 'TestTableI$|TestTableII|TestStretchMatches|TestTwistMatches|TestBendMatches|TestGantryCycle|TestStretchPeriodsSL07|TestTwistPeriodsSL07' \
	./core/... ./fmu/plugins/rigidcable/ >out/paper-tables.log 2>&1 || { cat out/paper-tables.log; exit 1; }
for section in "Fig. 10" "Fig. 11" "Fig. 12" "Table I " "Table II" "Fig. 16" "c_s =" "c_t ="; do
	grep -h "$section" out/paper-tables.log | sed -E 's/^ +[a-z_]+\.go:[0-9]+: /  /'
done

# Hybrid multiresolution wire (Servin, Lacoursière, Nordfelth & Bodin 2011):
# Fig. 12's Atwood machine and friction, the capstan, Figs. 10–11's
# stability charts.
go test -count=1 -v -run 'TestAtwoodFrictionless|TestFrictionAlongWire|TestFrictionAcrossEdge|TestCapstan|TestStabilityChart' \
	./core/hmrwire/ >out/paper-tables-hmr.log 2>&1 || { cat out/paper-tables-hmr.log; exit 1; }
hmr() { grep -h "$1" out/paper-tables-hmr.log | sed -E 's/^ +[a-z_]+\.go:[0-9]+: /    /'; }
echo
echo "Fig. 12 top, Atwood over a beam's two edges, frictionless (paper: a and T as g(1−r)/(1+r), 2r·m·g/(1+r)); ours, r = 0.5:"
hmr 'atwood_test.go'
echo "Fig. 12 bottom, friction along the wire (paper: its post-facto reduction); ours, Coulomb at two 90° corners, q = ((1+μ)/(1−μ))², r = 0.5:"
hmr 'friction_test.go:[0-9]*: stick threshold'
hmr 'friction_test.go:[0-9]*: m=1000 μ'
echo "Friction across an inclined edge (paper: stick only at μ = 1 on 30°, theory tan 30° = 0.577); ours, a = g sin θ (1 − μ/tan θ):"
hmr 'θ=30° m=1000'
echo "Capstan, T_pull/T_load at the onset of slip against e^μθ (μ = 0.3):"
hmr 'capstan_test.go'
echo "Figs. 10–11, stability at h = 1/60 s (paper: the chain unstable for m_b ≳ 100 m_w, the HMR wire stable everywhere):"
sed -n '/Fig. 11b/,/^ *$/p; /Fig. 11a/,/^ *$/p' out/paper-tables-hmr.log | sed -E 's/^ {8}/    /'
