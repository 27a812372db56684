package massspring

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"

	"github.com/cablefmu/cablefmu/core/geom"
)

// system holds a step's forces, their derivatives and the linear system,
// reused from step to step.
type system struct {
	// f is the force on each point (N); k[i][o] the block ∂f_i/∂x_{i+o}
	// (o = 0, 1, 2; the matrix is symmetric), d[i][o] ∂f_i/∂v_{i+o}
	// (o = 0, 1).
	f []geom.Vec3
	k [][3]geom.Mat3
	d [][2]geom.Mat3
	// a[j][o] is the block (j, j+o) of M − h ∂f/∂v − h² ∂f/∂x over the
	// free points (j = i − 1); band its banded upper storage for Pbtrf.
	a    [][3]geom.Mat3
	band []float64
	// rhs, dv: right-hand side and solution over the free points; cg
	// scratch r, p, ap.
	rhs, dv, sol []float64
	r, p, ap     []float64
	// xt, vt: where a rebuild evaluates the forces.
	xt, vt []geom.Vec3
}

// halfBand is the half-bandwidth of the system in scalars: a point
// couples to the points two away (the torsion springs), three unknowns
// each.
const halfBand = 8

func (s *system) init(n int) {
	s.f, s.k, s.d = make([]geom.Vec3, n+1), make([][3]geom.Mat3, n+1), make([][2]geom.Mat3, n+1)
	s.a = make([][3]geom.Mat3, n)
	s.band = make([]float64, 3*n*(halfBand+1))
	for _, v := range []*[]float64{&s.rhs, &s.dv, &s.sol, &s.r, &s.p, &s.ap} {
		*v = make([]float64, 3*n)
	}
	s.xt, s.vt = make([]geom.Vec3, n+1), make([]geom.Vec3, n+1)
}

// evaluate sets f, k and d at positions x and velocities v.
func (c *Cable) evaluate(x, v []geom.Vec3) error {
	s := &c.sys
	n := len(x) - 1
	for i := range s.f {
		s.f[i] = c.spec.Gravity.Scale(c.Mass[i])
		s.k[i] = [3]geom.Mat3{}
		s.d[i] = [2]geom.Mat3{}
	}
	s.f[len(s.f)-1] = s.f[len(s.f)-1].Add(c.LoadForce)
	// Linear springs (eqs. 6–8) and their damping (eq. 9), segment by
	// segment: point j = i − 1 to point i.
	for i := 1; i <= n; i++ {
		j := i - 1
		u, L := x[i].Sub(x[j]).Unit()
		if !(L > 0) {
			return fmt.Errorf("segment %d has zero length", j)
		}
		dv := v[i].Sub(v[j])
		f := u.Scale(-c.KL*(L-c.Rest) - c.KD*u.Dot(dv))
		s.f[i] = s.f[i].Add(f)
		s.f[j] = s.f[j].Sub(f)
		// ∂f_i/∂x_i = k_L(−I + l/L I − l/L u uᵀ) (eq. 8); ∂f_i/∂v_i = −k_D u uᵀ.
		// A compressed spring (L < l) turns its transverse part
		// −k_L (1 − l/L)(I − u uᵀ) positive, a negative stiffness that
		// makes the step's matrix indefinite as soon as it outweighs the
		// points' inertia (a slack rope, the winch stopped dead): the
		// matrix takes it as zero, the forces stay exact (see the package doc).
		var kk, dd geom.Mat3
		lo := min(c.Rest/L, 1)
		for r := 0; r < 3; r++ {
			for q := 0; q < 3; q++ {
				uu := u.Comp(r) * u.Comp(q)
				kk[r][q] = -c.KL * lo * uu
				dd[r][q] = -c.KD * uu
			}
			kk[r][r] += c.KL * (lo - 1)
		}
		addTo(&s.k[j][0], &kk, 1)
		addTo(&s.k[i][0], &kk, 1)
		addTo(&s.k[j][1], &kk, -1)
		addTo(&s.d[j][0], &dd, 1)
		addTo(&s.d[i][0], &dd, 1)
		addTo(&s.d[j][1], &dd, -1)
	}
	// Torsion springs (eqs. 10–16) at the inner points, and at a clamped
	// top against the clamp's direction.
	for i := 0; i < n; i++ {
		if i == 0 && !c.spec.Clamped {
			continue
		}
		bd, err := newBend(c.bendStiffness(i), x[i+1].Sub(x[i]), c.behind(x, i))
		if err != nil {
			return fmt.Errorf("point %d: %w", i, err)
		}
		// f = −∂E/∂x with a = x_{i+1} − x_i, b = x_i − x_{i−1} (eq. 13).
		s.f[i+1] = s.f[i+1].Sub(bd.ga)
		s.f[i] = s.f[i].Add(bd.ga)
		if i == 0 {
			// The clamp moves with the top: b is fixed, only a varies.
			addTo(&s.k[1][0], &bd.haa, -1)
			addTo(&s.k[0][0], &bd.haa, -1)
			addTo(&s.k[0][1], &bd.haa, 1)
			continue
		}
		s.f[i] = s.f[i].Sub(bd.gb)
		s.f[i-1] = s.f[i-1].Add(bd.gb)
		// ∂f/∂x = −∇²E over (x_{i−1}, x_i, x_{i+1}): a's coefficients
		// (0, −1, 1), b's (−1, 1, 0).
		ca, cb := [3]float64{0, -1, 1}, [3]float64{-1, 1, 0}
		hba := bd.hab.T()
		for p := 0; p < 3; p++ {
			for q := p; q < 3; q++ {
				blk := &s.k[i-1+p][q-p]
				addTo(blk, &bd.haa, -ca[p]*ca[q])
				addTo(blk, &bd.hab, -ca[p]*cb[q])
				addTo(blk, &hba, -cb[p]*ca[q])
				addTo(blk, &bd.hbb, -cb[p]*cb[q])
			}
		}
	}
	return nil
}

// addTo adds s·m to *dst.
func addTo(dst, m *geom.Mat3, s float64) {
	if s == 0 {
		return
	}
	for r := 0; r < 3; r++ {
		for q := 0; q < 3; q++ {
			dst[r][q] += s * m[r][q]
		}
	}
}

// Step advances the cable by h (s), the top point moving at topVel (m/s)
// over the step.
func (c *Cable) Step(h float64, topVel geom.Vec3) error {
	if !(h > 0) || math.IsInf(h, 0) {
		return fmt.Errorf("step %g s: must be positive and finite", h)
	}
	if !topVel.IsFinite() {
		return fmt.Errorf("top velocity %v m/s: must be finite", topVel)
	}
	s := &c.sys
	n := len(c.X) - 1
	rebuilds := c.spec.Rebuilds
	if rebuilds == 0 {
		rebuilds = 1
		if c.spec.Solver == CG {
			rebuilds = 10
		}
	}
	c.Stats = Stats{}
	dv0 := topVel.Sub(c.V[0])
	clear(s.dv)
	for pass := 0; pass < rebuilds; pass++ {
		if pass == 0 {
			// Eq. 5 at (x₀, v₀): b = h (f₀ + h ∂f/∂x v₀), the top's
			// prescribed Δv moved to the right-hand side.
			if err := c.evaluate(c.X, c.V); err != nil {
				return fmt.Errorf("mass-spring cable: %w", err)
			}
			for i := 1; i <= n; i++ {
				b := s.f[i].Add(c.mulK(i, c.V).Scale(h)).Scale(h)
				setVec(s.rhs, i-1, b.Sub(c.topColumn(i, dv0, h)))
			}
		} else {
			// A rebuild: the system again at x₀ + h(v₀ + Δv), v₀ + Δv,
			// for the correction δ of M Δv = h f(x₁, v₁).
			s.vt[0], s.xt[0] = topVel, c.X[0].AddScaled(h, topVel)
			for i := 1; i <= n; i++ {
				s.vt[i] = c.V[i].Add(getVec(s.dv, i-1))
				s.xt[i] = c.X[i].AddScaled(h, s.vt[i])
			}
			if err := c.evaluate(s.xt, s.vt); err != nil {
				return fmt.Errorf("mass-spring cable, rebuild %d: %w", pass, err)
			}
			for i := 1; i <= n; i++ {
				setVec(s.rhs, i-1, s.f[i].Scale(h).Sub(getVec(s.dv, i-1).Scale(c.Mass[i])))
			}
		}
		c.assemble(h)
		if err := c.solve(); err != nil {
			return fmt.Errorf("mass-spring cable: %w", err)
		}
		for k := range s.dv {
			s.dv[k] += s.sol[k]
		}
		c.Stats.Rebuilds++
	}
	// The top's inertia and weight before it moves, then every point.
	m0 := c.Mass[0]
	c.V[0], c.X[0] = topVel, c.X[0].AddScaled(h, topVel)
	for i := 1; i <= n; i++ {
		c.V[i] = c.V[i].Add(getVec(s.dv, i-1))
		c.X[i] = c.X[i].AddScaled(h, c.V[i])
		if !c.X[i].IsFinite() || !c.V[i].IsFinite() {
			return fmt.Errorf("mass-spring cable: point %d diverged (reduce the step or stiffen the solve: more rebuilds or CG iterations)", i)
		}
	}
	c.TopForce = c.topPull().Add(c.spec.Gravity.Scale(m0)).Sub(dv0.Scale(m0 / h))
	return nil
}

// mulK returns (∂f/∂x v)_i over every point.
func (c *Cable) mulK(i int, v []geom.Vec3) geom.Vec3 {
	s := &c.sys
	var out geom.Vec3
	for o := 0; o < 3; o++ {
		if j := i + o; j < len(v) {
			out = out.Add(s.k[i][o].MulVec(v[j]))
		}
		if j := i - o; o > 0 && j >= 0 {
			kt := s.k[j][o].T()
			out = out.Add(kt.MulVec(v[j]))
		}
	}
	return out
}

// topColumn returns the block (i, 0) of M − h ∂f/∂v − h² ∂f/∂x times w:
// how the top's velocity change w enters point i's row (zero beyond
// point 2).
func (c *Cable) topColumn(i int, w geom.Vec3, h float64) geom.Vec3 {
	s := &c.sys
	if i > 2 {
		return geom.Vec3{}
	}
	kt := s.k[0][i].T()
	out := kt.MulVec(w).Scale(-h * h)
	if i == 1 {
		dt := s.d[0][1].T()
		out = out.AddScaled(-h, dt.MulVec(w))
	}
	return out
}

// assemble writes the free points' blocks of M − h ∂f/∂v − h² ∂f/∂x.
func (c *Cable) assemble(h float64) {
	s := &c.sys
	n := len(c.X) - 1
	for j := 0; j < n; j++ {
		i := j + 1
		for o := 0; o < 3; o++ {
			var blk geom.Mat3
			if i+o <= n {
				addTo(&blk, &s.k[i][o], -h*h)
				if o < 2 {
					addTo(&blk, &s.d[i][o], -h)
				}
			}
			if o == 0 {
				for r := 0; r < 3; r++ {
					blk[r][r] += c.Mass[i]
				}
			}
			s.a[j][o] = blk
		}
	}
}

// solve solves a δ = rhs into sol.
func (c *Cable) solve() error {
	if c.spec.Solver == CG {
		return c.cg()
	}
	return c.direct()
}

// direct factors the banded matrix and substitutes (LAPACK Pbtrf, Pbtrs).
func (c *Cable) direct() error {
	s := &c.sys
	n := len(s.a)
	const stride = halfBand + 1
	clear(s.band)
	for j := 0; j < n; j++ {
		for o := 0; o < 3 && j+o < n; o++ {
			for r := 0; r < 3; r++ {
				row := 3*j + r
				for q := 0; q < 3; q++ {
					col := 3*(j+o) + q
					if col < row {
						continue
					}
					s.band[row*stride+col-row] = s.a[j][o][r][q]
				}
			}
		}
	}
	band := blas64.SymmetricBand{N: 3 * n, K: halfBand, Data: s.band, Stride: stride, Uplo: 'U'}
	t, ok := lapack64.Pbtrf(band)
	if !ok {
		return fmt.Errorf("the step's matrix M − h ∂f/∂v − h² ∂f/∂x is not positive definite (torsion springs bent so far that their stiffness turns negative beyond the points' inertia at this step): reduce the step")
	}
	copy(s.sol, s.rhs)
	lapack64.Pbtrs(t, blas64.General{Rows: 3 * n, Cols: 1, Data: s.sol, Stride: 1})
	return nil
}

// mulA3 writes a·x into y over the free points.
func (c *Cable) mulA3(y, x []float64) {
	s := &c.sys
	n := len(s.a)
	for j := 0; j < n; j++ {
		var acc geom.Vec3
		for o := 0; o < 3; o++ {
			if k := j + o; k < n {
				acc = acc.Add(s.a[j][o].MulVec(getVec(x, k)))
			}
			if k := j - o; o > 0 && k >= 0 {
				at := s.a[k][o].T()
				acc = acc.Add(at.MulVec(getVec(x, k)))
			}
		}
		setVec(y, j, acc)
	}
}

// cg runs conjugate gradients on a δ = rhs from δ = 0.
func (c *Cable) cg() error {
	s := &c.sys
	limit := c.spec.CGIterations
	if limit == 0 {
		limit = 3 * len(s.sol)
	}
	tol := c.spec.CGTolerance
	if tol == 0 {
		tol = 1e-10
	}
	clear(s.sol)
	copy(s.r, s.rhs)
	copy(s.p, s.rhs)
	bb := dot(s.rhs, s.rhs)
	rr := bb
	if bb == 0 {
		c.Stats.Residual = 0
		return nil
	}
	it := 0
	for ; it < limit && rr > tol*tol*bb; it++ {
		c.mulA3(s.ap, s.p)
		pap := dot(s.p, s.ap)
		if !(pap > 0) {
			return fmt.Errorf("conjugate gradients met a direction of non-positive curvature (p·Ap = %g): the step's matrix is not positive definite; reduce the step", pap)
		}
		alpha := rr / pap
		for k := range s.sol {
			s.sol[k] += alpha * s.p[k]
			s.r[k] -= alpha * s.ap[k]
		}
		next := dot(s.r, s.r)
		beta := next / rr
		rr = next
		for k := range s.p {
			s.p[k] = s.r[k] + beta*s.p[k]
		}
	}
	c.Stats.Iterations += it
	c.Stats.Residual = math.Sqrt(rr / bb)
	return nil
}

// topPull returns the springs' force (N) on the top point at the current
// positions and velocities: the first segment's spring and damping, and
// the torsion springs that reach it.
func (c *Cable) topPull() geom.Vec3 {
	u, _ := c.X[1].Sub(c.X[0]).Unit()
	f := u.Scale(c.Tension(0))
	if len(c.X) > 2 {
		if bd, err := newBend(c.KB, c.X[2].Sub(c.X[1]), c.X[1].Sub(c.X[0])); err == nil {
			f = f.Add(bd.gb) // −∂E/∂x_0 = +∂E/∂b
		}
	}
	if c.spec.Clamped {
		if bd, err := newBend(c.bendStiffness(0), c.X[1].Sub(c.X[0]), c.behind(c.X, 0)); err == nil {
			f = f.Add(bd.ga)
		}
	}
	return f
}

func dot(a, b []float64) float64 {
	s := 0.0
	for k := range a {
		s += a[k] * b[k]
	}
	return s
}

func getVec(x []float64, j int) geom.Vec3 { return geom.V(x[3*j], x[3*j+1], x[3*j+2]) }

func setVec(x []float64, j int, v geom.Vec3) { x[3*j], x[3*j+1], x[3*j+2] = v.X, v.Y, v.Z }
