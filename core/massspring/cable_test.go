package massspring

import (
	"math"
	"math/rand"
	"testing"

	"github.com/cablefmu/cablefmu/core/closedform"
	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/core/oscillation"
)

const g0 = 9.81

// rope20 is a 20 mm steel wire rope: EA = 3.14e7 N, 2.0 kg/m,
// EI = 785 N·m² (a tenth of the solid bar's), τ = 1 ms.
func rope20() material.Rope {
	r := material.Rope{E: 1e11, Poisson: 0.3, Diameter: 0.02, Density: 6370, DampingTime: 1e-3}
	return r
}

// hoistSpec is a cable of length l (m) in n segments hanging straight
// down from the origin with a load (kg), of the 20 mm rope.
func hoistSpec(l float64, n int, load float64) Spec {
	return Spec{Top: geom.Vec3{}, Dir: geom.V(0, 0, -1), Length: l, Segments: n, Rope: rope20(),
		Load: load, Gravity: geom.V(0, 0, -g0)}
}

func newCable(t testing.TB, spec Spec) *Cable {
	t.Helper()
	c, err := New(spec)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (c *Cable) run(t testing.TB, h, seconds float64, top geom.Vec3, each func()) {
	t.Helper()
	for k := 0; k < int(math.Round(seconds/h)); k++ {
		if err := c.Step(h, top); err != nil {
			t.Fatalf("step %d: %v", k, err)
		}
		if each != nil {
			each()
		}
	}
}

// ∂f/∂x and ∂f/∂v as the steps assemble them agree with central
// differences of the forces to 1e-6 of their scale on a bent, moving,
// taut cable, clamped and pinned at the top (∂f/∂x without damping: its
// derivative by the positions is left out, see the package doc).
func TestForceDerivatives(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for _, clamped := range []bool{false, true} {
		for _, damped := range []bool{false, true} {
			rope := material.FromStiffness(5e3, 1, 0.01)
			rope.BendingStiffness = 20
			spec := Spec{Dir: geom.V(1, 0, 0), Length: 3, Segments: 6, Rope: rope, Gravity: geom.V(0, 0, -g0), Clamped: clamped}
			if damped {
				spec.Rope.DampingTime = 0.01
			}
			c := newCable(t, spec)
			for i := 1; i < len(c.X); i++ {
				// Stretched by 30 % and shaken: every spring taut (a
				// compressed one's matrix leaves out its negative transverse
				// stiffness, TestCompressedSpringMatrix).
				c.X[i] = c.X[i].Scale(1.3).Add(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(0.05))
				c.V[i] = geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
			}
			if err := c.evaluate(c.X, c.V); err != nil {
				t.Fatal(err)
			}
			n := len(c.X)
			k := make([][3]geom.Mat3, n)
			d := make([][2]geom.Mat3, n)
			copy(k, c.sys.k)
			copy(d, c.sys.d)
			const eps = 1e-6
			forces := func() []geom.Vec3 {
				if err := c.evaluate(c.X, c.V); err != nil {
					t.Fatal(err)
				}
				return append([]geom.Vec3(nil), c.sys.f...)
			}
			block := func(blocks [][3]geom.Mat3, i, j int) geom.Mat3 {
				if j >= i {
					if j-i > 2 {
						return geom.Mat3{}
					}
					return blocks[i][j-i]
				}
				if i-j > 2 {
					return geom.Mat3{}
				}
				return blocks[j][i-j].T()
			}
			dblocks := make([][3]geom.Mat3, n)
			for i := range d {
				dblocks[i] = [3]geom.Mat3{d[i][0], d[i][1]}
			}
			scaleK := spec.Rope.AxialStiffness() / (spec.Length / float64(spec.Segments))
			for j := 0; j < n; j++ {
				for q := 0; q < 3; q++ {
					for _, wrt := range []string{"x", "v"} {
						if wrt == "x" && damped {
							continue
						}
						field := &c.X[j]
						if wrt == "v" {
							field = &c.V[j]
						}
						keep := *field
						*field = keep.Add(unit(q).Scale(eps))
						fp := forces()
						*field = keep.Sub(unit(q).Scale(eps))
						fm := forces()
						*field = keep
						for i := 0; i < n; i++ {
							want := fp[i].Sub(fm[i]).Scale(1 / (2 * eps))
							blk := block(k, i, j)
							scale := scaleK
							if wrt == "v" {
								blk = block(dblocks, i, j)
								scale = spec.Rope.DampingTime * scaleK
							}
							got := geom.V(blk[0][q], blk[1][q], blk[2][q])
							if got.Sub(want).Norm() > 1e-6*scale {
								t.Errorf("clamped %v damped %v: ∂f_%d/∂%s_%d column %d: %v, differences %v", clamped, damped, i, wrt, j, q, got, want)
							}
						}
					}
				}
			}
		}
	}
}

// A cable laid out unstretched, 10 m of 20 mm rope with 1 t, falls into
// its static stretch: after 20 s at 1/60 s the load hangs lower by
// (M g L + ρ g L²/2)/EA within 1 %, the crane carries (M + ρL) g within
// 0.1 %, with the direct solve and with CG (the paper's 10 rebuilds).
// Hang puts it there at once.
func TestHangingStretch(t *testing.T) {
	const L, M, h = 10.0, 1000.0, 1.0 / 60
	r := rope20()
	rho, ea := r.LinearDensity(), r.AxialStiffness()
	want := (M*g0*L + rho*g0*L*L/2) / ea
	for _, solver := range []Solver{Direct, CG} {
		spec := hoistSpec(L, 20, M)
		spec.Solver = solver
		c := newCable(t, spec)
		c.run(t, h, 20, geom.Vec3{}, nil)
		got := -c.X[len(c.X)-1].Z - L
		if math.Abs(got/want-1) > 0.01 {
			t.Errorf("%v: stretch %.6g m, want %.6g within 1 %%", solver, got, want)
		}
		if fz, w := c.TopForce.Z, -(M+rho*L)*g0; math.Abs(fz/w-1) > 1e-3 {
			t.Errorf("%v: the crane carries %.1f N, want %.1f", solver, fz, w)
		}
		t.Logf("%v: stretch %.4f mm (closed form %.4f), %d CG iterations in the last step (residual %.1e)", solver, 1e3*got, 1e3*want, c.Stats.Iterations, c.Stats.Residual)
	}
	c := newCable(t, hoistSpec(L, 20, M))
	if err := c.Hang(); err != nil {
		t.Fatal(err)
	}
	if got := -c.X[len(c.X)-1].Z - L; math.Abs(got/want-1) > 1e-9 {
		t.Errorf("hung: stretch %.9g m, want %.9g", got, want)
	}
	if fz, w := c.TopForce.Z, -(M+rho*L)*g0; math.Abs(fz/w-1) > 1e-12 {
		t.Errorf("hung: the crane carries %.6f N, want %.6f", fz, w)
	}
}

// A cantilever of the mass–spring cable ([LS01] Fig. 4's setting: one
// end clamped horizontally, released under gravity) settles to the heavy
// cantilever's shape: at small deflection (tip w L⁴/(8EI) = 1 % of L)
// its tip within 5 % of the closed form, for 10, 20 and 40 segments, the
// error falling at second order (by more than 3 as the segments double).
func TestCantileverSmallDeflection(t *testing.T) {
	const L, rho, h = 1.0, 1.0, 0.005
	w := rho * g0
	ei := w * L * L * L / (8 * 0.01) // tip 1 cm down
	want := w * L * L * L * L / (8 * ei)
	last := 0.0
	for _, n := range []int{10, 20, 40} {
		rope := material.FromStiffness(1e6, rho, 0.01)
		rope.BendingStiffness, rope.DampingTime = ei, 1e-3
		c := newCable(t, Spec{Dir: geom.V(1, 0, 0), Clamped: true, Length: L, Segments: n, Rope: rope, Gravity: geom.V(0, 0, -g0)})
		c.run(t, h, 3, geom.Vec3{}, nil)
		tip := -c.X[n].Z
		t.Logf("%d segments: tip %.5f m down, closed form %.5f (%+.2f %%)", n, tip, want, 100*(tip/want-1))
		if math.Abs(tip/want-1) > 0.05 {
			t.Errorf("%d segments: tip %.5f m down, want %.5f within 5 %%", n, tip, want)
		}
		if e := math.Abs(tip/want - 1); last > 0 && !(e < last/3) {
			t.Errorf("%d segments: error %.3g after %.3g with half the segments: not second order", n, e, last)
		} else {
			last = e
		}
	}
}

// [LS01] Figs. 4–5: a 1 m cable of each of the paper's three materials
// (12, 20 and 42 segments, its stiffnesses per mass), clamped at one end
// and released horizontally, stepped at the paper's 0.01 s with its 10
// rebuilds. The paper's linear springs are soft for a cable this long
// (the 42-segment cable's top segment stretches by 13 % and its tip
// hangs 36 cm lower than an inextensible one's), so the shapes are
// checked against the heavy elastica of
// EI = k_B l, w = ρ g with k_L/m a thousand times the paper's: after
// 60 s every point lies within 1.5 % of the length of the elastica's
// point at the same arc length (the materials sag 6 %, 39 % and 8 lengths
// by the small-deflection formula). CG (tolerance 1e-10) follows the
// direct solve within 1e-6 m over the first second of the paper's own
// materials, whose settled shapes are logged.
func TestFig4Materials(t *testing.T) {
	const L, rho, h = 1.0, 0.1, 0.01
	spec := func(n int, pm PerMass, solver Solver) Spec {
		return Spec{Dir: geom.V(1, 0, 0), Clamped: true, Length: L, Segments: n, Rope: material.FromStiffness(0, rho, 0.01),
			PerMass: &pm, Gravity: geom.V(0, 0, -g0), Solver: solver, Rebuilds: 10}
	}
	for _, n := range []int{12, 20, 42} {
		pm := Fig5[n]
		// The paper's material: CG against the direct solve, and its shape.
		cg, direct := newCable(t, spec(n, pm, CG)), newCable(t, spec(n, pm, Direct))
		iterations := 0
		for k := 0; k < 100; k++ {
			for _, c := range []*Cable{cg, direct} {
				if err := c.Step(h, geom.Vec3{}); err != nil {
					t.Fatal(err)
				}
			}
			iterations += cg.Stats.Iterations
		}
		for i := range cg.X {
			if d := cg.X[i].Sub(direct.X[i]).Norm(); d > 1e-6 {
				t.Errorf("%d segments: point %d after 1 s %.3g m apart with CG and the direct solve", n, i, d)
			}
		}
		direct.run(t, h, 59, geom.Vec3{}, nil)
		stretch := direct.X[1].Sub(direct.X[0]).Norm()/direct.Rest - 1
		t.Logf("the paper's %d segments (k_B/m %g, k_L/m %g): tip at (%.3f, %.3f) m after 60 s, top segment stretched %.0f %%; CG took %.0f iterations a step over 10 rebuilds",
			n, pm.KB, pm.KL, direct.X[n].X, direct.X[n].Z, 100*stretch, float64(iterations)/100)
		// Stiff springs: the elastica.
		stiff := pm
		stiff.KL *= 1e3
		c := newCable(t, spec(n, stiff, Direct))
		c.run(t, h, 60, geom.Vec3{}, nil)
		fastest := 0.0
		for _, v := range c.V {
			fastest = max(fastest, v.Norm())
		}
		l := L / float64(n)
		ref, err := closedform.HeavyCantilever(pm.KB*rho*l*l, rho*g0, L, 100*n)
		if err != nil {
			t.Fatal(err)
		}
		worst := 0.0
		for i, x := range c.X {
			r := ref[100*i]
			worst = max(worst, math.Hypot(x.X-r[0], x.Z-r[1]))
		}
		t.Logf("  inextensible: tip at (%.4f, %.4f) m, the elastica's (%.4f, %.4f); points off by %.2f %% of L at most; fastest point %.2g m/s",
			c.X[n].X, c.X[n].Z, ref[100*n][0], ref[100*n][1], 100*worst/L, fastest)
		if worst > 0.015*L {
			t.Errorf("%d segments: a point lies %.4f m off the elastica's", n, worst)
		}
	}
}

// The transverse modes of a hanging cable without load ([LS01]'s model,
// 40 segments of 10 m of 20 mm rope without its bending stiffness, the
// direct solve at 1/60 s): set in
// the shape of mode k, J₀(2ω_k √(y/g)) (y up from the free end), its
// modal coordinate swings at ω_k = (j₀,k/2) √(g/L) within 1 % for k = 1, 2, 3; the
// linearly implicit step damps them (logged).
func TestHangingCableModes(t *testing.T) {
	const L, n, h = 10.0, 40, 1.0 / 60
	modes, err := closedform.HangingModes(L, rope20().LinearDensity(), 0, g0, 3)
	if err != nil {
		t.Fatal(err)
	}
	for k, w := range modes {
		spec := hoistSpec(L, n, 0)
		spec.Rope.Flexible = true // a chain: the rope's EI would stiffen the higher modes
		c := newCable(t, spec)
		if err := c.Hang(); err != nil {
			t.Fatal(err)
		}
		shape := make([]float64, n+1)
		for i := range c.X {
			y := L - float64(i)*L/n
			shape[i] = math.J0(2 * w * math.Sqrt(y/g0))
			c.X[i].X = 0.05 * shape[i]
		}
		// The modal coordinate: the displacement projected on the mode
		// with the points' masses, blind to the other modes.
		var trace []float64
		c.run(t, h, 10*2*math.Pi/w, geom.Vec3{}, func() {
			q := 0.0
			for i, x := range c.X {
				q += c.Mass[i] * x.X * shape[i]
			}
			trace = append(trace, q)
		})
		f, zeta, err := oscillation.Measure(trace, 0, h)
		if err != nil {
			t.Fatalf("mode %d: %v", k+1, err)
		}
		got := 2 * math.Pi * f
		t.Logf("mode %d: %.4f rad/s, closed form %.4f (%+.2f %%), damping ratio %.3f", k+1, got, w, 100*(got/w-1), zeta)
		if math.Abs(got/w-1) > 0.01 {
			t.Errorf("mode %d: %.4f rad/s, want %.4f within 1 %%", k+1, got, w)
		}
	}
}

// A 1 t load on 10 m of 20 mm rope (20 segments, the direct solve at
// 1/60 s), pushed sideways, swings at the first mode of the hanging
// chain with that end mass (the pendulum with the rope's mass, the
// rope's static stretch in its length) within 0.1 %, and with the rope
// undamped its energy never grows over 60 s.
func TestPendulum(t *testing.T) {
	const L, M, h = 10.0, 1000.0, 1.0 / 60
	spec := hoistSpec(L, 20, M)
	spec.Rope.DampingTime = 0
	c := newCable(t, spec)
	if err := c.Hang(); err != nil {
		t.Fatal(err)
	}
	for i := range c.V {
		c.V[i].X = 0.3 * float64(i) / 20
	}
	stretch := (M*g0*L + spec.Rope.LinearDensity()*g0*L*L/2) / spec.Rope.AxialStiffness() // of the rope: the pendulum's too
	modes, err := closedform.HangingModes(L+stretch, spec.Rope.LinearDensity(), M, g0, 1)
	if err != nil {
		t.Fatal(err)
	}
	energy := func() float64 { k, g, e := c.Energy(); return k + g + e }
	start := energy()
	var trace []float64
	grew := 0.0
	c.run(t, h, 60, geom.Vec3{}, func() {
		trace = append(trace, c.X[20].X)
		grew = max(grew, energy()-start)
	})
	f, _, err := oscillation.Measure(trace, 0, h)
	if err != nil {
		t.Fatal(err)
	}
	got := 2 * math.Pi * f
	t.Logf("swing %.5f rad/s, closed form %.5f (%+.3f %%); energy rose by at most %.3g J", got, modes[0], 100*(got/modes[0]-1), grew)
	if math.Abs(got/modes[0]-1) > 0.001 {
		t.Errorf("swing %.5f rad/s, want %.5f within 0.1 %%", got, modes[0])
	}
	if grew > 1e-9*math.Abs(start) {
		t.Errorf("energy rose by %.3g J", grew)
	}
}

// The load's bounce on the rope, √(EA/(L M)) corrected for the rope's
// mass (closedform.Bounce), within 1 % at a step that resolves it
// (1 ms); at 1/60 s, where ω h ≈ 0.9, the implicit step slows it and
// damps it (logged: the method's limit).
func TestBounce(t *testing.T) {
	const L, M = 10.0, 1000.0
	r := rope20()
	want := closedform.Bounce(r.AxialStiffness(), L, r.LinearDensity(), M)
	for _, h := range []float64{1e-3, 1.0 / 60} {
		spec := hoistSpec(L, 20, M)
		spec.Rope.DampingTime = 0
		c := newCable(t, spec) // unstretched: it drops into its stretch
		var trace []float64
		c.run(t, h, 2, geom.Vec3{}, func() { trace = append(trace, c.X[20].Z) })
		mean := -L - (M*g0*L+r.LinearDensity()*g0*L*L/2)/r.AxialStiffness()
		f, zeta, err := oscillation.Measure(trace, mean, h)
		if err != nil {
			t.Logf("h = %.4f s: %v", h, err)
			continue
		}
		got := 2 * math.Pi * f
		t.Logf("h = %.4f s: bounce %.3f rad/s, closed form %.3f (%+.2f %%), damping ratio %.3f", h, got, want, 100*(got/want-1), zeta)
		if h == 1e-3 && math.Abs(got/want-1) > 0.01 {
			t.Errorf("bounce %.3f rad/s, want %.3f within 1 %%", got, want)
		}
	}
}

// A winch lowering 1 t at 1 m/s stops dead (the rest length stops
// growing): the top's peak tension exceeds the static one by the
// closed form's v√(km) with the rope's damping (closedform.StopPeak),
// within 2 % at 0.1 ms. (At 1 ms the implicit step's own damping, about
// ω²h²/2 a step, takes 3.4 % off the peak a quarter period later.)
func TestSuddenStop(t *testing.T) {
	const L, M, v, h = 10.0, 1000.0, 1.0, 1e-4
	r := rope20()
	spec := hoistSpec(L, 20, M)
	c := newCable(t, spec)
	if err := c.Hang(); err != nil {
		t.Fatal(err)
	}
	// Lowering steadily: the points move down with the paid-out rope.
	for i := range c.V {
		c.V[i].Z = -v * float64(i) / 20
	}
	length := L
	for k := 0; k < 5000; k++ {
		length += v * h
		if err := c.SetLength(length); err != nil {
			t.Fatal(err)
		}
		if err := c.Step(h, geom.Vec3{}); err != nil {
			t.Fatal(err)
		}
	}
	static := c.Tension(0)
	peak := 0.0
	c.run(t, h, 0.5, geom.Vec3{}, func() { peak = max(peak, c.Tension(0)) })
	k := r.AxialStiffness() / length
	want, err := closedform.StopPeak(k, M, r.DampingTime, v)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("peak %.0f N over the static %.0f: %.0f N, closed form %.0f (%+.2f %%)", peak, static, peak-static, want, 100*((peak-static)/want-1))
	if math.Abs((peak-static)/want-1) > 0.02 {
		t.Errorf("dynamic peak %.0f N, want %.0f within 2 %%", peak-static, want)
	}
}

// A compressed spring's block in the step's matrix keeps its axial
// stiffness k_L along it and nothing across it (eq. 8's negative
// k_L(1 − l/L) left out), while its force stays the exact −k_L(L − l)u; a
// taut spring's block is eq. 8's.
func TestCompressedSpringMatrix(t *testing.T) {
	for _, stretch := range []float64{0.8, 1.2} {
		rope := material.FromStiffness(100, 1, 0.01)
		rope.Flexible = true
		spec := Spec{Dir: geom.V(1, 0, 0), Length: 2, Segments: 2, Rope: rope, Gravity: geom.Vec3{}}
		c := newCable(t, spec)
		c.X[1], c.X[2] = geom.V(stretch, 0, 0), geom.V(2*stretch, 0, 0)
		if err := c.evaluate(c.X, c.V); err != nil {
			t.Fatal(err)
		}
		k := c.sys.k[2][0] // ∂f_2/∂x_2: the second spring's alone
		kl := c.KL
		wantAxial, wantAcross := -kl, -kl*(1-1/stretch)
		if stretch < 1 {
			wantAcross = 0
		}
		if math.Abs(k[0][0]-wantAxial) > 1e-9*kl || math.Abs(k[1][1]-wantAcross) > 1e-9*kl || math.Abs(k[2][2]-wantAcross) > 1e-9*kl {
			t.Errorf("stretch %g: block diagonal (%g, %g, %g), want (%g, %g, %g)", stretch, k[0][0], k[1][1], k[2][2], wantAxial, wantAcross, wantAcross)
		}
		if f, want := c.sys.f[2].X, -kl*(stretch-1); math.Abs(f-want) > 1e-9*kl {
			t.Errorf("stretch %g: force %g, want %g", stretch, f, want)
		}
	}
}

// The winch stopping dead at the end of a haul-in and a pay-out speed
// stepped to 1 m/s slacken the rope for a moment: the steps go on (they
// failed with an indefinite matrix while compressed springs kept their
// negative transverse stiffness), and the load comes to rest hanging.
func TestWinchJerksSlackenTheRope(t *testing.T) {
	const h = 1.0 / 60
	c := newCable(t, hoistSpec(10, 20, 12330))
	if err := c.Hang(); err != nil {
		t.Fatal(err)
	}
	length := 10.0
	for k := 0; k < 600; k++ {
		speed := -0.5
		if k >= 300 {
			speed = 1.0 // a step from hauling in to paying out
		}
		length = max(9, length+h*speed)
		if err := c.SetLength(length); err != nil {
			t.Fatal(err)
		}
		if err := c.Step(h, geom.Vec3{}); err != nil {
			t.Fatalf("t = %.3f s (length %.3f m): %v", float64(k)*h, length, err)
		}
	}
	c.run(t, h, 20, geom.Vec3{}, nil)
	if w := (12330 + c.spec.Rope.LinearDensity()*c.Length()) * g0; math.Abs(-c.TopForce.Z/w-1) > 0.01 {
		t.Errorf("after 20 s the crane carries %.0f N, want %.0f within 1 %%", -c.TopForce.Z, w)
	}
}
