package hmrwire

import (
	"math"
	"slices"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// refineMargin is how far inside the stability region (as a share of
// f_crit) a refinement must leave every node it touches: the tension may
// double before the new node is coarsened again, so the two transitions
// do not alternate.
const refineMargin = 0.5

// refineClearance is how close (m) to a geometry refinement does not put
// a new mass node: it would sink in and be merged again.
const refineClearance = 0.05

// critical returns f_crit = min(l_a, l_c)·m_b/(4h²) ([SLNB11] eq. 25),
// the tension (N) a node of mass m (kg) between sub-segments la and lc
// (m) carries stably at step h (s).
func critical(la, lc, m, h float64) float64 { return min(la, lc) * m / (4 * h * h) }

// adapt coarsens every free mass node whose tension exceeds f_crit (eq.
// 25), then refines each segment whose tension is low enough that the
// node it adds and its neighbours stay within refineMargin of f_crit
// ([SLNB11] §II-D), within the Resolution's bounds. On a wire that bends,
// a split must not add more bending energy than it takes kinetic energy
// (splitBending), and the bends' moments count in the load (see load).
func (w *Wire) adapt(h float64) {
	if !w.Resolution.Adaptive {
		return
	}
	// Coarsen: the lengths are to the nearest nodes, massless or not.
	for i := 1; i < len(w.nodes)-1; i++ {
		n := w.nodes[i]
		if n.kind != MassNode {
			continue
		}
		p := n.body.Pos
		la := w.nodes[i-1].position().Sub(p).Norm()
		lc := w.nodes[i+1].position().Sub(p).Norm()
		if w.load(i, la, lc) > critical(la, lc, n.body.Mass, h) {
			w.merge(i)
			i--
		}
	}
	// Refine, one split per segment and step.
	mass, _, _ := w.Counts()
	for i := 0; i < len(w.nodes)-1 && mass < w.Resolution.MaxMassNodes; i++ {
		if w.nodes[i].kind != MassNode {
			continue
		}
		// The winch takes in the first free node when its segment is
		// shorter than half its spacing: a split into halves shorter than
		// that would be merged again next step (and the limit switch,
		// which waits for no free node, would never hold).
		if wi := w.Winch; i == 0 && wi != nil && w.nodes[0].rest < wi.Spacing {
			continue
		}
		if w.split(i, h) {
			mass++
			i++ // past the new node's segment start
		}
	}
}

// momentShare is the part of M/l that counts as tension in a node's
// load (see load).
const momentShare = 1.0 / 3

// load returns the force (N) that decides mass node i's stability (eq.
// 25), beside sub-segments of la and lc (m): the larger tension beside
// it, plus, on a wire that bends, momentShare·M/min(l_a, l_c) of the
// largest bending moment M at it and at the mass nodes next to it. The
// rows take the turning of the wire by its tension explicitly, a
// transverse stiffness T(1/l_a + 1/l_c) that eq. 25 bounds; the moments'
// turning of their own rows is explicit alike, a stiffness of order M/l².
// A bent wire of 0.1 m segments at 1/60 s diverged where h²M/(m l²)
// exceeded about 3, that is M/(12 l) beyond f_crit; the load counts
// M/(3 l), four times that margin. (A cantilever of 80 segments under
// PL²/EI = 10 kept well within it, and ran stable without it.)
func (w *Wire) load(i int, la, lc float64) float64 {
	f := max(w.nodes[i-1].tension, w.nodes[i].tension)
	if !(w.ei > 0) {
		return f
	}
	m := w.nodes[i].moment
	if i > 0 {
		m = max(m, w.nodes[w.massBefore(i)].moment)
	}
	if i < len(w.nodes)-1 {
		m = max(m, w.nodes[w.massAfter(i)].moment)
	}
	return f + momentShare*m/min(la, lc)
}

// merge removes the free mass node i by the coarsening rules of
// [SLNB11] eqs. 27–30: its mass goes to the mass nodes a and c before and
// after it in the shares Δ_c = L_c/(L_a + L_c) and Δ_a = 1 − Δ_c (L the
// rest lengths of its two segments: most to the nearer), each with its
// momentum (a wire's fastened end shares it with the body it is fastened
// to, giveEnd), so mass, rest length and momentum are kept (but what a
// static or kinematic anchor takes) and the kinetic energy can only drop
// (the merge is inelastic; against a moving anchor, in the anchor's
// frame).
func (w *Wire) merge(i int) {
	b := w.nodes[i]
	ia, ic := w.massBefore(i), w.massAfter(i)
	a, c := w.nodes[ia], w.nodes[ic]
	La, Lc := a.rest, b.rest
	toA := b.body.Mass * Lc / (La + Lc)
	toC := b.body.Mass - toA
	if d := w.drum(); d != nil && ia == 0 {
		d.takeIn(b.body, toA)
	} else {
		giveEnd(a, b.body, toA)
	}
	giveEnd(c, b.body, toC)
	a.rest = La + Lc
	a.twist += b.twist // twists add as lengths do
	w.nodes = slices.Delete(w.nodes, i, i+1)
	w.sys.World.Remove(func(x *multibody.Body) bool { return x == b.body }, nil)
	w.changed = true
	w.resetStick(ia)
	w.Coarsened++
}

// drum returns the drum the wire is paid out from, or nil.
func (w *Wire) drum() *Drum {
	if w.Winch == nil {
		return nil
	}
	return w.Winch.Drum
}

// materialVel returns the velocity of the wire's material at mass node
// i: the node's, but at the end paid out from a drum, where the node
// stays at the tangent point, the wire's running out along the lead.
func (w *Wire) materialVel(i int) geom.Vec3 {
	v := w.nodes[i].body.Vel
	if d := w.drum(); d != nil && i == 0 {
		lead, _ := w.nodes[1].position().Sub(w.nodes[0].position()).Unit()
		v = v.AddScaled(d.Radius*d.Omega(), lead)
	}
	return v
}

// giveEnd moves mass dm (kg) with the velocity of from into mass node n
// as give does; into a wire's end fastened to a body (its lock) the
// merge is inelastic with that body too: the end and the mass, their
// momentum joined (give), meet the body's point at the lock in one
// impulse j, (I/m + K) j = v − v_lock (m the end's new mass, v its
// velocity, K the body's point response there), after which both move at
// one velocity, as the lock holds them. Momentum is kept, the kinetic
// energy can only drop, and a static or kinematic anchor (K = 0) takes
// the end's momentum beyond its own velocity whole; the body's constraint
// loads of the step include the impulse (reportMerges). Given to the end
// alone, the mass set it moving against its anchor, which the rigid
// lock's stabilization closed over steps while the wire pulled: a
// 1000 kg load snatching its slack wire taut at 1/60 s, 28 nodes merged
// in the step, peaked 22 % below the spring's closed form, and peaks
// 14 % below it so. (Taking the relative velocity up in the lock's rows
// within the coming step instead gave 26 % below.)
func giveEnd(n *node, from *multibody.Body, dm float64) {
	give(n.body, from, dm)
	lk := n.lock
	if lk == nil {
		return
	}
	to, body := n.body, lk.body
	r := body.Rot.Rotate(lk.local)
	a := body.PointResponse(r)
	for i := 0; i < 3; i++ {
		a[i][i] += 1 / to.Mass
	}
	inv, ok := a.Inverse()
	if !ok {
		return // no mass at the end: nothing to meet
	}
	j := inv.MulVec(to.Vel.Sub(body.Vel.Add(body.AngVel.Cross(r))))
	to.Vel = to.Vel.AddScaled(-1/to.Mass, j)
	body.ApplyImpulse(r, j)
	lk.impulse, lk.moment = lk.impulse.Add(j), lk.moment.Add(r.Cross(j))
}

// give moves mass dm (kg) with the velocity of from into to, keeping the
// momentum: v_to ← (m_to v_to + dm v_from)/(m_to + dm) (eqs. 29–30).
func give(to, from *multibody.Body, dm float64) {
	m := to.Mass + dm
	to.Vel = to.Vel.Scale(to.Mass).AddScaled(dm, from.Vel).Scale(1 / m)
	to.Mass = m
}

// split refines the segment starting at mass node i if its tension allows
// (see adapt): a new mass node b at the middle of the segment's length
// splits its rest length in half; b takes from the end nodes a and c the
// mass of wire that their halves of the segment no longer hold, ρL/4 each
// (at most half of theirs), with that mass's momentum, so that b moves
// with v_b = (Δm_a v_a + Δm_c v_c)/(Δm_a + Δm_c) and a and c keep their
// velocities. This keeps mass, rest length and momentum, and cannot add
// kinetic energy (½Δm_a v_a² + ½Δm_c v_c² ≥ ½ m_b v_b²). [SLNB11] eqs.
// 31–36 state the same split of mass; their eq. 35 for v_b is not a
// velocity and is replaced by this one.
func (w *Wire) split(i int, h float64) bool {
	sp := w.splitPoint(i)
	if sp.rest/2 < w.Resolution.MinSegment {
		return false
	}
	a, c, pts, k := w.nodes[i], w.nodes[sp.ic], sp.pts, sp.k
	f := 0.0
	for q := i; q < sp.ic; q++ {
		f = max(f, w.nodes[q].tension)
	}
	if w.ei > 0 {
		// The new node's share of the moments beside it (see load), over
		// the shorter of its reaches.
		f += momentShare * max(a.moment, w.nodes[sp.ic].moment) / min(sp.rest/2, sp.lb+sp.lc)
	}
	dA, dC := sp.shares(w.mu, a, c)
	mb := dA + dC
	if !(mb > 0) || f > refineMargin*critical(sp.lb, sp.lc, mb, h) {
		return false
	}
	// a and c keep their stability with less mass and, next to b, a
	// shorter reach.
	la := pts[1].Sub(pts[0]).Norm()
	if k == 0 {
		la = sp.lb
	}
	if w.endFree(i) && f > refineMargin*critical(la, w.reachBefore(i), a.body.Mass-dA, h) {
		return false
	}
	lcEnd := pts[len(pts)-1].Sub(pts[len(pts)-2]).Norm()
	if k == len(pts)-2 {
		lcEnd = sp.lc
	}
	if w.endFree(sp.ic) && f > refineMargin*critical(lcEnd, w.reachAfter(sp.ic), c.body.Mass-dC, h) {
		return false
	}
	for _, g := range w.sys.Geometries {
		if g.near(sp.p, refineClearance) {
			return false
		}
	}
	if w.ei > 0 && w.splitBending(i, sp) > sp.kineticLoss(w, i) {
		return false
	}
	w.insertSplit(i, sp)
	return true
}

// splitBending returns the bending energy (J) splitting the segment from
// mass node i at sp adds. The new node lies on the segment's straight
// line and bends nothing, and the turns at the segment's ends stay, but
// their shares ℓ̄ of the wire shrink by a quarter of the segment each
// (see bend): a bent wire's energy EI θ²/(2ℓ̄) at its ends rises.
func (w *Wire) splitBending(i int, sp splitting) float64 {
	e := 0.0
	for _, end := range [2]int{i, sp.ic} {
		theta, arm := w.turn(end)
		if arm > 0 && !w.nodes[end].unbent {
			e += w.ei * theta * theta / 2 * (1/(arm-sp.rest/4) - 1/arm)
		}
	}
	return e
}

// turn returns the wire's turn (rad) at mass node i and its share ℓ̄
// (m) of the wire (see bend), ℓ̄ = 0 where it does not bend (an end
// that is not clamped).
func (w *Wire) turn(i int) (theta, arm float64) {
	last := len(w.nodes) - 1
	var a, c geom.Vec3
	switch {
	case i == 0 && w.clampFirst == nil, i == last && w.clampLast == nil:
		return 0, 0
	case i == 0:
		a = w.nodes[0].lock.body.Rot.Rotate(*w.clampFirst)
	default:
		a, _ = w.nodes[i].position().Sub(w.nodes[i-1].position()).Unit()
		arm += w.nodes[w.massBefore(i)].rest / 2
	}
	if i == last {
		c = w.nodes[last].lock.body.Rot.Rotate(*w.clampLast)
	} else {
		c, _ = w.nodes[i+1].position().Sub(w.nodes[i].position()).Unit()
		arm += w.nodes[i].rest / 2
	}
	return math.Atan2(a.Cross(c).Norm(), a.Dot(c)), arm
}

// kineticLoss returns the kinetic energy (J) the split sp of the segment
// from mass node i takes from the wire: the new node moves with the mean
// velocity of the masses it takes from the ends, ½ Δm_a Δm_c/(Δm_a + Δm_c)
// |v_a − v_c|².
func (sp *splitting) kineticLoss(w *Wire, i int) float64 {
	dA, dC := sp.shares(w.mu, w.nodes[i], w.nodes[sp.ic])
	dv := w.materialVel(i).Sub(w.nodes[sp.ic].body.Vel)
	return dA * dC / (dA + dC) * dv.Dot(dv) / 2
}

// splitAt splits the segment starting at mass node i at the middle of its
// length, whatever its tension (the winch putting out wire at its
// spacing, without adaptive resolution).
func (w *Wire) splitAt(i int) { w.insertSplit(i, w.splitPoint(i)) }

// splitting is where a segment would be split.
type splitting struct {
	ic   int         // index of the segment's last (mass) node
	rest float64     // the segment's rest length L (m)
	pts  []geom.Vec3 // the segment's node positions
	k    int         // the new node goes between pts[k] and pts[k+1]
	p    geom.Vec3   // at p, the middle of the segment's length
	lb   float64     // from pts[k] to p (m)
	lc   float64     // from p to pts[k+1] (m)
}

// splitPoint returns where the segment starting at mass node i splits.
func (w *Wire) splitPoint(i int) splitting {
	ic := w.massAfter(i)
	sp := splitting{ic: ic, rest: w.nodes[i].rest, pts: make([]geom.Vec3, ic-i+1)}
	total := 0.0
	for k := i; k <= ic; k++ {
		sp.pts[k-i] = w.nodes[k].position()
		if k > i {
			total += sp.pts[k-i].Sub(sp.pts[k-i-1]).Norm()
		}
	}
	half, run := total/2, 0.0
	k := 0
	for ; k < len(sp.pts)-2; k++ {
		if l := sp.pts[k+1].Sub(sp.pts[k]).Norm(); run+l >= half {
			break
		} else {
			run += l
		}
	}
	dir, l := sp.pts[k+1].Sub(sp.pts[k]).Unit()
	along := min(max(half-run, 0), l)
	sp.k, sp.p, sp.lb, sp.lc = k, sp.pts[k].AddScaled(along, dir), along, l-along
	return sp
}

// shares returns the masses (kg) the new node takes from the end nodes a
// and c: ρL/4 each, at most half of theirs.
func (sp *splitting) shares(rho float64, a, c *node) (dA, dC float64) {
	return min(rho*sp.rest/4, a.body.Mass/2), min(rho*sp.rest/4, c.body.Mass/2)
}

// insertSplit puts the new mass node of sp into the segment starting at
// mass node i (see split).
func (w *Wire) insertSplit(i int, sp splitting) {
	a, c := w.nodes[i], w.nodes[sp.ic]
	dA, dC := sp.shares(w.mu, a, c)
	mb := dA + dC
	b := &node{kind: MassNode, body: multibody.NewParticle(w.Name, mb, sp.p)}
	b.body.Vel = w.materialVel(i).Scale(dA).AddScaled(dC, c.body.Vel).Scale(1 / mb)
	a.body.Mass -= dA
	c.body.Mass -= dC
	L := sp.rest
	b.rest, a.rest = L-L/2, L/2
	b.twist, a.twist = a.twist-a.twist/2, a.twist/2
	b.tension = w.nodes[i+sp.k].tension
	w.nodes = slices.Insert(w.nodes, i+sp.k+1, b)
	w.sys.World.AddBody(b.body)
	w.changed = true
	w.resetStick(i)
	w.resetStick(i + sp.k + 1)
	w.Refined++
}

// endFree reports whether mass node i is subject to the stability
// criterion: not an end held by a lock.
func (w *Wire) endFree(i int) bool { return w.nodes[i].lock == nil }

// reachBefore returns the length (m) of the sub-segment ending at node i,
// +Inf at the wire's start.
func (w *Wire) reachBefore(i int) float64 {
	if i == 0 {
		return math.Inf(1)
	}
	return w.nodes[i].position().Sub(w.nodes[i-1].position()).Norm()
}

// reachAfter returns the length (m) of the sub-segment starting at node
// i, +Inf at the wire's end.
func (w *Wire) reachAfter(i int) float64 {
	if i == len(w.nodes)-1 {
		return math.Inf(1)
	}
	return w.nodes[i+1].position().Sub(w.nodes[i].position()).Norm()
}
