package hmrwire

import (
	"math"
	"testing"
)

// TestBoomTipStiffness: on four falls at rest, the boom tip's stiffness
// with the block and the wire's mass nodes held (the direct response a
// co-simulation master asks for) is the axial stiffness of the wire's
// pieces that the boom tip's sheaves and dead end stretch: on either side
// of each boom sheave, from the sheave's stick point (the first contact
// node of its run: the sheave's friction grips the wire) to the nearest
// mass node, and the dead end's piece. Walking the nodes, each piece of
// length ℓ at tension T has the rest length ℓ/(1 + T/EA), and
// K_zz = −Σ EA u_z²/L over the pieces, u the direction of the piece where
// it leaves the boom tip: within 1 % (the plumb falls' geometric stiffness
// T/ℓ adds nothing vertically, the lead's 0.1 %). That is the stiffness
// of the wire at its resolution, as the rigid-body cable's is that of its
// top joint: far stiffer than the quasi-static n²EA/L of the whole
// reeving, which the block's and nodes' inertia hide within a step. K is
// symmetric, and C_zz = τ K_zz within 1 %.
func TestBoomTipStiffness(t *testing.T) {
	const n = 4
	spec := craneSpec(n, 40)
	ho := newCrane(t, spec)
	ho.run(t, 3, nil)
	K, C := ho.BoomTipStiffness()
	ea := spec.Rope.AxialStiffness()
	boom := map[*Geometry]bool{}
	for _, s := range ho.Sheaves {
		if s.hinge.axle == ho.BoomTip {
			boom[s.Geometry] = true
		}
	}
	nodes := ho.Wire.nodes
	onBoom := func(i int) bool { return nodes[i].kind == ContactNode && boom[nodes[i].geo] }
	// piece adds −EA u_z²/L for the piece from node a to mass node b
	// through the nodes between, leaving the boom tip at a.
	want := 0.0
	piece := func(a, b int) {
		step := 1
		if b < a {
			step = -1
		}
		l := 0.0
		for i := a; i != b; i += step {
			l += nodes[i+step].position().Sub(nodes[i].position()).Norm()
		}
		out := a
		for onBoom(out + step) {
			out += step // leaves the sheave at its last contact node
		}
		u, _ := nodes[out+step].position().Sub(nodes[out].position()).Unit()
		want -= ea * u.Z * u.Z / (l / (1 + nodes[min(a, b)].tension/ea))
	}
	for i := 1; i < len(nodes)-1; i++ {
		if onBoom(i) && !onBoom(i-1) { // a boom sheave's run starts
			prev, next := i-1, i+1
			for nodes[prev].kind != MassNode {
				prev--
			}
			for nodes[next].kind != MassNode {
				next++
			}
			piece(i, prev)
			piece(i, next)
		}
	}
	last := len(nodes) - 1
	piece(last, last-1)
	t.Logf("K = %.4g N/m, C = %.4g N·s/m; K_zz %.4g N/m, from the pieces %.4g (%+.3f %%)", K, C, K[2][2], want, 100*(K[2][2]/want-1))
	if math.Abs(K[2][2]/want-1) > 0.01 {
		t.Errorf("K_zz = %.4g N/m, want %.4g within 1 %%", K[2][2], want)
	}
	for i := 0; i < 3; i++ {
		for j := 0; j < i; j++ {
			if math.Abs(K[i][j]-K[j][i]) > 1e-9*math.Abs(K[2][2]) {
				t.Errorf("K is not symmetric: K[%d][%d] = %g, K[%d][%d] = %g", i, j, K[i][j], j, i, K[j][i])
			}
		}
		if K[i][i] >= 0 || C[i][i] > 0 {
			t.Errorf("K[%d][%d] = %g and C = %g: moving the boom tip out must raise the pull back", i, i, K[i][i], C[i][i])
		}
	}
	if tau := spec.Rope.DampingTime; math.Abs(C[2][2]/(tau*K[2][2])-1) > 0.01 {
		t.Errorf("C_zz = %.4g N·s/m, want τ K_zz = %.4g within 1 %%", C[2][2], tau*K[2][2])
	}
}

// TestBoomTipForceAtStart: before the first step the boom tip's force is
// the system's as laid in its static equilibrium, within 0.5 % of the
// force the first steps solve (and not zero: a crane coupled at the start
// feels the load), on 1, 2 and 4 falls.
func TestBoomTipForceAtStart(t *testing.T) {
	for _, n := range []int{1, 2, 4} {
		ho := newCrane(t, craneSpec(n, 40))
		laid := ho.BoomTipForce()
		ho.run(t, 1, nil)
		solved := ho.BoomTipForce()
		t.Logf("%d falls: laid %.0f N, after 1 s %.0f N", n, laid, solved)
		if d := laid.Sub(solved).Norm(); !(d <= 5e-3*solved.Norm()) {
			t.Errorf("%d falls: the force as laid %.0f N, after 1 s %.0f N (%.2f %% off)", n, laid, solved, 100*d/solved.Norm())
		}
	}
}
