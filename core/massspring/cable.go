package massspring

import (
	"errors"
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/core/state"
)

// Solver names how a step's linear system is solved.
type Solver int

const (
	// Direct factors the block pentadiagonal matrix by a banded Cholesky
	// factorization (exact up to rounding).
	Direct Solver = iota
	// CG runs conjugate gradients on it, a given number of iterations per
	// rebuild at most ([LS01] §5.3).
	CG
)

func (s Solver) String() string {
	switch s {
	case Direct:
		return "direct"
	case CG:
		return "cg"
	}
	return fmt.Sprintf("Solver(%d)", int(s))
}

// PerMass is a cable's stiffnesses per mass of a point, as [LS01] Fig. 5
// gives them: k_L/m (1/s²), k_D/m (1/s) and k_B/m (m²/s²·rad⁻¹), m the
// mass of an inner point.
type PerMass struct {
	KL, KD, KB float64
}

// Fig5 holds the three materials of [LS01] Figs. 4–5 by segment count:
// 12, 20 and 42 segments, step 0.01 s, 10 rebuilds.
var Fig5 = map[int]PerMass{
	12: {KL: 6e3, KD: 6, KB: 3e3},
	20: {KL: 1e4, KD: 12, KB: 1.25e3},
	42: {KL: 2.1e4, KD: 21, KB: 2.625e2},
}

// Spec describes a cable laid straight from its top point.
type Spec struct {
	// Top is the first point's position (m); Dir the direction the cable
	// is laid in from it (normalized here). The first point is held: it
	// moves only with the velocity Step is given (the crane's sheave).
	Top, Dir geom.Vec3
	// Clamped holds the cable's direction at the top as well (a torsion
	// spring against Dir there): a cantilever. Otherwise the cable turns
	// freely about its top point.
	Clamped bool
	// Length is the rest length L (m), cut into Segments equal segments.
	Length   float64
	Segments int
	// Rope gives the mass per length (kg/m), the axial stiffness EA (N),
	// the bending stiffness EI (N·m²) and the Kelvin–Voigt damping time τ
	// (s): each linear spring has k_L = EA/l and k_D = τ EA/l, each
	// torsion spring k_B = EI/l (the moment EI κ with the curvature
	// κ = φ/l).
	Rope material.Rope
	// PerMass, when set, gives the stiffnesses per mass of a point instead
	// ([LS01] Fig. 5); the rope then gives only the mass.
	PerMass *PerMass
	// Load is a point mass (kg) at the last point.
	Load float64
	// Gravity (m/s²).
	Gravity geom.Vec3
	// Solver, and Rebuilds: how many times a step builds and solves the
	// system (the first is eq. 5, each further one a Newton step at the
	// new positions and velocities; default 1 with Direct, the paper's 10
	// with CG). CGIterations bounds CG's iterations per rebuild (default
	// 3 × the unknowns) and CGTolerance is the relative residual at which
	// it stops (default 1e-10).
	Solver       Solver
	Rebuilds     int
	CGIterations int
	CGTolerance  float64
}

// Cable is a mass–spring cable: points 0 (top, held) to N.
type Cable struct {
	// X and V are the points' positions (m) and velocities (m/s).
	X, V []geom.Vec3
	// Mass of each point (kg); the top's is carried by the crane.
	Mass []float64
	// Rest is each segment's rest length l (m); KL (N/m), KD (N·s/m) and
	// KB (N·m/rad) the stiffness and damping of the linear springs and the
	// stiffness of the torsion springs.
	Rest, KL, KD, KB float64

	spec Spec
	// dir is the clamp's direction (unit).
	dir geom.Vec3
	// Stats of the last step.
	Stats Stats
	// TopForce is the force (N) the cable exerted on the crane over the
	// last step: its springs' pull on the top point at the step's end,
	// the top point's weight and its inertia.
	TopForce geom.Vec3
	// LoadForce is an external force (N) on the last point (the load)
	// during the coming steps, besides gravity: a wind's drag. Whoever
	// sets it clears it.
	LoadForce geom.Vec3

	sys system
}

// Stats reports what the last step's solves did.
type Stats struct {
	// Rebuilds done and CG iterations summed over them.
	Rebuilds, Iterations int
	// Residual is CG's last relative residual (0 with Direct).
	Residual float64
}

// New lays a cable out straight from spec.Top along spec.Dir, at rest.
func New(spec Spec) (*Cable, error) {
	if err := spec.validate(); err != nil {
		return nil, err
	}
	dir, _ := spec.Dir.Unit()
	n := spec.Segments
	c := &Cable{spec: spec, dir: dir, X: make([]geom.Vec3, n+1), V: make([]geom.Vec3, n+1), Mass: make([]float64, n+1)}
	c.setLength(spec.Length)
	for i := range c.X {
		c.X[i] = spec.Top.AddScaled(c.Rest*float64(i), dir)
	}
	c.sys.init(n)
	return c, nil
}

func (s *Spec) validate() error {
	var errs []error
	add := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	finite := func(v geom.Vec3) bool { return v.IsFinite() }
	if !finite(s.Top) || !finite(s.Gravity) {
		add("top %v m and gravity %v m/s²: must be finite", s.Top, s.Gravity)
	}
	if d := s.Dir.Norm(); !(d > 0) || math.IsInf(d, 0) {
		add("direction %v: must be a finite nonzero vector", s.Dir)
	}
	if !(s.Length > 0) || math.IsInf(s.Length, 0) {
		add("length %g m: must be positive and finite", s.Length)
	}
	if s.Segments < 2 || s.Segments > 100000 {
		add("segments %d: want 2 to 100000", s.Segments)
	}
	if mu := s.Rope.LinearDensity(); !(mu > 0) || math.IsInf(mu, 0) {
		add("linear density %g kg/m: must be positive and finite (the points need mass)", mu)
	}
	if p := s.PerMass; p != nil {
		if !(p.KL > 0 && p.KD >= 0 && p.KB >= 0) || math.IsInf(p.KL+p.KD+p.KB, 0) {
			add("per-mass stiffnesses k_L/m %g, k_D/m %g, k_B/m %g: k_L/m must be positive, the others non-negative, all finite", p.KL, p.KD, p.KB)
		}
	} else if err := s.Rope.Validate(); err != nil {
		add("%v", err)
	}
	if !(s.Load >= 0) || math.IsInf(s.Load, 0) {
		add("load %g kg: must be non-negative and finite", s.Load)
	}
	if s.Solver != Direct && s.Solver != CG {
		add("solver %v: want direct or cg", s.Solver)
	}
	if s.Rebuilds < 0 || s.CGIterations < 0 || !(s.CGTolerance >= 0 && s.CGTolerance < 1) {
		add("rebuilds %d, CG iterations %d, CG tolerance %g: must be non-negative (the tolerance below 1)", s.Rebuilds, s.CGIterations, s.CGTolerance)
	}
	return errors.Join(errs...)
}

// Length returns the cable's rest length L (m).
func (c *Cable) Length() float64 { return c.Rest * float64(len(c.X)-1) }

// SetLength pays the cable out or in to rest length L (m), spread evenly
// over its segments (a winch on the rest lengths): the segments' rest
// length, the points' masses and the springs' stiffnesses follow L, the
// points keep their positions and velocities.
func (c *Cable) SetLength(L float64) error {
	if !(L > 0) || math.IsInf(L, 0) {
		return fmt.Errorf("cable length %g m: must be positive and finite", L)
	}
	c.setLength(L)
	return nil
}

// SetRest sets every segment's rest length l (m) as SetLength does: a
// saved state restores l itself, bitwise.
func (c *Cable) SetRest(l float64) error {
	if !(l > 0) || math.IsInf(l, 0) {
		return fmt.Errorf("segment rest length %g m: must be positive and finite", l)
	}
	c.setRest(l)
	return nil
}

func (c *Cable) setLength(L float64) { c.setRest(L / float64(len(c.Mass)-1)) }

func (c *Cable) setRest(l float64) {
	s := &c.spec
	n := len(c.Mass) - 1
	m := s.Rope.LinearDensity() * l
	for i := range c.Mass {
		c.Mass[i] = m
	}
	c.Mass[0], c.Mass[n] = m/2, m/2+s.Load
	c.Rest = l
	if p := s.PerMass; p != nil {
		c.KL, c.KD, c.KB = p.KL*m, p.KD*m, p.KB*m
		return
	}
	ea := s.Rope.AxialStiffness()
	c.KL, c.KD, c.KB = ea/l, s.Rope.DampingTime*ea/l, s.Rope.Bending()/l
}

// Hang stretches a cable laid straight down (Dir along gravity) into its
// static equilibrium: each segment by the weight it carries over k_L; the
// crane then carries the whole weight (TopForce).
func (c *Cable) Hang() error {
	g := c.spec.Gravity
	gn := g.Norm()
	if gn == 0 || c.dir.Sub(g.Scale(1/gn)).Norm() > 1e-12 {
		return fmt.Errorf("hang: the cable is not laid along gravity")
	}
	below := 0.0
	for i := 1; i < len(c.Mass); i++ {
		below += c.Mass[i]
	}
	x := c.X[0]
	for i := 1; i < len(c.X); i++ {
		x = x.AddScaled(c.Rest+below*gn/c.KL, c.dir)
		c.X[i] = x
		below -= c.Mass[i]
	}
	total := 0.0
	for _, m := range c.Mass {
		total += m
	}
	c.TopForce = g.Scale(total)
	return nil
}

// Tension returns the axial force (N) of segment k (0: at the top) with
// its damping: k_L (|d| − l) + k_D u·(v_{k+1} − v_k).
func (c *Cable) Tension(k int) float64 {
	u, d := c.X[k+1].Sub(c.X[k]).Unit()
	return c.KL*(d-c.Rest) + c.KD*u.Dot(c.V[k+1].Sub(c.V[k]))
}

// Energy returns the kinetic, gravitational (zero at the origin) and
// elastic energy (J) of the points, the top's included.
func (c *Cable) Energy() (kinetic, gravity, elastic float64) {
	for i, x := range c.X {
		kinetic += 0.5 * c.Mass[i] * c.V[i].Dot(c.V[i])
		gravity -= c.Mass[i] * c.spec.Gravity.Dot(x)
	}
	for k := 0; k+1 < len(c.X); k++ {
		e := c.X[k+1].Sub(c.X[k]).Norm() - c.Rest
		elastic += 0.5 * c.KL * e * e
	}
	for i := 0; i+1 < len(c.X); i++ {
		if i == 0 && !c.spec.Clamped {
			continue
		}
		b, err := newBend(c.bendStiffness(i), c.X[i+1].Sub(c.X[i]), c.behind(c.X, i))
		if err == nil {
			elastic += b.energy
		}
	}
	return kinetic, gravity, elastic
}

// bendStiffness returns the torsion spring's stiffness at point i
// (N·m/rad): k_B, but twice that at a clamped top. A point's spring
// stands for the curvature over the half segments on either side of it;
// the clamp has only the half segment below it, and with k_B there the
// cantilever's deflection, a sum of the springs' angles, is the left
// Riemann sum of ∫ M (L − s) ds/EI, too large by 2/N; with 2k_B it is
// the trapezoid rule's, within O(1/N²).
func (c *Cable) bendStiffness(i int) float64 {
	if i == 0 {
		return 2 * c.KB
	}
	return c.KB
}

// behind returns b = x_i − x_{i−1} at point i of the positions x; at a
// clamped top the clamp's direction over one rest length.
func (c *Cable) behind(x []geom.Vec3, i int) geom.Vec3 {
	if i == 0 {
		return c.dir.Scale(c.Rest)
	}
	return x[i].Sub(x[i-1])
}

// State implements state.Stater: every point's position and velocity,
// the rest length (positive; the springs follow it), the force on the
// crane, the external force on the load for the coming step (a plugin's,
// applied at a communication point) and the counts of the last solve.
func (c *Cable) State(s *state.Codec) {
	s.Fixed("mass points", len(c.X))
	rest := c.Rest
	s.Positive("segment rest length", "m", &rest)
	s.Then(func() error { return c.SetRest(rest) })
	for i := range c.X {
		s.Point(fmt.Sprintf("mass point %d", i), &c.X[i])
		s.Velocity(fmt.Sprintf("mass point %d", i), &c.V[i])
	}
	s.Vec("force on the crane", &c.TopForce)
	s.Vec("external force on the load", &c.LoadForce)
	s.Count("rebuilds", &c.Stats.Rebuilds)
	s.Count("CG iterations", &c.Stats.Iterations)
	s.NonNegative("CG residual", &c.Stats.Residual)
}
