package spline

import (
	"errors"
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/core/state"
)

// Spec describes a spline cable laid straight from Start along Dir.
type Spec struct {
	// Start is where the cable starts (m) and Dir the direction it is laid
	// in (normalized here). The start is held: its position and roll
	// follow StartTarget and StartRoll (Lagrange multipliers, [TGDM07]
	// §4.3); ClampStart holds its tangent along Dir as well (a clamp).
	Start, Dir geom.Vec3
	ClampStart bool
	// Length is the rest length ℓ (m) and Controls the number of control
	// points n ≥ 4 (n − 3 spans).
	Length   float64
	Controls int
	// Rope gives the mass per length μ (kg/m), the roll inertia per
	// length I₀ (kg·m, the polar moment of the cross-section's mass), and
	// H's stiffnesses: axial EA (N), torsional GJ (N·m²), bending EI
	// (N·m²) (eq. 3). The spline has no material damping: DampingTime is
	// not read.
	Rope material.Rope
	// The far end is free, carries a point mass Load (kg), or with EndHeld
	// follows EndTarget and EndRoll (ClampEnd: its tangent along −Dir
	// reversed, i.e. the laid direction).
	Load              float64
	EndHeld, ClampEnd bool
	Gravity           geom.Vec3
	// Ceiling (m), when positive, bounds every free control point's move
	// in a step relative to the held start's ([TGDM07] §4.4): a step that
	// would move one farther is scaled down, so that the linearization is
	// not left far behind. It is a speed limit on the cable's deformation,
	// an artificial damping where it engages (Spline.Ceiled).
	Ceiling float64
}

// Spline is a geometrically exact dynamic spline cable ([TGDM07]).
type Spline struct {
	// rope holds Spec.Rope's numbers the equations use.
	rope ropeNumbers
	// Q holds the control points (x, y, z in m, the roll θ in rad) and V
	// their rates (V = Δq/h of the last step, in the static mode too).
	Q, V [][4]float64
	// The load's position and velocity, with a load.
	LoadPos, LoadVel geom.Vec3
	// Targets of the held ends at the end of the next step.
	StartTarget, EndTarget geom.Vec3
	StartRoll, EndRoll     float64
	// Budget is the cost (operations, see Cost) a step may take; 0 is
	// no limit. Algorithm 2 switches to the static system when a step's
	// cost exceeds 95 % of it and back below 90 %; a step whose static
	// system has no solution (singular: no stable equilibrium) is dynamic.
	Budget float64
	// Static says whether the last step solved the static system (6);
	// Ceiled whether the ceiling shortened it (its multipliers, the forces
	// below, are then those of the step it shortened).
	Static, Ceiled bool
	// StartForce is the force (N) the cable exerts on what holds its
	// start (the multipliers of the start's position rows), StartTorque
	// its roll moment (N·m); EndForce and EndTorque alike at a held end;
	// with a load, EndForce is the cable's pull on the load.
	StartForce, EndForce   geom.Vec3
	StartTorque, EndTorque float64
	// LoadForce is an external force (N) on the load during the coming
	// steps, besides gravity: a wind's drag. Without a load it has no
	// effect. Whoever sets it clears it.
	LoadForce geom.Vec3

	spec    Spec
	dir     geom.Vec3
	knots   knots
	samples []sample // of the unit spline, scaled by the length
	// spanMass holds per span ∫ b_k b_l du over the unit spline (the
	// generalized mass matrix's element, [TGDM07] §3, before μ, I₀, ℓ).
	spanMass [][4][4]float64
	length   float64
	// The system: unknowns laid out as the start's constraint rows, the
	// control points' four coordinates each, then the end's rows (and
	// the load's three coordinates).
	startRows, endRows int
	n                  int // unknowns
	mat                *band
	rhs                []float64
	sigma              float64   // the constraint rows' scale
	floor              []float64 // the rows' least pivot scales (pivotFloors)
	grid               []sample  // the basis at the points Points samples
}

// halfBand is the system's bandwidth: a control point couples to the
// three on either side (4 coordinates each), 4·3 + 3; the constraint rows
// at the ends reach no farther.
const halfBand = 15

// ropeNumbers are the rope's mass per length mu (kg/m), roll inertia per
// length (kg·m) and stiffnesses EA (N), GJ and EI (N·m²).
type ropeNumbers struct{ mu, roll, ea, gj, ei float64 }

// New lays a spline out straight and at rest.
func New(spec Spec) (*Spline, error) {
	if err := spec.validate(); err != nil {
		return nil, err
	}
	dir, _ := spec.Dir.Unit()
	n := spec.Controls
	r := spec.Rope
	s := &Spline{spec: spec, dir: dir, Q: make([][4]float64, n), V: make([][4]float64, n),
		rope: ropeNumbers{mu: r.LinearDensity(), roll: r.RollInertia(), ea: r.AxialStiffness(), gj: r.TorsionalRigidity(), ei: r.Bending()}}
	s.knots = newKnots(n, 1)
	s.samples = s.knots.samples()
	for at := 0; at < len(s.samples); at += len(gauss4) {
		var m [4][4]float64
		for _, sm := range s.samples[at : at+len(gauss4)] {
			for k := 0; k < 4; k++ {
				for l := 0; l < 4; l++ {
					m[k][l] += sm.w * sm.val[k] * sm.val[l]
				}
			}
		}
		s.spanMass = append(s.spanMass, m)
	}
	s.length = spec.Length
	// Control points of a straight clamped cubic: the Greville abscissae
	// (the mean of three knots) make r(u) = Start + u·Dir exactly.
	for i := range s.Q {
		g := s.knots.greville(i) * spec.Length
		p := spec.Start.AddScaled(g, dir)
		s.Q[i] = [4]float64{p.X, p.Y, p.Z, 0}
	}
	s.StartTarget = spec.Start
	s.EndTarget = spec.Start.AddScaled(spec.Length, dir)
	s.LoadPos = s.EndTarget
	s.startRows = 4
	if spec.ClampStart {
		s.startRows += 2
	}
	switch {
	case spec.EndHeld:
		s.endRows = 4
		if spec.ClampEnd {
			s.endRows += 2
		}
	case spec.Load > 0:
		s.endRows = 6 // three rows, three coordinates
	}
	s.n = s.startRows + 4*n + s.endRows
	s.mat = newBand(s.n, halfBand, halfBand)
	s.rhs = make([]float64, s.n)
	return s, nil
}

func (s *Spec) validate() error {
	var errs []error
	add := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	pos := func(name string, v float64) {
		if !(v > 0) || math.IsInf(v, 0) {
			add("%s %g: must be positive and finite", name, v)
		}
	}
	if !s.Start.IsFinite() || !s.Gravity.IsFinite() {
		add("start %v m and gravity %v m/s²: must be finite", s.Start, s.Gravity)
	}
	if d := s.Dir.Norm(); !(d > 0) || math.IsInf(d, 0) {
		add("direction %v: must be a finite nonzero vector", s.Dir)
	}
	pos("length (m)", s.Length)
	if s.Controls < 4 || s.Controls > 100000 {
		add("control points %d: want 4 to 100000", s.Controls)
	}
	if err := s.Rope.Validate(); err != nil {
		add("%v", err)
	}
	pos("linear density (kg/m)", s.Rope.LinearDensity())
	if !(s.Load >= 0) || math.IsInf(s.Load, 0) {
		add("load %g kg: must be non-negative and finite", s.Load)
	}
	if s.EndHeld && s.Load > 0 {
		add("a held end carries no load")
	}
	if s.ClampEnd && !s.EndHeld {
		add("a clamped end must be held")
	}
	if !(s.Ceiling >= 0) || math.IsInf(s.Ceiling, 0) {
		add("ceiling %g m: must be non-negative (0: none) and finite", s.Ceiling)
	}
	return errors.Join(errs...)
}

// Hang stretches a spline laid straight down (Dir along gravity) into its
// static equilibrium: at rest arc length u the cable carries the load and
// the cable below, T(u) = g (M + μ (ℓ − u)), so it lies at
// p(u) = u + g (M u + μ (ℓ u − u²/2))/EA along Dir; the control points of
// that quadratic (Marsden's identity: u ↦ ξ_i and u² ↦ σ_i, the means of
// the products of a control point's knots) make the cubic spline exactly
// it, and the load hangs at its end.
func (s *Spline) Hang() error {
	g := s.spec.Gravity
	gn := g.Norm()
	if gn == 0 || s.dir.Sub(g.Scale(1/gn)).Norm() > 1e-12 {
		return fmt.Errorf("hang: the cable is not laid along gravity")
	}
	L, mu, M, ea := s.length, s.rope.mu, s.spec.Load, s.rope.ea
	t := s.knots.t
	for i := range s.Q {
		xi := s.knots.greville(i) * L
		sigma := (t[i+1]*t[i+2] + t[i+1]*t[i+3] + t[i+2]*t[i+3]) / 3 * L * L
		along := xi + gn*(M*xi+mu*(L*xi-sigma/2))/ea
		p := s.StartTarget.AddScaled(along, s.dir)
		s.Q[i] = [4]float64{p.X, p.Y, p.Z, s.Q[i][3]}
		s.V[i] = [4]float64{}
	}
	last := s.Q[len(s.Q)-1]
	s.LoadPos, s.LoadVel = geom.V(last[0], last[1], last[2]), geom.Vec3{}
	w := (M + mu*L) * gn
	s.StartForce = g.Scale(w / gn)
	s.EndForce = g.Scale(-M) // the cable's pull on the load, as Step gives it
	return nil
}

// Length returns the rest length ℓ (m).
func (s *Spline) Length() float64 { return s.length }

// SetLength sets the rest length ℓ (m): the control points stay, the
// material stretches or relaxes along the whole cable (a winch).
func (s *Spline) SetLength(l float64) error {
	if !(l > 0) || math.IsInf(l, 0) {
		return fmt.Errorf("spline length %g m: must be positive and finite", l)
	}
	s.length = l
	return nil
}

// Point returns the centreline r(u) (m) and roll θ(u) at rest arc length
// u ∈ [0, ℓ].
func (s *Spline) Point(u float64) (geom.Vec3, float64) {
	val, _, _, first := s.knots.basis(min(max(u/s.length, 0), 1))
	var p [4]float64
	for a := 0; a < 4; a++ {
		for d := 0; d < 4; d++ {
			p[d] += val[a] * s.Q[first+a][d]
		}
	}
	return geom.V(p[0], p[1], p[2]), p[3]
}

// Points appends to dst the centreline at n ≥ 2 points of equal rest arc
// length, the ends included (the basis there is computed once for n).
func (s *Spline) Points(n int, dst []geom.Vec3) []geom.Vec3 {
	if len(s.grid) != n {
		s.grid = s.grid[:0]
		for k := 0; k < n; k++ {
			val, _, _, first := s.knots.basis(float64(k) / float64(n-1))
			s.grid = append(s.grid, sample{val: val, first: first})
		}
	}
	for _, g := range s.grid {
		var p geom.Vec3
		for a := 0; a < 4; a++ {
			q := s.Q[g.first+a]
			p = p.AddScaled(g.val[a], geom.V(q[0], q[1], q[2]))
		}
		dst = append(dst, p)
	}
	return dst
}

// Tangent returns r'(u) at rest arc length u: its length is the stretch
// 1 + ε_s there.
func (s *Spline) Tangent(u float64) geom.Vec3 {
	_, d1, _, first := s.knots.basis(min(max(u/s.length, 0), 1))
	var p geom.Vec3
	for a := 0; a < 4; a++ {
		q := s.Q[first+a]
		p = p.AddScaled(d1[a]/s.length, geom.V(q[0], q[1], q[2]))
	}
	return p
}

// Tension returns the axial force EA ε_s (N) at rest arc length u.
func (s *Spline) Tension(u float64) float64 {
	return s.rope.ea * (s.Tangent(u).Norm() - 1)
}

// Constrained reports whether the held ends remove the rigid motions
// ([TGDM07] §5.2): four coordinates of a point and its tangent, or four
// coordinates of two points. Without, the static system is singular and
// Algorithm 2 keeps the dynamic one.
func (s *Spline) Constrained() bool {
	return s.spec.ClampStart || s.spec.EndHeld
}

// Cost returns a step's cost (operations): the banded factorization's
// n·kl·(kl + ku), its substitution and the assembly at the quadrature
// points; the same for the static and the dynamic system, and a function
// of the structure alone, so that Algorithm 2's decisions replay bitwise.
func (s *Spline) Cost() float64 {
	const assembly = 1200 // operations a quadrature point takes
	return float64(s.n)*float64(halfBand*(2*halfBand)+4*halfBand) + float64(len(s.samples))*assembly
}

// Step advances the spline by h (s): Algorithm 2 picks the static or the
// dynamic system, Algorithm 1 assembles it at the quadrature points and
// solves it by the banded LU, the ceiling bounds the move.
func (s *Spline) Step(h float64) error {
	if !(h > 0) || math.IsInf(h, 0) {
		return fmt.Errorf("step %g s: must be positive and finite", h)
	}
	// Algorithm 2: the static system only where it is not singular, and
	// when the budget calls for it (with hysteresis).
	switch cost := s.Cost(); {
	case !s.Constrained():
		s.Static = false
	case s.Budget > 0 && cost > 0.95*s.Budget:
		s.Static = true
	case s.Budget <= 0 || cost < 0.9*s.Budget:
		s.Static = false
	}
	if err := s.assemble(h); err != nil {
		// The static system only where it has a solution: where it is
		// singular (a straight cable without bending stiffness and without
		// tension has no stiffness across it: no equilibrium to go to, and
		// a solution of rounding errors moved the cable by 1e11 m), the
		// step is the dynamic one.
		if !s.Static || !errors.Is(err, errSingular) {
			return err
		}
		s.Static = false
		if err := s.assemble(h); err != nil {
			return err
		}
	}
	x := s.rhs
	s.mat.back(x)
	// The ceiling (§4.4) bounds the free control points' moves relative
	// to the held start's: the held points follow their targets, and a
	// cable carried along by its crane is no move away from the
	// linearization (bounding the absolute moves, the ceiling held the
	// rope back while the crane ran and stretched it 16-fold).
	held := func(i int) bool { return i == 0 || (s.spec.EndHeld && i == len(s.Q)-1) }
	k0 := s.at(0)
	carried := [4]float64{x[k0], x[k0+1], x[k0+2], 0}
	scale := 1.0
	if c := s.spec.Ceiling; c > 0 {
		far := 0.0
		for i := range s.Q {
			if held(i) {
				continue
			}
			k := s.at(i)
			dx, dy, dz := x[k]-carried[0], x[k+1]-carried[1], x[k+2]-carried[2]
			far = max(far, math.Sqrt(dx*dx+dy*dy+dz*dz))
		}
		if far > c {
			scale = c / far
		}
	}
	s.Ceiled = scale < 1
	for i := range s.Q {
		k := s.at(i)
		for d := 0; d < 4; d++ {
			dq := x[k+d]
			if !held(i) {
				dq = carried[d] + scale*(dq-carried[d])
			}
			s.Q[i][d] += dq
			s.V[i][d] = dq / h
		}
	}
	// Multipliers: A Δq + Cᵀλ = b, so the rows apply −Cᵀλ to the cable
	// and λ is the cable's pull on what holds it.
	sg := s.sigma
	s.StartForce, s.StartTorque = geom.V(x[0], x[1], x[2]).Scale(sg), sg*x[3]
	e := s.startRows + 4*len(s.Q)
	switch {
	case s.spec.EndHeld:
		s.EndForce, s.EndTorque = geom.V(x[e], x[e+1], x[e+2]).Scale(sg), sg*x[e+3]
	case s.spec.Load > 0:
		s.EndForce = geom.V(x[e], x[e+1], x[e+2]).Scale(sg)
		c := geom.V(carried[0], carried[1], carried[2])
		d := c.AddScaled(scale, geom.V(x[e+3], x[e+4], x[e+5]).Sub(c))
		s.LoadPos = s.LoadPos.Add(d)
		s.LoadVel = d.Scale(1 / h)
	}
	for i := range s.Q {
		for d := 0; d < 4; d++ {
			if math.IsNaN(s.Q[i][d]) || math.IsInf(s.Q[i][d], 0) {
				return fmt.Errorf("spline: control point %d diverged (reduce the step, or set a ceiling)", i)
			}
		}
	}
	return nil
}

// at returns the first unknown of control point i.
func (s *Spline) at(i int) int { return s.startRows + 4*i }

// assemble writes the system of the chosen mode: (M/h² + K) Δq =
// M V/h + F + P (eq. 5) or K Δq = F + P (eq. 6), K the Hessian of the
// strain energy and P = −∂U/∂q, F gravity; with the held ends' rows. The
// banded LU eliminates the rows as they are completed (a control point's
// once the last span on it is in, the end's last two once the end's rows
// are), with the right-hand side: the matrix is cleared, assembled and
// factored row by row while its rows are in the cache, which at 10,000
// control points (15 MB of band) saved a quarter of a step's time.
func (s *Spline) assemble(h float64) error {
	sp := &s.spec
	m, b := s.mat, s.rhs
	clear(b)
	m.begin(b)
	mode := "dynamic"
	if s.Static {
		mode = "static"
	}
	s.pivotFloors(h)
	eliminate := func(to int) error {
		if err := m.eliminate(to); err != nil {
			return fmt.Errorf("spline: the %s system: %w", mode, err)
		}
		return nil
	}
	nq := len(s.Q)
	cleared := min(4, nq) // control points whose rows are cleared
	m.zeroRows(0, s.at(cleared))
	started := false // the start's rows are in
	L := s.length
	ea, gj, ei := s.rope.ea, s.rope.gj, s.rope.ei
	dyn := !s.Static
	ih2, ih := 1/(h*h), 1/h
	// Span by span: its four quadrature points summed into the element
	// matrix of its four control points, kept as the 3 × 3 blocks of their
	// positions (k ≤ l, row-major) and the 4 × 4 of their rolls (the two
	// do not couple), then added into the band once.
	var kxx [4][4][9]float64
	var krr [4][4]float64
	var locB [16]float64
	for at := 0; at < len(s.samples); at += len(gauss4) {
		kxx, krr, locB = [4][4][9]float64{}, [4][4]float64{}, [16]float64{}
		first := s.samples[at].first
		if c := first + 4; c > cleared {
			m.zeroRows(s.at(cleared), s.at(c))
			cleared = c
		}
		for _, sm := range s.samples[at : at+len(gauss4)] {
			w := sm.w * L // the quadrature weight in rest length (m)
			var d1, d2 [4]float64
			for a := range d1 {
				d1[a], d2[a] = sm.d1[a]/L, sm.d2[a]/(L*L)
			}
			var a, c geom.Vec3
			roll := 0.0
			for k := 0; k < 4; k++ {
				q := s.Q[first+k]
				p := geom.V(q[0], q[1], q[2])
				a = a.AddScaled(d1[k], p)
				c = c.AddScaled(d2[k], p)
				roll += d1[k] * q[3]
			}
			if a.Norm() < 1e-9 {
				return fmt.Errorf("spline: the centreline's tangent vanishes (a control polygon collapsed)")
			}
			_, gs, hs := stretch(ea, a)
			bd := bend(ei, a, c)
			ga := gs.Add(bd.ga)
			// The Hessian's blocks by a and c, weighted (hca = hacᵀ).
			var haa, hac, hca, hcc [9]float64
			for i := 0; i < 3; i++ {
				for j := 0; j < 3; j++ {
					haa[3*i+j] = w * (hs[i][j] + bd.haa[i][j])
					hac[3*i+j] = w * bd.hac[i][j]
					hca[3*i+j] = w * bd.hac[j][i]
					hcc[3*i+j] = w * bd.hcc[i][j]
				}
			}
			// The stiffness block (k, l) is d1_k T_l + d2_k U_l with
			// T_l = H_aa d1_l + H_ac d2_l and U_l = H_acᵀ d1_l + H_cc d2_l.
			var tl, ul [4][9]float64
			for l := range tl {
				a1, a2 := d1[l], d2[l]
				t, u := &tl[l], &ul[l]
				for i := range t {
					t[i] = haa[i]*a1 + hac[i]*a2
					u[i] = hca[i]*a1 + hcc[i]*a2
				}
			}
			for k := 0; k < 4; k++ {
				// P = −∂U/∂q and gravity F.
				f := ga.Scale(-d1[k]).AddScaled(-d2[k], bd.gc).AddScaled(sm.val[k]*s.rope.mu, sp.Gravity)
				locB[4*k] += w * f.X
				locB[4*k+1] += w * f.Y
				locB[4*k+2] += w * f.Z
				locB[4*k+3] -= w * d1[k] * gj * roll
				dk1, dk2 := d1[k], d2[k]
				for l := k; l < 4; l++ {
					blk, t, u := &kxx[k][l], &tl[l], &ul[l]
					for i := range blk {
						blk[i] += dk1*t[i] + dk2*u[i]
					}
					krr[k][l] += w * dk1 * d1[l] * gj
				}
			}
		}
		if dyn {
			// M/h² into the element, M V/h into its right-hand side
			// (∫ b_k b_l times μ for x, y, z and I₀ for the roll).
			mass := &s.spanMass[at/len(gauss4)]
			for k := 0; k < 4; k++ {
				for l := 0; l < 4; l++ {
					vl := s.V[first+l]
					mx, mr := mass[k][l]*L*s.rope.mu, mass[k][l]*L*s.rope.roll
					if l >= k {
						blk := &kxx[k][l]
						blk[0] += mx * ih2
						blk[4] += mx * ih2
						blk[8] += mx * ih2
						krr[k][l] += mr * ih2
					}
					locB[4*k] += mx * ih * vl[0]
					locB[4*k+1] += mx * ih * vl[1]
					locB[4*k+2] += mx * ih * vl[2]
					locB[4*k+3] += mr * ih * vl[3]
				}
			}
		}
		// The element into the band: upper blocks as computed, lower ones
		// mirrored; M V/h with the full element's mass.
		g0 := s.at(first)
		w, kl := m.w, m.kl
		for k := 0; k < 4; k++ {
			for l := k; l < 4; l++ {
				blk := &kxx[k][l]
				r0, c0 := g0+4*k, g0+4*l
				for i := 0; i < 3; i++ {
					r := r0 + i
					row := m.a[r*w+c0-r+kl:][:3]
					row[0] += blk[3*i]
					row[1] += blk[3*i+1]
					row[2] += blk[3*i+2]
				}
				m.a[(r0+3)*w+c0-r0+kl] += krr[k][l]
				if l == k {
					continue
				}
				for j := 0; j < 3; j++ {
					c := c0 + j
					col := m.a[c*w+r0-c+kl:][:3]
					col[0] += blk[j]
					col[1] += blk[3+j]
					col[2] += blk[6+j]
				}
				m.a[(c0+3)*w+r0-c0+kl] += krr[k][l]
			}
		}
		for r := 0; r < 16; r++ {
			b[g0+r] += locB[r]
		}
		lastSpan := at+len(gauss4) == len(s.samples)
		if !started && (first >= 3 || lastSpan) {
			s.startRowsIn()
			started = true
		}
		if started {
			complete := first + 1 // control points
			if lastSpan {
				complete = nq - 2
			}
			if err := eliminate(s.at(complete) - m.kl); err != nil {
				return err
			}
		}
	}
	sigma := s.sigma
	e := s.startRows + 4*nq
	m.zeroRows(e, s.n)
	last := nq - 1
	cl := s.at(last)
	switch {
	case sp.EndHeld:
		target := [4]float64{s.EndTarget.X, s.EndTarget.Y, s.EndTarget.Z, s.EndRoll}
		for d := 0; d < 4; d++ {
			m.add(e+d, cl+d, sigma)
			m.add(cl+d, e+d, sigma)
			b[e+d] = sigma * (target[d] - s.Q[last][d])
		}
		if sp.ClampEnd {
			s.clampRows(e+4, last-1, last, s.dir)
		}
	case sp.Load > 0:
		// The load's point on the cable's end: q_last + Δq_last =
		// load + Δload, the load's coordinates after the three rows.
		lp := [3]float64{s.LoadPos.X, s.LoadPos.Y, s.LoadPos.Z}
		lv := [3]float64{s.LoadVel.X, s.LoadVel.Y, s.LoadVel.Z}
		g := [3]float64{sp.Gravity.X, sp.Gravity.Y, sp.Gravity.Z}
		for d := 0; d < 3; d++ {
			row, col := e+d, e+3+d
			m.add(row, cl+d, sigma)
			m.add(cl+d, row, sigma)
			m.add(row, col, -sigma)
			m.add(col, row, -sigma)
			b[row] = sigma * (lp[d] - s.Q[last][d])
			b[col] = sp.Load*g[d] + s.LoadForce.Comp(d)
			if dyn {
				m.add(col, col, sp.Load*ih2)
				b[col] += sp.Load * ih * lv[d]
			}
		}
	}
	return eliminate(s.n)
}

// pivotFloors sets the scales a control point's pivots are judged
// against at least: a span's axial and bending stiffness EA/Δs + EI/Δs³
// and, in the dynamic system, its mass μΔs/h² for the positions, GJ/Δs
// and I₀Δs/h² for the roll (Δs the span's rest length). The constraint
// and load rows are judged against their own entries.
func (s *Spline) pivotFloors(h float64) {
	if len(s.floor) != s.n {
		s.floor = make([]float64, s.n)
	}
	ds := s.length / float64(len(s.Q)-3)
	pos, roll := s.rope.ea/ds+s.rope.ei/(ds*ds*ds), s.rope.gj/ds
	if !s.Static {
		pos += s.rope.mu * ds / (h * h)
		roll += s.rope.roll * ds / (h * h)
	}
	for i := range s.Q {
		k := s.at(i)
		s.floor[k], s.floor[k+1], s.floor[k+2], s.floor[k+3] = pos, pos, pos, roll
	}
	s.mat.floor = s.floor
}

// startRowsIn writes the start's rows once the first span's control
// points are complete: q₀ + Δq₀ = target (r(0) = q₀, θ(0) = θ₀), and with
// the clamp e_j·(q₁ + Δq₁ − q₀ − Δq₀) = 0 for the two directions e_j
// across the clamp's. The constraint rows and columns (the end's too) are
// scaled by the largest diagonal entry of those control points: with
// unit entries next to stiffnesses of 1e8 the multipliers' pivots
// (compliances of 1e-8) would look like zeros. λ = σ λ'.
func (s *Spline) startRowsIn() {
	m, b := s.mat, s.rhs
	sigma := 0.0
	for k := s.at(0); k < s.at(min(4, len(s.Q))); k++ {
		sigma = max(sigma, math.Abs(m.get(k, k)))
	}
	s.sigma = sigma
	q0 := s.Q[0]
	c0 := s.at(0)
	target := [4]float64{s.StartTarget.X, s.StartTarget.Y, s.StartTarget.Z, s.StartRoll}
	for d := 0; d < 4; d++ {
		m.add(d, c0+d, sigma)
		m.add(c0+d, d, sigma)
		b[d] = sigma * (target[d] - q0[d])
	}
	if s.spec.ClampStart {
		s.clampRows(4, 0, 1, s.dir)
	}
}

// clampRows writes the two rows (from row) that hold the control polygon
// leg from control point i to j along dir: e·(q_j − q_i) = 0 after the
// step for the two directions e across dir.
func (s *Spline) clampRows(row, i, j int, dir geom.Vec3) {
	e1 := geom.Perpendicular(dir)
	e2 := dir.Cross(e1)
	ci, cj := s.at(i), s.at(j)
	qi, qj := s.Q[i], s.Q[j]
	leg := geom.V(qj[0]-qi[0], qj[1]-qi[1], qj[2]-qi[2])
	for k, e := range [2]geom.Vec3{e1, e2} {
		r := row + k
		for d := 0; d < 3; d++ {
			v := s.sigma * e.Comp(d)
			s.mat.add(r, cj+d, v)
			s.mat.add(cj+d, r, v)
			s.mat.add(r, ci+d, -v)
			s.mat.add(ci+d, r, -v)
		}
		s.rhs[r] = -s.sigma * e.Dot(leg)
	}
}

// State implements state.Stater: the rest length (positive), the mode, the
// budget (any number: the input's value, which input derivatives may
// extrapolate below 0, no limit as 0 is), the roll moments, the control
// points and their rates, the load, the start's target, the forces the
// outputs show and the external force on the load for the coming step (a
// plugin's, applied at a communication point).
func (s *Spline) State(c *state.Codec) {
	c.Fixed("control points", len(s.Q))
	length := s.length
	c.Positive("spline length", "m", &length)
	c.Then(func() error { return s.SetLength(length) })
	c.Flag("static", &s.Static)
	c.Float("budget", &s.Budget)
	c.Float("start torque", &s.StartTorque)
	c.Float("end torque", &s.EndTorque)
	for i := range s.Q {
		p := geom.V(s.Q[i][0], s.Q[i][1], s.Q[i][2])
		c.Point(fmt.Sprintf("control point %d", i), &p)
		c.Float(fmt.Sprintf("control point %d roll", i), &s.Q[i][3])
		v := geom.V(s.V[i][0], s.V[i][1], s.V[i][2])
		c.Velocity(fmt.Sprintf("control point %d rate", i), &v)
		c.Float(fmt.Sprintf("control point %d roll rate", i), &s.V[i][3])
		if c.Loading() {
			s.Q[i][0], s.Q[i][1], s.Q[i][2] = p.X, p.Y, p.Z
			s.V[i][0], s.V[i][1], s.V[i][2] = v.X, v.Y, v.Z
		}
	}
	c.Point("load", &s.LoadPos)
	c.Velocity("load", &s.LoadVel)
	c.Point("start target", &s.StartTarget)
	c.Vec("start force", &s.StartForce)
	c.Vec("end force", &s.EndForce)
	c.Vec("external force on the load", &s.LoadForce)
}
