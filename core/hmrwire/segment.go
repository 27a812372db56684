package hmrwire

import (
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// segment is the N-body wire constraint of one massless segment
// ([SLNB11] §II-B): the nodes from one mass node to the next, through
// eye and contact nodes on other bodies, keep their total length
//
//	g = Σ_k ‖p_{k+1} − p_k‖ − L   (eq. 12)
//
// with the stretch compliance L/EA and the rope's damping time; it cannot
// push (λ ≤ 0: the wire goes slack). Its Jacobian has one block per body
// that carries a node (eqs. 13–17), the blocks of nodes on one body summed.
//
// Each frictional contact node adds a stick row along the wire (§II-C2):
// the rest length σ of wire between the segment's first node and the
// contact node is held, g_f = S₁ − (σ/L)·S with S₁ the length up to the
// node and S the whole, a row whose impulse β is the difference of the
// tensions on either side of the node. With the wire stuck at every
// frictional node, its stretch energy is that of the segment row,
// EA/(2L)·g², plus Σ EA/(2ℓ)(g_f − g_{f−1})² over the spans ℓ between
// consecutive frictional nodes: the stick rows are springs of the wire's
// own stiffness. Each gets the compliance of its two spans in parallel,
// ℓ_f ℓ_{f+1}/((ℓ_f + ℓ_{f+1}) EA), leaving out their coupling (a share
// of the stretch, itself of order T/EA, placed on the wrong span); rigid
// rows would be dependent wherever two frictional nodes sit on one
// body (a wire stuck over both edges of a beam). Coulomb bounds it by
// |β| ≤ μ·N·h, N the node's normal force from the same solve (Rebound),
// where the paper reduced the node's slide by 1 − μ after the solve
// (eq. 22) and needed μ = 1 for stick at 30°.
type segment struct {
	wire  *Wire
	nodes []*node
	// bodies lists each body carrying a node once; at gives each node's.
	bodies []*multibody.Body
	at     []int
	// fric lists the frictional contact nodes by index in nodes.
	fric []int
	// Evaluated by Update: positions, sub-segment unit vectors and
	// lengths, the total length.
	pos    []geom.Vec3
	dir    []geom.Vec3
	length []float64
	total  float64
	// lambda holds the impulses of the last solve (N·s).
	lambda []float64
}

// rigidDamping is the SPOOK relaxation time of the rigid rows (end locks,
// stick), in steps: an ideal constraint has no material damping, and its
// drift is corrected over about two steps ([SL07] §4).
const rigidDamping = 2

// newSegment builds the constraint of the segment that starts at node
// index first of w (a mass node) and ends at the next mass node.
func newSegment(w *Wire, first int) *segment {
	s := &segment{wire: w}
	for i := first; ; i++ {
		n := w.nodes[i]
		s.nodes = append(s.nodes, n)
		if i > first && n.kind == MassNode {
			break
		}
	}
	for k, n := range s.nodes {
		idx := -1
		for j, b := range s.bodies {
			if b == n.body {
				idx = j
				break
			}
		}
		if idx < 0 {
			idx = len(s.bodies)
			s.bodies = append(s.bodies, n.body)
		}
		s.at = append(s.at, idx)
		if n.kind == ContactNode && n.geo.Friction > 0 {
			s.fric = append(s.fric, k)
		}
	}
	m := len(s.nodes)
	s.pos, s.dir, s.length = make([]geom.Vec3, m), make([]geom.Vec3, m-1), make([]float64, m-1)
	s.lambda = make([]float64, 1+len(s.fric))
	return s
}

// rest returns the segment's rest length L (m).
func (s *segment) rest() float64 { return s.nodes[0].rest }

// Bodies implements multibody.Constraint.
func (s *segment) Bodies() []*multibody.Body { return s.bodies }

// Rows implements multibody.Constraint.
func (s *segment) Rows() int { return 1 + len(s.fric) }

// measure evaluates the positions, directions and lengths at the start of
// the step.
func (s *segment) measure() {
	for k, n := range s.nodes {
		s.pos[k] = n.position()
	}
	s.total = 0
	for k := range s.dir {
		s.dir[k], s.length[k] = s.pos[k+1].Sub(s.pos[k]).Unit()
		s.total += s.length[k]
	}
}

// addBlock adds the rate coefficient c (the derivative of a length by the
// position of node k) to node k's body's block: Lin += c, Ang += d × c with
// d the node's lever arm (eq. 15).
func (s *segment) addBlock(row *multibody.Row, k int, c geom.Vec3) {
	j := &row.J[s.at[k]]
	j.Lin = j.Lin.Add(c)
	// A mass node sits on its particle's centre: no lever arm.
	if n := s.nodes[k]; n.kind != MassNode {
		j.Ang = j.Ang.Add(s.pos[k].Sub(n.body.Pos).Cross(c))
	}
}

// coefficient returns ∂(l_0 + … + l_{last−1})/∂p_k for 0 ≤ k ≤ last: the
// rate coefficient of node k in the length up to node last (eqs. 15–17).
func (s *segment) coefficient(k, last int) geom.Vec3 {
	var c geom.Vec3
	if k > 0 && k <= last {
		c = c.Add(s.dir[k-1])
	}
	if k < last {
		c = c.Sub(s.dir[k])
	}
	return c
}

// Update implements multibody.Constraint.
func (s *segment) Update(h float64, rows []multibody.Row) {
	s.measure()
	w := s.wire
	last := len(s.nodes) - 1
	row := &rows[0]
	for k := range s.nodes {
		s.addBlock(row, k, s.coefficient(k, last))
	}
	L := s.rest()
	row.Violation = s.total - L
	row.Compliance = L / w.Rope.AxialStiffness
	row.Damping = w.Rope.DampingTime
	row.Hi = 0 // a wire pulls, never pushes
	for f, k := range s.fric {
		n := s.nodes[k]
		row := &rows[1+f]
		alpha := n.sigma / L
		s1 := 0.0
		for i := 0; i < k; i++ {
			s1 += s.length[i]
		}
		for i := range s.nodes {
			c := s.coefficient(i, last).Scale(-alpha)
			if i <= k {
				c = c.Add(s.coefficient(i, k))
			}
			s.addBlock(row, i, c)
		}
		row.Violation = s1 - alpha*s.total
		before, after := n.sigma, L-n.sigma
		if f > 0 {
			before -= s.nodes[s.fric[f-1]].sigma
		}
		if f+1 < len(s.fric) {
			after = s.nodes[s.fric[f+1]].sigma - n.sigma
		}
		if before > 0 && after > 0 {
			row.Compliance = before * after / ((before + after) * w.Rope.AxialStiffness)
		}
		row.Damping = w.Rope.DampingTime
		n.bound = n.geo.Friction * n.normal * h
		row.Lo, row.Hi = -n.bound, n.bound
	}
}

// tensions writes the tension (N) of every sub-segment for the impulses
// lambda into the nodes that start them: the segment row's −λ/h plus the
// share of each stick row's β (module doc of segment).
func (s *segment) tensions(h float64, lambda []float64) {
	L := s.rest()
	for i := 0; i < len(s.nodes)-1; i++ {
		l := lambda[0]
		for f, k := range s.fric {
			alpha := s.nodes[k].sigma / L
			if i < k {
				l += lambda[1+f] * (1 - alpha)
			} else {
				l -= lambda[1+f] * alpha
			}
		}
		s.nodes[i].tension = -l / h
	}
}

// normalForce returns the force (N) perpendicular to its edge with which
// the wire presses the contact node k onto its edge at the tensions in
// the nodes and the directions of the last Update.
func (s *segment) normalForce(k int) float64 {
	n := s.nodes[k]
	f := s.dir[k].Scale(n.tension).Sub(s.dir[k-1].Scale(s.nodes[k-1].tension))
	_, t, _ := n.geo.edgeLine(n.edge)
	return f.Sub(t.Scale(t.Dot(f))).Norm()
}

// Rebound implements multibody.Rebounding: each stick row's bound is μ
// times its node's normal force from the solve's tensions. The bounds
// change only if one moved, so that a solve that stands was solved with
// the bounds the nodes keep.
func (s *segment) Rebound(h float64, lambda, lo, hi []float64) bool {
	if len(s.fric) == 0 {
		return false
	}
	s.tensions(h, lambda)
	moved := false
	for f, k := range s.fric {
		n := s.nodes[k]
		n.normal = s.normalForce(k)
		bound, old := n.geo.Friction*n.normal*h, hi[1+f]
		// A bound that the row's impulse does not reach changes nothing.
		if math.Abs(bound-old) > 1e-6*math.Max(bound, old) && math.Abs(lambda[1+f]) >= math.Min(bound, old)*(1-1e-9) {
			moved = true
		}
	}
	if !moved {
		return false
	}
	for f, k := range s.fric {
		n := s.nodes[k]
		n.bound = n.geo.Friction * n.normal * h
		lo[1+f], hi[1+f] = -n.bound, n.bound
	}
	return true
}

// Apply implements multibody.Constraint.
func (s *segment) Apply(h float64, lambda []float64) {
	copy(s.lambda, lambda)
	s.tensions(h, lambda)
	for f, k := range s.fric {
		n := s.nodes[k]
		n.normal = s.normalForce(k)
		// At the bound it was solved with: the wire slid through.
		n.sliding = math.Abs(lambda[1+f]) >= n.bound*(1-1e-9)
	}
}

// Tension returns the segment row's tension of the last step (N).
func (s *segment) Tension(h float64) float64 { return -s.lambda[0] / h }
