package contact

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

const h = 1.0 / 60

func boxOnGround(t *testing.T, mu float64, z float64) (*multibody.World, *multibody.Body, []*Contact) {
	t.Helper()
	w := multibody.NewWorld(geom.V(0, 0, -9.81))
	size := geom.V(1, 1, 0.5)
	b := w.AddBody(multibody.NewBody("box", 100, multibody.BoxInertia(100, 1, 1, 0.5), geom.V(0, 0, z)))
	g := &Ground{Friction: mu}
	var cs []*Contact
	for _, p := range BoxCorners(b, size) {
		c := New(g, p)
		c.Damping = 2 * h
		w.AddConstraint(c)
		cs = append(cs, c)
	}
	return w, b, cs
}

func run(t *testing.T, w *multibody.World, seconds float64, each func()) {
	t.Helper()
	for i := 0; i < int(math.Round(seconds/h)); i++ {
		if err := w.Step(h); err != nil {
			t.Fatal(err)
		}
		if each != nil {
			each()
		}
	}
}

// A box dropped from 1 m comes to rest on the ground: it sinks in less
// than 1 mm and the ground carries its weight within 1 %.
func TestDroppedBoxRests(t *testing.T) {
	w, b, cs := boxOnGround(t, 0.5, 1.25)
	run(t, w, 3, nil)
	if d := 0.25 - b.Pos.Z; d > 1e-3 {
		t.Errorf("box sank %.4f m into the ground, want below 1 mm", d)
	}
	total := 0.0
	for _, c := range cs {
		total += c.Force(h)
	}
	if mg := 100 * 9.81; math.Abs(total/mg-1) > 0.01 {
		t.Errorf("ground force %.2f N, want mg = %.2f N within 1 %%", total, mg)
	}
}

// A box sliding at 3 m/s with μ = 0.4 stops after v²/(2μg) − v h/2 within
// 0.5 %: Coulomb's deceleration μg exactly, and symplectic Euler, which
// moves each step with the already slowed velocity, ends v h/2 short.
func TestSlidingBoxStops(t *testing.T) {
	w, b, _ := boxOnGround(t, 0.4, 0.25)
	run(t, w, 0.5, nil) // settle the contact forces
	x0 := b.Pos.X
	b.Vel = geom.V(3, 0, 0)
	run(t, w, 2, nil)
	want := 9/(2*0.4*9.81) - 3*h/2
	if got := b.Pos.X - x0; math.Abs(got/want-1) > 0.005 {
		t.Errorf("slid %.4f m, want v²/(2μg) − v h/2 = %.4f m within 0.5 %%", got, want)
	}
	if math.Abs(b.Vel.X) > 1e-6 {
		t.Errorf("still moving at %.3g m/s", b.Vel.X)
	}
}

// Pushed with 0.9 μmg the box sticks; with 1.5 μmg it accelerates at
// (F − μmg)/m within 2 %.
func TestStickAndSlide(t *testing.T) {
	const mu, m = 0.5, 100.0
	for _, f := range []float64{0.9, 1.5} {
		w, b, _ := boxOnGround(t, mu, 0.25)
		run(t, w, 0.5, nil)
		b.Force = geom.V(f*mu*m*9.81, 0, 0)
		run(t, w, 0.5, nil)
		v0 := b.Vel.X
		run(t, w, 1, nil)
		a := b.Vel.X - v0
		want := math.Max(0, (f-1)*mu*9.81)
		if math.Abs(a-want) > 0.02*math.Max(want, 1) {
			t.Errorf("pushed with %.1f μmg: acceleration %.4f m/s², want %.4f within 2 %%", f, a, want)
		}
	}
}

// unswitched hides a contact's Off, so that the world evaluates and
// assembles its rows every step; it still rebounds (Contact.Rebound).
type unswitched struct{ multibody.Constraint }

func (u unswitched) Rebound(h float64, lambda, lo, hi []float64) bool {
	return u.Constraint.(multibody.Rebounding).Rebound(h, lambda, lo, hi)
}

// A box bouncing off the ground moves bitwise as it does when the world
// evaluates its contacts every step, and every step's problem is bitwise
// the same: rows kept off are the rows Update sets, also across a change
// of step size.
func TestSwitchedOffRowsUnchanged(t *testing.T) {
	drop := func(switched bool) []geom.Vec3 {
		w := multibody.NewWorld(geom.V(0, 0, -9.81))
		size := geom.V(1, 1, 0.5)
		b := w.AddBody(multibody.NewBody("box", 100, multibody.BoxInertia(100, 1, 1, 0.5), geom.V(0, 0, 0.8)))
		b.AngVel = geom.V(0.7, -0.3, 0.2)
		g := &Ground{Friction: 0.5}
		for _, p := range BoxCorners(b, size) {
			c := New(g, p)
			c.Damping = 2 * h
			if switched {
				w.AddConstraint(c)
			} else {
				w.AddConstraint(unswitched{c})
			}
		}
		var path []geom.Vec3
		for i := 0; i < 180; i++ {
			step := h
			if i >= 90 && i < 100 {
				step = h / 2
			}
			if i%40 == 0 {
				b.Vel.Z = 3 // thrown up again
			}
			p, err := w.Assemble(step)
			if err != nil {
				t.Fatal(err)
			}
			for r := range p.Rows {
				for _, x := range [][]float64{p.Sigma, p.B, p.Lo, p.Hi} {
					path = append(path, geom.V(x[r], math.Copysign(1, x[r]), 0))
				}
				for _, j := range [][]multibody.Jacobian{p.Rows[r].J, p.Rows[r].MinvJ} {
					path = append(path, j[0].Lin, j[0].Ang)
				}
			}
			if err := w.Step(step); err != nil {
				t.Fatal(err)
			}
			path = append(path, b.Pos, b.Vel, b.AngVel, b.ConstraintForce)
		}
		return path
	}
	want, got := drop(false), drop(true)
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("value %d: %v with switched-off rows kept, %v evaluated every step", i, got[i], want[i])
		}
	}
}

// A 20 t box of 2 × 2 × 2 m landing tilted on one edge (0.4 m/s down,
// turning at 0.2 rad/s) with the contacts' default damping loses energy
// at the impacts and comes to rest on its face within 0.5 s: its energy
// never grows above the energy it lands with. (With the stepper's
// relaxation for rigid rows instead, 0.05 h, the corners were pushed out
// of the ground within about a step and the box gained 10–20 % of its
// energy at each impact, rocking without end.)
func TestTiltedBoxLandsAndRests(t *testing.T) {
	w := multibody.NewWorld(geom.V(0, 0, -9.81))
	const m = 20000.0
	inertia := multibody.BoxInertia(m, 2, 2, 2)
	b := w.AddBody(multibody.NewBody("box", m, inertia, geom.V(0, 0, 1.05)))
	b.Vel, b.AngVel = geom.V(0, 0, -0.4), geom.V(0, -0.2, 0)
	g := &Ground{Friction: 0.5}
	for _, p := range BoxCorners(b, geom.V(2, 2, 2)) {
		w.AddConstraint(New(g, p))
	}
	energy := func() float64 {
		return 0.5*m*b.Vel.Dot(b.Vel) + 0.5*b.AngVel.Dot(geom.V(inertia.X*b.AngVel.X, inertia.Y*b.AngVel.Y, inertia.Z*b.AngVel.Z)) + m*9.81*b.Pos.Z
	}
	e0 := energy()
	run(t, w, 0.5, func() {
		if e := energy(); e > e0 {
			t.Fatalf("energy grew from %.1f J to %.1f J", e0, e)
		}
	})
	if math.Abs(b.Pos.Z-1) > 1e-3 || b.Vel.Norm() > 1e-3 || b.AngVel.Norm() > 1e-3 {
		t.Errorf("after 0.5 s the box is at z = %.4f m, moving at %v m/s and %v rad/s; want at rest on its face", b.Pos.Z, b.Vel, b.AngVel)
	}
}

// A box resting on the ground and pushed sideways with 0.9 μ m g stays
// put (but for friction's creep, FrictionSlip) whether the steps are all
// alike or their length changes from step to step, as substeps of a
// changing number do (steps of 1/60 s taken whole, in three and in
// sixteen): it slides no more than 1.5 times as far as at the constant
// step, both where each step's substeps are left as they are and where
// their impulses are summed into the step's (multibody.World.Substeps,
// as RigidHoist and WireHoist do). With the last substep's normal impulse as the next step's bound,
// unscaled, a step after shorter ones had its bound cut to a third or a
// sixteenth and slid.
func TestFrictionHoldsAcrossStepLengths(t *testing.T) {
	const mu = 0.5
	slide := func(counts []int, sum bool) float64 {
		w, b, _ := boxOnGround(t, mu, 0.25)
		run(t, w, 1, nil)
		x0 := b.Pos.X
		b.Force = geom.V(0.9*mu*100*9.81, 0, 0)
		for k := 0; k < 60; k++ {
			for _, n := range counts {
				substeps(t, w, n, sum)
			}
		}
		return b.Pos.X - x0
	}
	even := slide([]int{1, 1, 1, 1, 1}, false)
	cut := []int{1, 3, 16, 1, 1}
	changing, summed := slide(cut, false), slide(cut, true)
	t.Logf("slid %.3f mm at 1/60 s, %.3f mm with changing steps, %.3f mm with their impulses summed (5 s)", 1e3*even, 1e3*changing, 1e3*summed)
	for _, c := range []struct {
		name string
		d    float64
	}{{"changing steps", changing}, {"changing steps summed", summed}} {
		if c.d > 1.5*even+1e-6 {
			t.Errorf("%s: the box slid %.3f mm, at a constant step %.3f mm: want at most 1.5 times", c.name, 1e3*c.d, 1e3*even)
		}
	}
}

// A box landing from 0.5 m at 3 m/s sideways (μ = 0.5) slides on by
// Coulomb's law 0.210 m: the impact's friction impulse μ m v_z takes 1.57
// of the 3 m/s, and μ g stops the rest. The slide is measured from where
// the same steps' free flight reaches the ground (a twin box stepped
// without the ground): symplectic Euler falls ahead of the exact flight,
// by g h t/2 (2.5 cm after 0.3 s at 1/60 s), and lands 8 ms early, 2.4 cm
// short of where the exact flight lands; measured from there, the slide
// at 1/60 s looked 13 % short. At steps of 1/60 s and where the steps are
// taken in substeps of a changing number (16 and 1, 3, 1 and 1, and 1, 16,
// 3, 1 and 2 per 1/60 s, at every phase, each step's impulses summed into
// one step by multibody.World.Substeps), the contacts' damping 2/60 s, it
// slides within 5 % of that, and the slides differ by at most 5 % of it
// (measured: 0.2079 m at 1/60 s, 0.2039–0.2095 m in all); at steps of
// 1/960 s, each its own, with the contacts' default damping of two steps,
// within 1 % (0.2094 m): the friction bound follows the normal impulse of
// the step's own solve where it jumps (Contact.Rebound). (With the damping
// left at 2/60 s, the SPOOK row slows the corners' approach over 2/60 s,
// the friction acting meanwhile: 0.2033 m at 1/960 s.) With the last
// step's normal impulse alone, one step late, the box slid 0.235 m from
// the exact flight's landing at 1/60 s, and 0.016–0.235 m in substeps.
func TestLandingSlideAcrossStepLengths(t *testing.T) {
	const mu, g, drop, vx = 0.5, 9.81, 0.5, 3.0
	vz := math.Sqrt(2 * g * drop)
	coulomb := math.Pow(vx-mu*vz, 2) / (2 * mu * g)
	// slide steps the box for 3 s, each step of 1/60 s in counts[(k +
	// phase) % len] substeps, summed as one step or not, the contacts'
	// damping γ (s; 0: two of the steps taken), and returns how far it
	// slid from where its free twin reached the ground.
	slide := func(counts []int, phase int, sum bool, damping float64) float64 {
		w, b, cs := boxOnGround(t, mu, 0.25+drop)
		for _, c := range cs {
			c.Damping = damping
		}
		b.Vel = geom.V(vx, 0, 0)
		free := multibody.NewWorld(w.Gravity)
		twin := free.AddBody(multibody.NewBody("twin", b.Mass, b.Inertia, b.Pos))
		twin.Vel = b.Vel
		landed := math.NaN()
		for k := 0; k < 180; k++ {
			n := counts[(k+phase)%len(counts)]
			substeps(t, w, n, sum)
			for i := 0; i < n && math.IsNaN(landed); i++ {
				x, z := twin.Pos.X, twin.Pos.Z-0.25
				if err := free.Step(h / float64(n)); err != nil {
					t.Fatal(err)
				}
				// Within a step the twin moves on a straight line.
				if bottom := twin.Pos.Z - 0.25; bottom <= 0 {
					landed = x + (twin.Pos.X-x)*z/(z-bottom)
				}
			}
		}
		return b.Pos.X - landed
	}
	even := slide([]int{1}, 0, true, 2*h)
	least, most := even, even
	for _, counts := range [][]int{{16, 1}, {3, 1, 1}, {1, 16, 3, 1, 2}} {
		for phase := range counts {
			d := slide(counts, phase, true, 2*h)
			least, most = math.Min(least, d), math.Max(most, d)
		}
	}
	fine := slide([]int{16}, 0, false, 0) // steps of 1/960 s, each its own
	t.Logf("slid %.4f m at 1/60 s, %.4f to %.4f m in all, %.4f m at 1/960 s (Coulomb's law: %.4f m)", even, least, most, fine, coulomb)
	if least < 0.95*coulomb || most > 1.05*coulomb || most-least > 0.05*coulomb {
		t.Errorf("the box slid %.4f to %.4f m, want within 5 %% of %.4f m and within 5 %% of it of each other", least, most, coulomb)
	}
	if math.Abs(fine/coulomb-1) > 0.01 {
		t.Errorf("at 1/960 s the box slid %.4f m, want %.4f m within 1 %%", fine, coulomb)
	}
}

// substeps takes a step of h in n equal substeps: with sum, as one step
// (multibody.World.Substeps, which hands the contacts the sums of their
// substeps' impulses, as RigidHoist and WireHoist take them), without, as
// n steps.
func substeps(t *testing.T, w *multibody.World, n int, sum bool) {
	t.Helper()
	step := func(_ int, sub float64) error { return w.Step(sub) }
	if sum {
		if err := w.Substeps(h, n, step); err != nil {
			t.Fatal(err)
		}
		return
	}
	for k := 0; k < n; k++ {
		if err := step(k, h/float64(n)); err != nil {
			t.Fatal(err)
		}
	}
}

// A crane's load tipped over (12.3 t, 2 × 2 × 1 m), dropped from 0.3 m:
// on its 2 × 1 m side, or upside down, it comes to rest on that face
// (centre 1 m or 0.5 m above the ground within 1 mm), never more than 1 cm
// into the ground. With contacts at its bottom corners alone it fell
// through the ground.
func TestTippedBoxLiesOnItsSideOrTop(t *testing.T) {
	for _, c := range []struct {
		name   string
		turn   float64 // about x, rad
		centre float64 // height at rest, m
	}{{"on its side", math.Pi / 2, 1}, {"upside down", math.Pi, 0.5}} {
		w := multibody.NewWorld(geom.V(0, 0, -9.81))
		const m = 12330.0
		size := geom.V(2, 2, 1)
		b := w.AddBody(multibody.NewBody("load", m, multibody.BoxInertia(m, size.X, size.Y, size.Z), geom.V(0, 0, c.centre+0.3)))
		b.Rot = geom.AxisAngle(geom.V(1, 0, 0), c.turn)
		g := &Ground{Friction: 0.5}
		for _, p := range BoxCorners(b, size) {
			ct := New(g, p)
			ct.Damping = 2 * h
			w.AddConstraint(ct)
		}
		lowest := math.Inf(1)
		run(t, w, 2, func() { lowest = math.Min(lowest, b.Pos.Z) })
		if d := c.centre - lowest; d > 0.01 {
			t.Errorf("%s: the box went %.3f m into the ground, want at most 1 cm", c.name, d)
		}
		if math.Abs(b.Pos.Z-c.centre) > 1e-3 || b.Vel.Norm() > 1e-3 {
			t.Errorf("%s: after 2 s the centre is at z = %.4f m, moving at %.3g m/s; want at rest at %g m", c.name, b.Pos.Z, b.Vel.Norm(), c.centre)
		}
	}
}

// TestThrownRodLands: a rope segment (2 kg, 1 m, contacts at both ends
// of radius 1 cm, μ = 0.5), tilted 10°, thrown down at 22 m/s (a slack
// fall from a 45 m boom) from 40 heights between 0.1 and 0.6 m at
// 1/60 s. With Gap its ends never go more than 1 mm into the ground;
// with SPOOK's form they went up to 8 cm in, which is logged.
func TestThrownRodLands(t *testing.T) {
	deepest := func(gap bool) float64 {
		worst := 0.0
		for k := 0; k < 40; k++ {
			w := multibody.NewWorld(geom.V(0, 0, -9.81))
			z := 0.1 + 0.5*float64(k)/40
			rod := w.AddBody(multibody.NewBody("rod", 2, geom.V(1e-4, 2.0/12, 2.0/12), geom.V(0, 0, z)))
			rod.Rot = geom.AxisAngle(geom.V(0, 1, 0), 10*math.Pi/180)
			rod.Vel = geom.V(3, 0, -22)
			g := &Ground{Friction: 0.5}
			var cs []*Contact
			for _, x := range []float64{-0.5, 0.5} {
				c := New(g, Point{Body: rod, Offset: geom.V(x, 0, 0), Radius: 0.01})
				c.Damping, c.Gap = 2*h, gap
				w.AddConstraint(c)
				cs = append(cs, c)
			}
			w.Solver = &multibody.ActiveSet{Solver: &multibody.Dense{}}
			for s := 0; s < 60; s++ {
				if err := w.Step(h); err != nil {
					t.Fatal(err)
				}
				for _, c := range cs {
					_, gp, _ := c.clearance(h)
					worst = max(worst, -gp)
				}
			}
		}
		return worst
	}
	spook, gap := deepest(false), deepest(true)
	t.Logf("deepest end: %.3g m with Gap, %.3g m with SPOOK's form", gap, spook)
	if gap > 1e-3 {
		t.Errorf("an end of the thrown rod went %.3g m into the ground", gap)
	}
}

// far, the bound Off tries first, finds a point far only where clearance
// does, for either reach (Gap or not) and orientations of any norm, at
// heights around the threshold and on far larger scales.
func TestFarBoundsClearance(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	vec := func(s float64) geom.Vec3 {
		return geom.V(s*rng.NormFloat64(), s*rng.NormFloat64(), s*rng.NormFloat64())
	}
	found := 0
	for trial := 0; trial < 200000; trial++ {
		scale := math.Pow(10, float64(rng.IntN(9)-3))
		b := multibody.NewBody("b", 1, geom.V(1, 1, 1), geom.Vec3{})
		b.Rot = geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
		if trial%2 == 0 {
			b.Rot = b.Rot.Normalize()
		}
		b.Vel, b.AngVel = vec(scale*rng.Float64()), vec(rng.Float64())
		g := &Ground{Height: scale * rng.NormFloat64()}
		c := New(g, Point{Body: b, Offset: vec(scale * rng.Float64()), Radius: scale * rng.Float64() / 10})
		c.Gap = trial%3 != 0
		// The centre just above, at and below the height where the bound
		// first holds.
		b.Pos.Z = g.Height + c.point.Radius + c.arm*(0.5+2*rng.Float64()) + Margin*rng.Float64()*3
		step := h * rng.Float64()
		if c.far(step) {
			found++
			if _, _, far := c.clearance(step); !far {
				t.Fatalf("trial %d: far, but clearance finds the point within reach", trial)
			}
		}
	}
	if found < 1000 {
		t.Errorf("far held %d times in 200000 trials: not exercised", found)
	}
}

// countingSolver counts the solves of a world's steps.
type countingSolver struct {
	multibody.Solver
	solves int
}

func (c *countingSolver) Solve(p *multibody.Problem) error {
	c.solves++
	return c.Solver.Solve(p)
}

// A tall box (0.5 × 0.5 × 2 m) standing on end and pushed over at 3 m/s
// sideways, at steps of 1/60 s to 1/960 s and μ = 0.5 to 1.2: its corners'
// friction bounds follow their normal impulses (Rebound) within at most
// maxMoves more solves a step. A corner that its own friction lifts has a
// normal impulse without the bound and none with it: bounds taken from the
// last solve alone alternated through every solve MaxRebounds allows, 17 a
// step, in 6 of 1920 steps at 1/960 s; a box thrown askew had two corners
// move in turn for 7 solves while each counted its own moves.
func TestReboundSolvesBounded(t *testing.T) {
	for _, mu := range []float64{0.5, 0.8, 0.9, 1.2} {
		for _, div := range []int{1, 4, 16} {
			w := multibody.NewWorld(geom.V(0, 0, -9.81))
			size := geom.V(0.5, 0.5, 2)
			b := w.AddBody(multibody.NewBody("box", 100, multibody.BoxInertia(100, size.X, size.Y, size.Z), geom.V(0, 0, 1)))
			g := &Ground{Friction: mu}
			for _, p := range BoxCorners(b, size) {
				c := New(g, p)
				c.Damping = 2 * h
				w.AddConstraint(c)
			}
			count := &countingSolver{Solver: w.Solver}
			w.Solver = count
			run(t, w, 1, nil)
			b.Vel = geom.V(3, 0, 0)
			if mu == 0.8 {
				// Thrown askew: two corners' bounds moved in turn, one
				// on solves 1 to 3 and 5, the other on 4 to 7, when each
				// counted its own moves.
				b.Vel, b.AngVel = geom.V(2.6, 0.3, -0.5), geom.V(0.2, -0.7, 0.5)
			}
			most, again := 0, 0
			for k := 0; k < 120*div; k++ {
				count.solves = 0
				if err := w.Step(h / float64(div)); err != nil {
					t.Fatal(err)
				}
				most = max(most, count.solves)
				again += count.solves - 1
			}
			t.Logf("μ = %.1f, h/%d: %d solves more than the %d steps", mu, div, again, 120*div)
			if most > 1+maxMoves {
				t.Errorf("μ = %.1f, h/%d: a step took %d solves, want at most %d", mu, div, most, 1+maxMoves)
			}
		}
	}
}

// A box dropped from 1 m onto the ground with a contact damping below a
// quarter step, which the step does not resolve: its normal rows, which
// only push, release it after each bounce (multibody.Row.Releases), so
// that it never comes back up faster than it fell, and rests within 3 s.
// At that damping alone (Υ = 0.97) it came back up faster than it fell.
func TestLightlyDampedContactGivesBackNoMore(t *testing.T) {
	w, b, cs := boxOnGround(t, 0.5, 1.25)
	for _, c := range cs {
		c.Damping = 0.01 * h
	}
	fell := math.Sqrt(2 * 9.81 * 1)
	fastest := 0.0
	run(t, w, 3, func() { fastest = max(fastest, b.Vel.Norm()) })
	t.Logf("fell at %.3g m/s; fastest %.3g m/s; at 3 s %.2g m/s, %.2g m deep", fell, fastest, b.Vel.Norm(), 0.25-b.Pos.Z)
	if fastest > 1.02*fell {
		t.Errorf("the box moved at up to %.3g m/s, faster than it fell onto the ground (%.3g m/s)", fastest, fell)
	}
	if v := b.Vel.Norm(); v > 1e-3 {
		t.Errorf("the box still moves at %.3g m/s after 3 s, want at rest", v)
	}
}
