package multibody

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
)

// refAssemble is assemble before the pairs and scales were laid out
// for fewer instructions, kept to hold the new one to it bit for bit;
// it writes the step's values: the bodies' mass and inertia, the
// rows' Jacobians and −Σ, and each unknown's pivot scale.
func refAssemble(s *Sparse, p *Problem) error {
	val := s.mat.Val
	clear(val)
	part := s.parts
	for ei, e := range p.ByBody {
		pe := part[:len(e.Blocks)]
		part = part[len(e.Blocks):]
		if s.bodyStart[ei] < 0 {
			var pairs []int // the pairs as they were laid out: four numbers each
			for _, pr := range s.pairs[s.pairStart[ei]:s.pairStart[ei+1]] {
				pairs = append(pairs, pr.a, pr.c, pr.ac, pr.ca)
			}
			if !refAssembleCondensed(s, p, e, s.bodyDofs[ei], pe, pairs) {
				return errPartsChanged
			}
			continue
		}
		b := p.Rows[e.Blocks[0].Row].Bodies[e.Blocks[0].K]
		st := s.bodyStart[ei]
		for d := 0; d < 3; d++ {
			val[s.diag[st+d]] = b.Mass
		}
		// The angular unknowns: ω itself under the world inertia for a
		// rigid body, else ω along the principal axes it can turn about,
		// each with its moment.
		axes := [3]geom.Vec3{{X: 1}, {Y: 1}, {Z: 1}}
		switch dofs := s.bodyDofs[ei]; {
		case dofs == 6:
			inertia, ok := b.invI.Inverse()
			if !ok {
				return fmt.Errorf("sparse solve: body %q has an inertia that cannot be inverted", b.Name)
			}
			for i := 0; i < 3; i++ {
				for j := 0; j < 3; j++ {
					val[s.mat.Index(st+3+i, st+3+j)] = inertia[i][j]
				}
			}
		case dofs > 3:
			mu, vec := turningAxes(b)
			for k := 0; k < dofs-3; k++ {
				axes[k] = vec[k]
				val[s.diag[st+3+k]] = 1 / mu[k]
			}
		}
		q := s.posStart[ei]
		for k, rb := range e.Blocks {
			j := &p.Rows[rb.Row].J[rb.K]
			if parts(j, s.bodyDofs[ei]) != pe[k] {
				return errPartsChanged
			}
			g := [6]float64{j.Lin.X, j.Lin.Y, j.Lin.Z, j.Ang.Dot(axes[0]), j.Ang.Dot(axes[1]), j.Ang.Dot(axes[2])}
			for d := 0; d < s.bodyDofs[ei]; d++ {
				if s.pos[q] >= 0 {
					val[s.pos[q]] += g[d]
					val[s.pos[q+1]] += g[d]
				}
				q += 2
			}
		}
	}
	s.rowDiag, s.sigma = grow(s.rowDiag, len(p.Sigma)), append(s.sigma[:0], p.Sigma...)
	for i, sg := range p.Sigma {
		q := s.diag[s.rows+i]
		s.rowDiag[i] = val[q]
		val[q] -= sg // after the condensed bodies' terms
	}
	// Each unknown's pivot scale (see scale).
	inv := s.res // free until a refinement
	for k := range inv {
		inv[k] = 0
		if d := math.Abs(val[s.diag[k]]); d > 0 {
			inv[k] = 1 / d
		}
	}
	for k := 0; k < s.mat.N; k++ {
		s.pivot.Scale[k] = refScale(s, k, inv)
	}
	return nil
}

// refAssembleCondensed is assembleCondensed as it was: it subtracts a condensed body's G M⁻¹ Gᵀ from its rows'
// block (the row unknowns are −λ), pairs its pairs of blocks and their
// entries' positions (setup), four numbers each.
func refAssembleCondensed(s *Sparse, p *Problem, e BodyRows, dofs int, pe []uint8, pairs []int) bool {
	val := s.mat.Val
	if dofs == 3 || !slices.Contains(pe, linPart|angPart) {
		// No block acts on both the body's translation and its turning
		// (a wire's node: its stretch, bend and contact rows on the one,
		// its twist rows on the other; a particle has no turning). The
		// pairs meet in one part (setup), the other part's products are
		// zeros, and each block's part is gathered alone: M⁻¹ keeps a
		// zero half zero.
		jl, ml := s.gatherLin[:0], s.gatherMinvLin[:0]
		for k, b := range e.Blocks {
			r := &p.Rows[b.Row]
			jb := &r.J[b.K]
			if parts(jb, dofs) != pe[k] {
				return false
			}
			if pe[k] == angPart {
				jl, ml = append(jl, jb.Ang), append(ml, r.MinvJ[b.K].Ang)
			} else {
				jl, ml = append(jl, jb.Lin), append(ml, r.MinvJ[b.K].Lin)
			}
		}
		s.gatherLin, s.gatherMinvLin = jl, ml
		for ; len(pairs) >= 4; pairs = pairs[4:] {
			pr := pairs[:4:4]
			ja, mc := jl[pr[0]], ml[pr[1]]
			v := ja.X*mc.X + ja.Y*mc.Y + ja.Z*mc.Z
			val[pr[2]] -= v
			if pr[0] != pr[1] {
				// Both triangles; the diagonal twice where a row has
				// two blocks on the body.
				val[pr[3]] -= v
			}
		}
		return true
	}
	// The blocks gathered: the pairs read each many times.
	j, m := s.gatherJ[:0], s.gatherM[:0]
	for k, b := range e.Blocks {
		j = append(j, p.Rows[b.Row].J[b.K])
		m = append(m, p.Rows[b.Row].MinvJ[b.K])
		if parts(&j[k], dofs) != pe[k] {
			return false
		}
	}
	s.gatherJ, s.gatherM = j, m
	for ; len(pairs) >= 4; pairs = pairs[4:] {
		pr := pairs[:4:4]
		ja, mc := &j[pr[0]], &m[pr[1]]
		v := ja.Lin.X*mc.Lin.X + ja.Lin.Y*mc.Lin.Y + ja.Lin.Z*mc.Lin.Z
		v += ja.Ang.X*mc.Ang.X + ja.Ang.Y*mc.Ang.Y + ja.Ang.Z*mc.Ang.Z
		val[pr[2]] -= v
		if pr[0] != pr[1] {
			val[pr[3]] -= v
		}
	}
	return true
}

// refScale is scale as it was: it returns unknown k's pivot scale, |a_kk| + Σ_j a_kj²/|a_jj|: the
// size its pivot has without cancellation (a zero diagonal adds nothing).
// inv holds 1/|a_jj| (0 for a zero one) per unknown, or is nil to have it
// worked out here.
func refScale(s *Sparse, k int, inv []float64) float64 {
	val := s.mat.Val
	v := math.Abs(val[s.diag[k]])
	// The column as subslices of one length: no bounds checks on them.
	rows := s.mat.Row[s.mat.Col[k]:s.mat.Col[k+1]]
	vals := val[s.mat.Col[k]:s.mat.Col[k+1]]
	vals = vals[:len(rows)]
	if inv != nil {
		for q, j := range rows {
			if j != k {
				v += vals[q] * vals[q] * inv[j]
			}
		}
		return v
	}
	for q, j := range rows {
		if d := math.Abs(val[s.diag[j]]); j != k && d > 0 {
			v += vals[q] * vals[q] * (1 / d)
		}
	}
	return v
}

// refSparse factors with a Sparse and checks each assembly against
// refAssemble's of the same problem into the same structure, bitwise: the
// matrix and the pivot scales.
type refSparse struct {
	*Sparse
	t        *testing.T
	compared int
}

func (c *refSparse) Factor(p *Problem) error {
	refactor := c.Sparse.mat != nil && p.values != 0 && p.values == c.Sparse.values
	if err := c.Sparse.Factor(p); err != nil || refactor {
		return err
	}
	s := c.Sparse
	val, scale := slices.Clone(s.mat.Val), slices.Clone(s.pivot.Scale)
	if err := refAssemble(s, p); err != nil {
		c.t.Fatalf("reference assembly: %v", err)
	}
	same := func(a, b []float64) bool {
		return slices.EqualFunc(a, b, func(u, v float64) bool { return math.Float64bits(u) == math.Float64bits(v) })
	}
	if !same(val, s.mat.Val) || !same(scale, s.pivot.Scale) {
		c.t.Errorf("the assembly differs from the reference's: matrix %v, scales %v", same(val, s.mat.Val), same(scale, s.pivot.Scale))
	}
	c.compared++
	return nil
}

func (c *refSparse) Solve(p *Problem) error {
	if err := c.Factor(p); err != nil {
		return err
	}
	return c.Substitute(p)
}

// Sparse's assembly (its condensed bodies' pairs and its pivot scales
// laid out for fewer instructions) writes what refAssemble writes, to
// the bit, on random worlds over 12 steps.
func TestSparseAssemblyMatchesReference(t *testing.T) {
	compared := 0
	for seed := int64(1); seed <= 1000; seed++ {
		var step int
		w := randomWorld(seed, &step, randomConfig{bounded: seed%2 == 0})
		for _, c := range w.Constraints() {
			c.(*randomLink).step = &step
		}
		cs := &refSparse{Sparse: &Sparse{}, t: t}
		if seed%2 == 0 {
			w.Solver = &ActiveSet{Solver: cs}
		} else {
			w.Solver = cs
		}
		for ; step < 12; step++ {
			if err := w.Step(0.01); err != nil {
				break
			}
		}
		compared += cs.compared
		if t.Failed() {
			t.Fatalf("seed %d", seed)
		}
	}
	if compared < 1000 {
		t.Errorf("%d assemblies compared: too few to tell", compared)
	}
	t.Logf("%d assemblies compared", compared)
}
