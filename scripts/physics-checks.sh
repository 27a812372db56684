#!/usr/bin/env bash
# Physics checks against closed forms at the default settings, printed as a
# table of measured values next to the closed forms: the winch-stop peak,
# bounce frequency and damping ratio of both hoists at 1/60 s and 1 ms
# communication steps, the rigid cable's torsion pendulum and the
# trolley-jerk stability grid. The same tests run (and assert their
# tolerances) in scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
run() {
	go test -count=1 -v -run "$1" "$2" | sed -n 's/^ *[a-z_]*_test\.go:[0-9]*: /  /p'
}
echo "== massless Hoist: winch stopped dead from 0.5 m/s (peak, slack) and 0.1 m/s (bounce), 1000 kg on 20 mm rope"
run 'TestWinchStopPeak$|TestBounceFrequencyAndDamping$' ./fmu/plugins/masslesscable/
echo "== rigid-body cable (RigidHoist, N = 20): the same winch stops, rope mass included"
run 'TestRigidWinchStopPeak$|TestRigidBounceFrequencyAndDamping$' ./fmu/plugins/rigidbodycable/
echo "== rigid-body cable: torsion pendulum of the box load (N = 20, load 1e3 segments)"
run 'TestTorsionPendulum$' ./core/rigidcable/
echo "== rigid-body cable: hoist jerked to 1 m/s for 2 s, 120 s at h = 1/60 s"
run 'TestTrolleyJerkStableEverywhere$' ./core/rigidcable/
