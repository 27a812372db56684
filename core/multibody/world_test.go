package multibody

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
)

// rod keeps a body's centre at distance L from a fixed anchor: g = |x−a| − L.
type rod struct {
	body       *Body
	anchor     geom.Vec3
	length     float64
	compliance float64
	hi         float64
	gap        bool    // Row.Gap while slack
	damping    float64 // Row.Damping; 0 is 2h
	lambda     float64
}

func (r *rod) Bodies() []*Body { return []*Body{r.body} }
func (r *rod) Rows() int       { return 1 }
func (r *rod) Update(h float64, rows []Row) {
	n, l := r.body.Pos.Sub(r.anchor).Unit()
	rows[0].J[0].Lin = n
	rows[0].Violation = l - r.length
	rows[0].Compliance = r.compliance
	rows[0].Damping = 2 * h
	if r.damping > 0 {
		rows[0].Damping = r.damping
	}
	rows[0].Hi = r.hi
	rows[0].Gap = r.gap && l < r.length
}
func (r *rod) Apply(h float64, lambda []float64) { r.lambda = lambda[0] }

// The sign convention of the stepper, pinned on one rigid pendulum
// (ε = 0): released at 10°, it keeps its length to 1e-4 L (SPOOK does not
// project positions: the gap left by the curved constraint is of order
// h²v²/L and is relaxed within a few steps), swings with the
// period 2π√(L/g)(1+θ²/16) within 0.5 %, and the rod pulls (λ < 0) with the
// centripetal + gravity force at the bottom within 1 %.
func TestRigidPendulumPinsSigns(t *testing.T) {
	const L, g, h = 2.0, 9.81, 1.0 / 60
	theta := 10 * math.Pi / 180
	w := NewWorld(geom.V(0, 0, -g))
	b := w.AddBody(NewBody("bob", 3, BoxInertia(3, 0.1, 0.1, 0.1), geom.V(L*math.Sin(theta), 0, -L*math.Cos(theta))))
	r := &rod{body: b, length: L, hi: math.Inf(1)}
	w.AddConstraint(r)
	var x []float64
	maxGap, maxPull := 0.0, 0.0
	for i := 0; i < int(20/h); i++ {
		if err := w.Step(h); err != nil {
			t.Fatal(err)
		}
		x = append(x, b.Pos.X)
		maxGap = math.Max(maxGap, math.Abs(b.Pos.Norm()-L))
		maxPull = math.Max(maxPull, -r.lambda/h)
	}
	if maxGap > 1e-4*L {
		t.Errorf("rigid rod length error %.2e m, want below 1e-4 L = %.1e m", maxGap, 1e-4*L)
	}
	var up []float64
	for i := 1; i < len(x); i++ {
		if x[i-1] < 0 && x[i] >= 0 {
			up = append(up, h*(float64(i-1)+x[i-1]/(x[i-1]-x[i])))
		}
	}
	period := (up[len(up)-1] - up[0]) / float64(len(up)-1)
	want := 2 * math.Pi * math.Sqrt(L/g) * (1 + theta*theta/16)
	if math.Abs(period/want-1) > 0.005 {
		t.Errorf("period %.4f s, want %.4f s within 0.5 %%", period, want)
	}
	// Energy: v² at the bottom = 2gL(1−cos θ); tension = m g + m v²/L.
	pull := 3 * (g + 2*g*(1-math.Cos(theta)))
	if math.Abs(maxPull/pull-1) > 0.01 {
		t.Errorf("max rod force %.3f N, want %.3f N within 1 %%", maxPull, pull)
	}
}

// A compliant rod of stiffness k hanging a mass m settles at the
// elongation mg/k (within 0.1 %): Σ and Υ carry the compliance right.
func TestCompliantRowStaticElongation(t *testing.T) {
	const k, m, g, h = 1e5, 50.0, 9.81, 0.01
	w := NewWorld(geom.V(0, 0, -g))
	b := w.AddBody(NewBody("bob", m, BoxInertia(m, 0.1, 0.1, 0.1), geom.V(0, 0, -1)))
	w.AddConstraint(&rod{body: b, length: 1, compliance: 1 / k, hi: math.Inf(1)})
	for i := 0; i < 500; i++ {
		if err := w.Step(h); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := -b.Pos.Z-1, m*g/k; math.Abs(got/want-1) > 1e-3 {
		t.Errorf("elongation %.6g m, want mg/k = %.6g m within 0.1 %%", got, want)
	}
}

// A row bounded to pulling (Hi = 0) lets a body thrown inward fly free:
// the active set clamps the impulse at zero instead of pushing.
func TestBoundedRowNeverPushes(t *testing.T) {
	w := NewWorld(geom.Vec3{})
	b := w.AddBody(NewBody("bob", 1, BoxInertia(1, 0.1, 0.1, 0.1), geom.V(1, 0, 0)))
	r := &rod{body: b, length: 1, hi: 0}
	w.AddConstraint(r)
	b.Vel = geom.V(-1, 0, 0)
	for i := 0; i < 30; i++ {
		if err := w.Step(0.01); err != nil {
			t.Fatal(err)
		}
		if r.lambda > 0 {
			t.Fatalf("step %d: impulse %.3g N·s > 0: the row pushed", i, r.lambda)
		}
	}
	if math.Abs(b.Vel.X+1) > 1e-12 || math.Abs(b.Pos.X-0.7) > 1e-9 {
		t.Errorf("body at %.6f m moving %.6f m/s, want free flight to 0.7 m at −1 m/s", b.Pos.X, b.Vel.X)
	}
}

// TestSlackRowTautensAtItsLength: a 1 kg bob on a slack string of 1 m
// (stiffness 1e7 N/m, which 1/60 s does not resolve; damping time 1 ms,
// a steel rope's) falls from 0.47 m
// below its anchor and is caught: with Row.Gap the string is never
// longer after a step than its length plus the catch's stretch
// (√(2mgΔz/k) ≈ 1 mm; 2 mm allowed); SPOOK's stabilization on the slack
// row alone, which the row's bound lets act only once the string is
// stretched, leaves it several centimetres long (the gap closed by up to
// four times itself in the step it tautens).
func TestSlackRowTautensAtItsLength(t *testing.T) {
	const h = 1.0 / 60
	for _, gap := range []bool{true, false} {
		w := NewWorld(geom.V(0, 0, -9.81))
		b := w.AddBody(NewBody("bob", 1, BoxInertia(1, 0.01, 0.01, 0.01), geom.V(0, 0, -0.47)))
		r := &rod{body: b, length: 1, compliance: 1e-7, hi: 0, gap: gap, damping: 1e-3}
		w.AddConstraint(r)
		longest := 0.0
		for i := 0; i < 120; i++ {
			if err := w.Step(h); err != nil {
				t.Fatal(err)
			}
			longest = max(longest, b.Pos.Norm())
		}
		t.Logf("gap %v: the string at most %.4f m long", gap, longest)
		switch {
		case gap && longest > 1.002:
			t.Errorf("with Row.Gap the string reached %.4f m, want at most 1.002 m", longest)
		case !gap && longest < 1.01:
			t.Errorf("without Row.Gap the string reached only %.4f m: the test shows nothing", longest)
		}
	}
}

func TestStepRejectsBadStepSizes(t *testing.T) {
	w := NewWorld(geom.Vec3{})
	for _, h := range []float64{0, -1, math.NaN(), math.Inf(1)} {
		if err := w.Step(h); err == nil {
			t.Errorf("Step(%g) accepted", h)
		}
	}
}

// heldTwice holds a body's height by two rigid rows (dependent: S is
// singular) that disagree by apart (m; none meet both unless it is 0), and
// its x by a row of compliance soft.
type heldTwice struct {
	body        *Body
	apart, soft float64
}

func (c *heldTwice) Bodies() []*Body          { return []*Body{c.body} }
func (c *heldTwice) Rows() int                { return 3 }
func (c *heldTwice) Apply(float64, []float64) {}
func (c *heldTwice) Update(h float64, rows []Row) {
	for i := range 2 {
		rows[i].J[0].Lin = geom.V(0, 0, 1)
		rows[i].SetHolonomic(c.body.Pos.Z-c.apart*float64(i), 0, 0, 0, 0, 0)
	}
	rows[2].J[0].Lin = geom.V(1, 0, 0)
	rows[2].SetHolonomic(0, c.soft, 0, 0, 0, 0)
}

// Dependent rigid rows beside a row of huge or infinite compliance (a rope
// of EI = 1e-9 N·m², or a perfectly flexible one) hold their body. The
// dense solver regularizes such rows each by a tiny share of its own
// diagonal: as a share of the largest diagonal, a soft row beside them
// softened them by its size, and with an infinite one no row took any
// impulse and the body fell freely, without an error. The sparse solver
// refines its perturbed pivots against the true matrix: there the
// infinite row's product ∞·0 made the residual NaN and failed the step.
func TestDependentRowsBesideSoftRowsAreHeld(t *testing.T) {
	const h = 1.0 / 60
	for _, solver := range []func() Solver{func() Solver { return &Dense{} }, func() Solver { return &Sparse{} }} {
		for _, soft := range []float64{1e-3, 1e9, math.Inf(1)} {
			w := NewWorld(geom.V(0, 0, -9.81))
			w.Solver = solver()
			b := w.AddBody(NewParticle("held", 1, geom.Vec3{}))
			w.AddConstraint(&heldTwice{body: b, soft: soft})
			for range 60 {
				if err := w.Step(h); err != nil {
					t.Fatalf("%T, compliance %g: %v", w.Solver, soft, err)
				}
			}
			if math.Abs(b.Pos.Z) > 1e-6 || math.Abs(b.Vel.Z) > 1e-6 {
				t.Errorf("%T, compliance %g beside the dependent rows: after 1 s the body at z = %.3g m moving at %.3g m/s, want held at 0", w.Solver, soft, b.Pos.Z, b.Vel.Z)
			}
		}
	}
}

// The dense solver's last resort, projected Gauss–Seidel, takes a row of
// infinite diagonal (infinite compliance) as holding no impulse, the
// limit of its update, where the update's residual gave ∞·0.
func TestProjectedGaussSeidelTakesInfiniteRows(t *testing.T) {
	inf := math.Inf(1)
	d := &Dense{s: []float64{inf, 1, 1, 2}}
	p := &Problem{B: []float64{1, 2}, Lo: []float64{-inf, -inf}, Hi: []float64{inf, inf}, Lambda: []float64{0, 0}}
	p.Rows = make([]ProblemRow, 2)
	if err := d.projectedGaussSeidel(p); err != nil {
		t.Fatal(err)
	}
	if p.Lambda[0] != 0 || math.Abs(p.Lambda[1]-1) > 1e-9 {
		t.Errorf("λ = %v, want [0 1]: the infinite row holds none, the other B/S = 1", p.Lambda)
	}
}

// The sparse solver refines perturbed pivots until the residual is at
// rounding or the refinement has settled (Sparse.refine): dependent rows
// that agree (two identical rigid rows, on bodies of 1e-4 to 1e4 kg) are
// solved, rows that disagree, by 0.1 m down to 1e-10 m, are refused,
// saying so (they drive their impulses apart without end).
func TestSparseRefinementTellsDependentFromInconsistentRows(t *testing.T) {
	const h = 1.0 / 60
	for _, mass := range []float64{1e-4, 1, 1e4} {
		w := NewWorld(geom.V(0, 0, -9.81))
		w.Solver = &Sparse{}
		b := w.AddBody(NewParticle("held", mass, geom.Vec3{}))
		w.AddConstraint(&heldTwice{body: b, soft: 1e-3})
		if err := w.Step(h); err != nil {
			t.Errorf("mass %g kg held by two identical rows: %v", mass, err)
		}
		for _, apart := range []float64{0.1, 1e-6, 1e-10} {
			w = NewWorld(geom.V(0, 0, -9.81))
			w.Solver = &Sparse{}
			b = w.AddBody(NewParticle("held", mass, geom.Vec3{}))
			w.AddConstraint(&heldTwice{body: b, apart: apart, soft: 1e-3})
			if err := w.Step(h); err == nil || !strings.Contains(err.Error(), "refinement leaves a residual") {
				t.Errorf("mass %g kg held at two heights %g m apart by rigid rows: error %v, want the refinement's residual", mass, apart, err)
			}
		}
	}
}

// fixedRow is a rigid row between two bodies none of which is dynamic,
// violated by gap (m): nothing can close it.
type fixedRow struct {
	a, b *Body
	gap  float64
}

func (c *fixedRow) Bodies() []*Body          { return []*Body{c.a, c.b} }
func (c *fixedRow) Rows() int                { return 1 }
func (c *fixedRow) Apply(float64, []float64) {}
func (c *fixedRow) Update(h float64, rows []Row) {
	rows[0].J[0].Lin, rows[0].J[1].Lin = geom.V(0, 0, 1), geom.V(0, 0, -1)
	rows[0].SetHolonomic(c.gap, 0, 0, 0, 0, 0)
}

// A rigid row on no dynamic body holds no impulse in the dense solver
// beside dependent rows (whose singular S makes it regularize): a share of
// the other rows' diagonals made its 1 mm gap a pull of 9.4e9 N on the
// kinematic body it acts on (1.4e11 N beside a row of infinite
// compliance).
func TestDenseRowOnNoDynamicBodyHoldsNothing(t *testing.T) {
	const h = 1.0 / 60
	for _, soft := range []float64{1e-3, math.Inf(1)} {
		w := NewWorld(geom.V(0, 0, -9.81))
		w.Solver = &Dense{}
		b := w.AddBody(NewParticle("held", 1, geom.Vec3{}))
		ground := w.AddBody(NewStatic("ground", geom.V(0, 0, -1)))
		hook := w.AddBody(NewKinematic("hook", geom.V(0, 0, 5)))
		w.AddConstraint(&heldTwice{body: b, soft: soft})
		w.AddConstraint(&fixedRow{a: hook, b: ground, gap: 1e-3})
		if err := w.Step(h); err != nil {
			t.Fatalf("compliance %g: %v", soft, err)
		}
		if f := hook.ConstraintForce; f != (geom.Vec3{}) || math.Abs(b.Vel.Z) > 1e-9 {
			t.Errorf("compliance %g: the fixed row pulls the hook with %v N, the held body moves at %.3g m/s; want none and held", soft, f, b.Vel.Z)
		}
	}
}

// readDenseCase reads a bounded problem from testdata: a comment line, the
// row count n, S row by row, then B, Lo and Hi.
func readDenseCase(t *testing.T, name string) (*Dense, *Problem) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")[1:]
	n, err := strconv.Atoi(lines[0])
	if err != nil || len(lines) != 1+n+3 {
		t.Fatalf("%s: %d lines for %q rows", name, len(lines), lines[0])
	}
	numbers := func(line string) []float64 {
		var v []float64
		for _, f := range strings.Fields(line) {
			x, err := strconv.ParseFloat(f, 64)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			v = append(v, x)
		}
		if len(v) != n {
			t.Fatalf("%s: a line of %d numbers, want %d", name, len(v), n)
		}
		return v
	}
	d := &Dense{state: make([]bound, n), a: make([]float64, n*n), rhs: make([]float64, n)}
	for i := range n {
		d.s = append(d.s, numbers(lines[1+i])...)
	}
	p := &Problem{Rows: make([]ProblemRow, n), B: numbers(lines[1+n]), Lo: numbers(lines[2+n]), Hi: numbers(lines[3+n]), Lambda: make([]float64, n)}
	return d, p
}

// Three bounded problems of a 1 mg box, taken from RigidHoist runs where
// the dense solver failed: the box's four corners on the ground (twelve
// rows of rank six), once where their rows factored into impulses that
// cancel and once where a row held at its bound with a residual of
// rounding (−6e-11 of terms of 20) was released, came out beyond the bound
// and was clamped again, for ever; and a segment's two contact points on
// the box a hair apart, whose rows factored into opposite impulses of
// hundreds of times their bounds, on which the pivoting cycled. Each
// ended in projected Gauss–Seidel, which did not converge in its 10000
// sweeps. They are solved now: every impulse within its bounds, every
// row's residual within 1e-8 of its terms (free rows near zero, rows at a
// bound pointing out of it). Without the release tolerance the second
// fails, without taking rows dependent to within 1e-10 as dependent the
// third, without both the first.
func TestDensePivotingSettlesDegenerateContacts(t *testing.T) {
	for _, name := range []string{"dense-box-corners.txt", "dense-box-corners-rounding.txt", "dense-capsule-on-box.txt"} {
		d, p := readDenseCase(t, name)
		if err := d.solveSchur(p); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for i, l := range p.Lambda {
			r, scale := d.residualAndScale(p, i)
			switch {
			case l < p.Lo[i] || l > p.Hi[i]:
				t.Errorf("%s: row %d's impulse %g outside [%g, %g]", name, i, l, p.Lo[i], p.Hi[i])
			case l > p.Lo[i] && l < p.Hi[i] && math.Abs(r) > 1e-8*scale,
				l == p.Lo[i] && r < -1e-8*scale, l == p.Hi[i] && r > 1e-8*scale:
				t.Errorf("%s: row %d at impulse %g in [%g, %g] has a residual of %.3g, its terms %.3g", name, i, l, p.Lo[i], p.Hi[i], r, scale)
			}
		}
	}
}

// A step whose rows are not finite (a rod of NaN length standing in for a
// geometry that degenerated) fails naming the row's constraint and body,
// not the consequence: a solve's residual of NaN, a body at NaN.
func TestNonFiniteRowNamesItsConstraint(t *testing.T) {
	for _, solver := range []func() Solver{func() Solver { return &Dense{} }, func() Solver { return &Sparse{} }} {
		w := NewWorld(geom.V(0, 0, -9.81))
		w.Solver = solver()
		b := w.AddBody(NewParticle("bob", 1, geom.V(1, 0, 0)))
		w.AddConstraint(&rod{body: b, length: 1, hi: math.Inf(1)})
		w.AddConstraint(&rod{body: b, anchor: geom.V(0, 1, 0), length: math.NaN(), hi: math.Inf(1)})
		err := w.Step(1.0 / 60)
		if err == nil || !strings.Contains(err.Error(), `row 0 of the *multibody.rod on "bob" is not finite`) || !errors.Is(err, ErrDiverged) {
			t.Errorf("%T: %v, want the rod's row named as not finite, diverged", w.Solver, err)
		}
	}
}

// Where projected Gauss–Seidel gives up, its error says the residual it
// left among the rows it solves: on the box's corners with a switched-off
// row (pinned to zero, right-hand side 5) beside them, about 1e-6 of the
// rows' terms, where counting the pinned row made it 1.
func TestProjectedGaussSeidelErrorLeavesPinnedRowsOut(t *testing.T) {
	d, p := readDenseCase(t, "dense-box-corners.txt")
	n := len(p.Rows)
	s := make([]float64, (n+1)*(n+1))
	for i := range n {
		copy(s[i*(n+1):], d.s[i*n:(i+1)*n])
	}
	s[n*(n+1)+n] = 1
	d.s = s
	p.Rows = append(p.Rows, ProblemRow{})
	p.B, p.Lo, p.Hi, p.Lambda = append(p.B, 5), append(p.Lo, 0), append(p.Hi, 0), append(p.Lambda, 0)
	err := d.projectedGaussSeidel(p)
	if err == nil {
		t.Fatal("projected Gauss-Seidel converged: the test needs a problem it gives up on")
	}
	var left float64
	if _, e := fmt.Sscanf(err.Error()[strings.Index(err.Error(), "a residual of "):], "a residual of %g", &left); e != nil || !(left < 1e-3) {
		t.Errorf("%v: want a residual of the solved rows (about 1e-6)", err)
	}
}
