package rigidcable

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// freeFold returns two free 2 m segments of the default rope in a world
// without gravity, joined by a bending joint folded by theta (rad) in the
// x–z plane: its unfolding (ωh = 0.1) is resolved by the step.
func freeFold(t *testing.T, theta float64) (*multibody.World, *Cable) {
	t.Helper()
	w := multibody.NewWorld(geom.Vec3{})
	w.Solver = &multibody.ActiveSet{Solver: &multibody.Chain{}}
	c, err := NewStraight(geom.V(0, 0, 0), geom.V(4, 0, 0), Options{Rope: material.DefaultSteelRope(), Segments: 2})
	if err != nil {
		t.Fatal(err)
	}
	// Turn the second segment about the joint (at x = 2) by theta.
	b := c.Segments[1]
	turn := geom.AxisAngle(geom.V(0, 1, 0), -theta)
	b.Rot = turn.Mul(b.Rot)
	b.Pos = geom.V(2, 0, 0).Add(turn.Rotate(b.Pos.Sub(geom.V(2, 0, 0))))
	c.AddTo(w)
	return w, c
}

// A joint folded by 60°, 120°, 150°, 170° and 179° between two free
// segments opens under its bending stiffness: at rest, it swings through
// straight (below 2°) and back, never folding further than it started
// (0.5°); its second segment turning across the bend plane about the
// joint (1 and 3 rad/s about m = d_A × n), the pair tumbles. Over 10 s,
// neither holds more than its starting energy, kinetic, bending and
// twisting, beyond the step's bounded oscillation (4 % at ωh = 0.12,
// measured 3.3 %; the ball joint's gap, a step's chord against the arc,
// is left out). The bend vector's rows along fixed axes, whose rate
// across the bend is θ cot θ times theirs, gained 6 to 1e5 times the
// energy from folds of 100° on, turning across.
func TestFoldedJointUnfolds(t *testing.T) {
	for _, deg := range []float64{60, 120, 150, 170, 179} {
		for _, across := range []float64{0, 1, 3} {
			w, c := freeFold(t, deg*math.Pi/180)
			j, b := c.Joints[0], c.Segments[1]
			turn := geom.V(0, 0, across) // m for the fold about −y
			b.AngVel, b.Vel = turn, turn.Cross(b.Pos.Sub(geom.V(2, 0, 0)))
			energy := func() float64 {
				theta := j.measureNow().theta
				return w.KineticEnergy() + 0.5*j.Bend*theta*theta + 0.5*j.Twist*j.unwound*j.unwound
			}
			e0, most := energy(), 0.0
			least, widest := math.Inf(1), 0.0
			for i := 0; i < 600; i++ {
				if err := w.Step(1.0 / 60); err != nil {
					t.Fatalf("%g°, turning across at %g rad/s: step %d: %v", deg, across, i, err)
				}
				most = math.Max(most, energy())
				least, widest = math.Min(least, j.BendAngle()), math.Max(widest, j.BendAngle())
			}
			name := fmt.Sprintf("folded %g°, turning across at %g rad/s", deg, across)
			t.Logf("%s: bent %.3g° to %.4g°; most energy %.4g J of %.4g J", name, least*180/math.Pi, widest*180/math.Pi, most, e0)
			if across == 0 && (least > 2*math.Pi/180 || widest > (deg+0.5)*math.Pi/180) {
				t.Errorf("%s: bent between %.3g° and %.4g°, want through straight (below 2°) and no further than %g°", name, least*180/math.Pi, widest*180/math.Pi, deg)
			}
			if most > 1.04*e0 {
				t.Errorf("%s: energy rose to %.4g J from %.4g J", name, most, e0)
			}
		}
	}
}

// The swing–twist decomposition's rate direction is its angle's exact
// gradient: over 2,000 random pairs of orientations bent up to twistFold,
// t·ω matches the angle's change over a turn of 1e-7 rad of either body
// to 1e-4 relative (eq. 22's rate along the mean axis does so only for
// small bends).
func TestSwingTwistRateExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	random := func() geom.Quat {
		return geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
	}
	tested := 0
	for trial := 0; trial < 2000; trial++ {
		a := multibody.NewBody("a", 1, geom.V(1, 1, 1), geom.Vec3{})
		b := multibody.NewBody("b", 1, geom.V(1, 1, 1), geom.V(1, 0, 0))
		j := NewJoint(a, geom.V(0.5, 0, 0), axis, b, geom.V(-0.5, 0, 0), axis, TwistSwing)
		a.Rot, b.Rot = random(), random()
		if j.measureNow().theta > twistFold {
			continue
		}
		tested++
		psi0, dir, ok := j.swing()
		if !ok {
			t.Fatalf("trial %d: no twist angle below the fold", trial)
		}
		for k, body := range []*multibody.Body{a, b} {
			w := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
			const dt = 1e-7
			rot := body.Rot
			body.Rot = geom.AxisAngle(w.Scale(1/w.Norm()), w.Norm()*dt).Mul(rot).Normalize()
			psi1, _, _ := j.swing()
			body.Rot = rot
			numeric := remainder2Pi(psi1-psi0) / dt
			rate := dir.Dot(w)
			if k == 0 {
				rate = -rate
			}
			if d := math.Abs(numeric - rate); d > 1e-4*(1+math.Abs(rate)) {
				t.Fatalf("trial %d, body %d: the twist changes at %.6g rad/s, its row says %.6g", trial, k, numeric, rate)
			}
		}
	}
	if tested < 1000 {
		t.Fatalf("only %d pairs below the fold", tested)
	}
}

// A rope of 10 segments pinned at both ends, without gravity, pushed 0.2 m
// shorter at 0.1 m/s from its top, buckles sideways instead of shortening
// (its joints stay closed, gaps below 1 mm) and, held there 20 s, bows
// out over the last 10 s on average as a pinned column's half sine of
// its length does, a = 2√(L δ)/π for a shortening δ, within 5 %
// (measured −0.5 %), pushing its ends on average with the Euler load
// π²EI/L² within 20 % (measured −10 %: the buckled rope still rings).
func TestPushedRopeBuckles(t *testing.T) {
	const (
		length = 10.0
		push   = 0.2
		speed  = 0.1
		h      = 1.0 / 60
	)
	w := multibody.NewWorld(geom.Vec3{})
	w.Solver = &multibody.ActiveSet{Solver: &multibody.Chain{}}
	top := geom.V(0, 0, length)
	c, err := NewStraight(top, geom.Vec3{}, Options{Rope: damped(material.DefaultSteelRope(), 0.05), Segments: 10})
	if err != nil {
		t.Fatal(err)
	}
	upper := w.AddBody(multibody.NewKinematic("upper", top))
	lower := w.AddBody(multibody.NewStatic("lower", geom.Vec3{}))
	c.AttachStart(upper, geom.Vec3{}, geom.V(0, 0, -1), Pinned)
	c.AttachEnd(lower, geom.Vec3{}, geom.V(0, 0, -1), Pinned)
	c.AddTo(w)
	gap, bow, pushing, n := 0.0, 0.0, 0.0, 0
	steps := int(math.Round((push/speed + 20) / h))
	for i := 0; i < steps; i++ {
		upper.Vel = geom.Vec3{}
		if float64(i)*h < push/speed {
			upper.Vel = geom.V(0, 0, -speed)
		}
		if err := w.Step(h); err != nil {
			t.Fatal(err)
		}
		for _, j := range c.Joints {
			a, b := j.bodies[0], j.bodies[1]
			gap = math.Max(gap, a.PointWorld(j.pointA).Sub(b.PointWorld(j.pointB)).Norm())
		}
		if i < steps-int(10/h) {
			continue
		}
		most := 0.0
		for _, s := range c.Segments {
			for _, x := range []float64{-c.SegmentLength / 2, c.SegmentLength / 2} {
				p := s.PointWorld(geom.Vec3{X: x})
				most = math.Max(most, math.Hypot(p.X, p.Y))
			}
		}
		bow += most
		pushing -= c.Joints[0].Force()
		n++
	}
	bow, pushing = bow/float64(n), pushing/float64(n)
	want := 2 * math.Sqrt((length-push)*push) / math.Pi
	euler := math.Pi * math.Pi * material.DefaultSteelRope().Bending() / (length * length)
	t.Logf("pushed %.2f m: joints open by %.3g mm at most; over the last 10 s bowed out %.3f m (half sine %.3f m, %+.1f %%), pushing %.2f N (Euler load %.2f N, %+.1f %%)",
		push, gap*1e3, bow, want, 100*(bow/want-1), pushing, euler, 100*(pushing/euler-1))
	if gap > 1e-3 {
		t.Errorf("joints open by %.3g m, want below 1 mm: the rope shortened instead of buckling", gap)
	}
	if math.Abs(bow/want-1) > 0.05 {
		t.Errorf("bowed out %.3f m, want the half sine's %.3f m within 5 %%", bow, want)
	}
	if math.Abs(pushing/euler-1) > 0.2 {
		t.Errorf("the buckled rope pushes %.2f N, want the Euler load %.2f N within 20 %%", pushing, euler)
	}
}

// Table II's thin ropes ([SL08] §VII-B: Y = 200 GPa, N_C = 24, β = 1e7 stable
// to mass ratio 10, β = 1e6 to 1e2) with the default settings (the
// swing–twist, the turning taken into the step where it needs it): every
// run lasts the 60 s, its energy's last peak is not above its first (1 %),
// and once the anchor's jerk has passed (from 10 s) the joints open by
// less than 5 % of a segment. These ropes have almost no bending
// stiffness, and the jerk (1 m in 0.1 s) whips them: their light segments
// turn at up to 30 rad/s and their joints open by up to 30 % of a segment
// in the first seconds (logged).
func TestTableIIThinRopes(t *testing.T) {
	for _, c := range []struct{ beta, ratio float64 }{{1e7, 1}, {1e7, 10}, {1e6, 1}, {1e6, 10}, {1e6, 100}} {
		name := fmt.Sprintf("β = %g, ratio %g", c.beta, c.ratio)
		s := newHangingCable(t, PaperSquare(200e9, 0.3, 12/c.beta, 0), 24, c.ratio, TwistSwing, &multibody.ActiveSet{Solver: &multibody.Chain{}})
		whip, settled, growth, spin, err := thinRun(s)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		t.Logf("%s: joints open by %.3g l in the jerk, %.3g l from 10 s; energy's last peak %+.3g of its first; segments turn at up to %.3g rad/s", name, whip, settled, growth, spin)
		if settled > 0.05 || growth > 0.01 {
			t.Errorf("%s: joints open by %.3g l from 10 s, energy growth %.3g: want below 5 %% and 1 %%", name, settled, growth)
		}
	}
}

// thinRun is runStability's experiment with the joints' opening split at
// 10 s: before (whip) and after (settled).
func thinRun(s *hangingCable) (whip, settled, growth, spin float64, err error) {
	gapOf := func(j *Joint) float64 {
		a, b := j.bodies[0], j.bodies[1]
		return a.PointWorld(j.pointA).Sub(b.PointWorld(j.pointB)).Norm()
	}
	const h = 1.0 / 60
	energy := func() float64 { return s.world.KineticEnergy() + s.world.GravityEnergy() + s.world.ElasticEnergy() }
	for i := 0; i < 60; i++ {
		if err := s.world.Step(h); err != nil {
			return 0, 0, 0, 0, err
		}
	}
	rest := energy()
	static := make([]float64, len(s.cable.Joints))
	for k, j := range s.cable.Joints {
		static[k] = gapOf(j)
	}
	early, late := 0.0, 0.0
	for i := 0; i < int(60/h); i++ {
		s.anchor.Vel = geom.Vec3{}
		if i < 6 {
			s.anchor.Vel = geom.V(10, 0, 0)
		}
		if err := s.world.Step(h); err != nil {
			return whip, settled, growth, spin, err
		}
		tm := float64(i+1) * h
		if tm < 1 {
			continue
		}
		e := energy() - rest
		if tm <= 11 {
			early = math.Max(early, e)
		}
		if tm > 50 {
			late = math.Max(late, e)
		}
		for k, j := range s.cable.Joints {
			g := math.Abs(gapOf(j)-static[k]) / s.cable.SegmentLength
			if tm < 10 {
				whip = math.Max(whip, g)
			} else {
				settled = math.Max(settled, g)
			}
		}
		for _, b := range s.cable.Segments {
			if b != s.heavy {
				spin = math.Max(spin, b.AngVel.Norm())
			}
		}
	}
	return whip, settled, late/early - 1, spin, nil
}
