package rigidcable

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/material"
)

// A load clamped to a six-strand rope (k = 0.089) hanging from a sheave
// that holds the twist turns under the rope's torque until the rope's
// twist balances it: Ω = k·d·∫T dz/GJ = k·d·(W L + μ g L²/2)/GJ, the
// tension growing with the rope's weight towards the top; within 1 % at
// 20 segments, counterclockwise seen from above as the massless cable turns
// a block (a positive factor), and a rope without torque does not turn it. A viscous
// damper on the load's yaw (no torque at rest) settles the twist swing.
func TestRopeTorqueTwistsTheRope(t *testing.T) {
	for _, k := range []float64{material.TorqueFactorSixStrand, 0} {
		rope := material.DefaultSteelRope()
		rope.TorqueFactor = k
		r := newHoistRig(t, rope, 20, 1e3, Clamped)
		const h = 1.0 / 60
		yaw := 0.0
		for s := 0; s < int(120/h); s++ {
			r.load.Torque = geom.V(0, 0, -200*r.load.AngVel.Z)
			if err := r.world.Step(h); err != nil {
				t.Fatal(err)
			}
			ax := r.load.Rot.Rotate(geom.V(1, 0, 0))
			yaw += remainder2Pi(math.Atan2(ax.Y, ax.X) - yaw)
		}
		w := r.load.Mass * 9.81
		mu := rope.LinearDensity()
		want := k * rope.Diameter * (w*rigLength + mu*9.81*rigLength*rigLength/2) / rope.TorsionalRigidity()
		t.Logf("k = %g: the load turned %.5f rad, closed form %.5f rad", k, yaw, want)
		if k == 0 {
			if math.Abs(yaw) > 1e-9 {
				t.Errorf("a rope without torque turned the load by %g rad", yaw)
			}
			continue
		}
		if math.Abs(yaw/want-1) > 0.01 { // counterclockwise seen from above, as the massless cable turns it
			t.Errorf("k = %g: the load turned %.5f rad, want %.5f rad within 1 %%", k, yaw, want)
		}
	}
}
