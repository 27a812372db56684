package hmrwire

import "testing"

func TestZZChurn(t *testing.T) {
	ho := newCrane(t, craneSpec(4, 40))
	ho.ramp(t, 1.2, 0.5)
	for ho.LoadBottom().Z > 0.05 {
		ho.run(t, 1.0/60, nil)
	}
	ho.run(t, 1, nil)
	ho.ramp(t, 0, 0.2)
	ho.run(t, 3, nil)
	for s := 0; s < 5; s++ {
		c0, r0 := ho.Wire.Coarsened, ho.Wire.Refined
		changes := 0
		ho.run(t, 1, func() {})
		m, _, c := ho.Wire.Counts()
		t.Logf("second %d: %d coarsenings, %d refinements, %d mass, %d contact nodes, %d changes", s, ho.Wire.Coarsened-c0, ho.Wire.Refined-r0, m, c, changes)
	}
	// where are the nodes
	n := 0
	for i, nd := range ho.Wire.nodes {
		if nd.kind == MassNode && i%10 == 0 {
			p := nd.position()
			t.Logf("node %d at %.2f %.2f T %.1f rest %.2f", i, p.X, p.Z, nd.tension, nd.rest)
			n++
		}
	}
}
