package hmrwire

import (
	"math"
	"testing"
)

// TestHoistResolutionConvergence: the numbers an engineer takes from a
// set-down and lift of the example crane (craneSpec(4, 45): 20 t set
// down from 2 m, 10 s on the ground with the wire slack, hauled in again
// at 1.2 m/s) hardly depend on how many mass nodes the slack wire may
// refine to: with at most 50, 100 and 200, the ground's share of the
// hooked weight is within 0.5 % of the weight of the run with 400, the
// load lifts off within two steps of it and the snatch (the largest fall
// tension while the slack wire is hauled taut) is within 3 % (the slack
// falls' swing is chaotic: with the wire's bending the snatch of 50, 100
// and 200 nodes lies 0.7 %, 0.04 % and 2.4 % below 400's, with a
// flexible wire 1.7 % above it at 50; the 4 m spacing of 50 nodes does
// not resolve the slack wire's bending length (EI/ρg)^⅓ = 1.6 m). The
// example scenario takes 50: about the winch's 4 m spacing over the
// 220 m of wire, and below the ~190 nodes the slack wire refines to
// unbounded, which coarsen and refine some 200 times a second as the
// slack falls swing (each change lays the solver's rows out anew).
func TestHoistResolutionConvergence(t *testing.T) {
	type outcome struct{ ground, liftOff, snatch float64 }
	const n, v, h = 4, 1.2, 1.0 / 60
	run := func(maxNodes int) outcome {
		spec := craneSpec(n, 45)
		spec.Resolution.MaxMassNodes = maxNodes
		ho := newCrane(t, spec)
		ho.run(t, 1, nil)
		ho.ramp(t, v, 0.5)
		for ho.LoadBottom().Z > 0.05 {
			ho.run(t, h, nil)
		}
		ho.run(t, 1, nil)
		ho.ramp(t, 0, 0.2)
		ho.run(t, 1, nil)
		var o outcome
		steps, nodes := 0, 0
		changes := ho.Wire.Coarsened + ho.Wire.Refined
		ho.run(t, 10, func() {
			o.ground += ho.GroundForce()
			m, _, _ := ho.Wire.Counts()
			nodes += m
			steps++
		})
		o.ground /= float64(steps) * spec.Hooked()
		changes = ho.Wire.Coarsened + ho.Wire.Refined - changes
		o.liftOff = math.Inf(1)
		elapsed := 0.0
		ho.ramp(t, -v, 0.5)
		ho.run(t, 4, func() {
			elapsed += h
			for _, T := range ho.FallTensions() {
				o.snatch = max(o.snatch, T)
			}
			if math.IsInf(o.liftOff, 1) && ho.LoadBottom().Z > 0.01 {
				o.liftOff = elapsed
			}
		})
		t.Logf("at most %3d mass nodes: %5.1f on the ground on average, %5.1f changes a second; the ground carries %.2f %% of the hooked weight; lift-off %.3f s after hauling starts, snatch %.0f N",
			maxNodes, float64(nodes)/float64(steps), float64(changes)/10, 100*o.ground, o.liftOff, o.snatch)
		return o
	}
	ref := run(400)
	for _, maxNodes := range []int{50, 100, 200} {
		o := run(maxNodes)
		if math.Abs(o.ground-ref.ground) > 0.005 {
			t.Errorf("at most %d mass nodes: the ground carries %.2f %% of the weight, %.2f %% with 400", maxNodes, 100*o.ground, 100*ref.ground)
		}
		if math.Abs(o.liftOff-ref.liftOff) > 2*h+1e-9 {
			t.Errorf("at most %d mass nodes: lift-off %.3f s after hauling starts, %.3f s with 400", maxNodes, o.liftOff, ref.liftOff)
		}
		if math.Abs(o.snatch/ref.snatch-1) > 0.03 {
			t.Errorf("at most %d mass nodes: snatch %.0f N, %.0f N with 400 (%+.2f %%)", maxNodes, o.snatch, ref.snatch, 100*(o.snatch/ref.snatch-1))
		}
	}
}
