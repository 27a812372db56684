package hmrwire

import (
	"testing"
	"time"
)

func TestDiagConverge(t *testing.T) {
	for _, maxN := range []int{25, 50, 100, 200, 400} {
		const n, v, h = 4, 1.2, 1.0 / 60
		spec := craneSpec(n, 45)
		spec.Resolution.MaxMassNodes = maxN
		ho := newCrane(t, spec)
		ho.run(t, 1, nil)
		ho.ramp(t, v, 0.5)
		for ho.LoadBottom().Z > 0.05 {
			ho.run(t, h, nil)
		}
		ho.run(t, 1, nil)
		ho.ramp(t, 0, 0.2)
		ho.run(t, 1, nil)
		ground, steps, nodes := 0.0, 0.0, 0.0
		c0, r0 := ho.Wire.Coarsened, ho.Wire.Refined
		t0 := time.Now()
		ho.run(t, 10, func() {
			ground += ho.GroundForce()
			m, _, _ := ho.Wire.Counts()
			nodes += float64(m)
			steps++
		})
		per := time.Since(t0) / time.Duration(steps)
		changes := float64(ho.Wire.Coarsened-c0+ho.Wire.Refined-r0) / 10
		peak, lift := 0.0, -1.0
		tt := 0.0
		ho.ramp(t, -v, 0.5)
		ho.run(t, 4, func() {
			tt += h
			for _, T := range ho.FallTensions() {
				peak = max(peak, T)
			}
			if lift < 0 && ho.LoadBottom().Z > 0.01 {
				lift = tt
			}
		})
		want := spec.Hooked()/n + spec.Rope.LinearDensity*spec.Gravity*(ho.BoomTip.Pos.Z-ho.Hook().Z)/2
		t.Logf("max %3d: ground %.2f %% mean mass nodes %.0f changes/s %.0f step %v | lift-off at %.3f s peak %.0f N (%.4f static)",
			maxN, 100*ground/steps/spec.Hooked(), nodes/steps, changes, per, lift, peak, peak/want)
	}
}
