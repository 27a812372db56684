package hmrwire

import (
	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// PullStiffness returns the stiffness K (N/m) and damping C (N·s/m) of the
// wire's pull F on the bodies carried reports true for, when those bodies
// translate together by δx at δv and everything else holds still (the
// mass nodes, the other bodies, the turning sheaves' spin): δF = K δx +
// C δv. The direct response of the force on a crane's boom tip to the
// boom tip's motion, which co-simulation masters ask for as directional
// derivatives.
//
// A taut segment g = Σ ℓ_k − L (eq. 12) of compliance L/EA and damping
// time τ pulls with T = EA(g + τ ġ)/L along its sub-segments. Moving the
// carried nodes changes g by J·δx, J the sum over the sub-segments with one
// carried end of ±u_k (eqs. 15–17), and turns those sub-segments, so
//
//	K = −Σ_spans (EA/L_s) J_s J_sᵀ − Σ_k T_k (I − u_k u_kᵀ)/ℓ_k,
//	C = −Σ_spans (EA τ/L_s) J_s J_sᵀ,
//
// where a span is the part of the segment between its stick points (a
// frictional run holds the material point at its first node, σ; its
// stick row has the spans' stiffness), of rest length L_s, a whole
// frictionless segment one span. A run that slid in the last step is
// taken as stuck: a small move of its body does not overcome the friction
// that grips the wire on the far side. A slack segment gives nothing.
// Mass nodes locked to a carried body count as carried.
func (w *Wire) PullStiffness(carried func(*multibody.Body) bool) (K, C geom.Mat3) {
	ea, tau := w.ea, w.Rope.DampingTime
	moves := w.carriedBy(carried)
	for _, s := range w.segs {
		s.measure()
		L := s.rest()
		if s.total <= L || L <= 0 {
			continue // slack
		}
		// Span f runs from stick point f − 1 to stick point f: the
		// segment's first node, the runs' first nodes, its last node.
		span, from := 0, 0.0
		var J geom.Vec3
		flush := func(to float64) {
			if ls := to - from; ls > 0 && J != (geom.Vec3{}) {
				addOuter(&K, J, -ea/ls)
				addOuter(&C, J, -ea*tau/ls)
			}
			J, from = geom.Vec3{}, to
		}
		for k := range s.dir {
			for span < len(s.fric) && s.fric[span].first <= k {
				flush(s.nodes[s.fric[span].first].sigma)
				span++
			}
			a, b := moves(s.nodes[k]), moves(s.nodes[k+1])
			if a == b {
				continue
			}
			u, l := s.dir[k], s.length[k]
			if a {
				J = J.Sub(u)
			} else {
				J = J.Add(u)
			}
			if T := s.nodes[k].tension; T > 0 && l > 0 {
				// −T/ℓ (I − u uᵀ)
				addOuter(&K, u, T/l)
				for i := 0; i < 3; i++ {
					K[i][i] -= T / l
				}
			}
		}
		flush(L)
	}
	return K, C
}

// carriedBy returns whether a node is carried by the bodies carried
// reports true for: a contact or eye node on one, or a mass node locked
// to one.
func (w *Wire) carriedBy(carried func(*multibody.Body) bool) func(*node) bool {
	return func(n *node) bool {
		if n.kind == MassNode && n.lock != nil {
			return carried(n.lock.body)
		}
		return n.kind != MassNode && carried(n.body)
	}
}

// Pull returns the force (N) the wire puts on the bodies carried reports
// true for, from its nodes' tensions as they are (as laid, before the
// first step): each piece of wire leaving a carried node pulls it along
// the piece, and a mass node locked to a carried body hangs its weight on
// it (gravity, m/s²).
func (w *Wire) Pull(carried func(*multibody.Body) bool, gravity geom.Vec3) geom.Vec3 {
	moves := w.carriedBy(carried)
	var f geom.Vec3
	for k := 0; k+1 < len(w.nodes); k++ {
		a, b := w.nodes[k], w.nodes[k+1]
		ma, mb := moves(a), moves(b)
		if ma == mb {
			continue
		}
		u, _ := b.position().Sub(a.position()).Unit()
		if mb {
			u = u.Scale(-1)
		}
		f = f.AddScaled(max(a.tension, 0), u)
	}
	for _, n := range w.nodes {
		if n.kind == MassNode && n.lock != nil && carried(n.lock.body) {
			f = f.AddScaled(n.body.Mass, gravity)
		}
	}
	return f
}

// addOuter adds c u uᵀ to m.
func addOuter(m *geom.Mat3, u geom.Vec3, c float64) {
	v := [3]float64{u.X, u.Y, u.Z}
	for i := range v {
		for j := range v {
			m[i][j] += c * v[i] * v[j]
		}
	}
}

// BoomTipStiffness returns the stiffness K (N/m) and damping C (N·s/m) of
// the hoisting system's force on the boom tip to the boom tip's motion,
// its sheaves moving with it (Wire.PullStiffness): the direct response
// before the block, the wire's mass nodes and the sheaves' spin follow.
func (ho *Hoist) BoomTipStiffness() (K, C geom.Mat3) {
	return ho.Wire.PullStiffness(ho.onBoomTip)
}

// onBoomTip reports whether b is the boom tip or one of its sheaves.
func (ho *Hoist) onBoomTip(b *multibody.Body) bool {
	if b == ho.BoomTip {
		return true
	}
	for _, s := range ho.Sheaves {
		if s.Body == b && s.hinge.axle == ho.BoomTip {
			return true
		}
	}
	return false
}

// BoomTipForce returns the force (N) of the whole hoisting system on the
// boom tip: the constraints' of the last step, and before the first the
// force of the system as laid, in its static equilibrium (the wire's pull
// on the boom sheaves and the dead end, the boom sheaves' weight), so
// that a crane coupled at the start feels the load.
func (ho *Hoist) BoomTipForce() geom.Vec3 {
	if ho.Sys.LastStep() > 0 {
		return ho.BoomTip.ConstraintForce
	}
	g := ho.Sys.World.Gravity
	f := ho.Wire.Pull(ho.onBoomTip, g)
	for _, s := range ho.Sheaves {
		if s.hinge.axle == ho.BoomTip {
			f = f.AddScaled(s.Body.Mass, g)
		}
	}
	return f
}
