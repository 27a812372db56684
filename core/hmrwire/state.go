package hmrwire

import (
	"errors"
	"fmt"
	"slices"

	"github.com/cablefmu/cablefmu/core/contact"
	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
	"github.com/cablefmu/cablefmu/core/state"
)

// The state of a System is its wires' nodes (whose number changes with
// the resolution and the contacts), the order of the world's bodies and
// constraints (which the solver's ordering follows: a restored system must
// lay its rows out as the saved one did to continue bitwise), the world's
// state, and the active set's rows for the next solve.

// stateVersion starts every saved state.
const stateVersion = 7

// Codes of the world's bodies and constraints in a saved state: an
// external one (not the wires') by its index among those, a wire's by
// wire and node index.
const (
	codeExternal = iota
	codeParticle
	codeLock
	codeSegment
	codeGround // a free mass node's contact with the wire's ground
	codeTouch  // a free end's contact with a geometry (touch)
)

// ErrState reports a state that does not fit the system.
var ErrState = errors.New("invalid HMR wire state")

// Bounds of what a state may hold: nodes per wire, bodies and constraints
// of the world.
const (
	maxStateNodes   = 1 << 24
	maxStateEntries = 1 << 26
)

// image is the System's own part of a state as plain numbers and
// indices: SaveState fills it from the system and saves it, LoadState
// loads it (every number checked first), checks it against the system and
// only then rebuilds the wires and the world's lists from it. Its State
// method is the one walk both run.
type image struct {
	lastH float64
	means []meanImage
	wires []wireImage
	// bodies and cons are the world's order of bodies and constraints.
	bodies, cons []entry
}

// meanImage is a StepMean's last step.
type meanImage struct {
	valid bool
	mean  []float64
}

type wireImage struct {
	coarsened, refined    int
	known, changed        bool
	winchSpeed, winchRate float64 // with a winch
	nodes                 []nodeImage
}

// nodeImage is a node; body is the index of an eye node's body or a
// mass node's lock's body in the saved world's order, geo a contact node's
// geometry, touches the geometries a free end touches (in its order).
type nodeImage struct {
	kind                        int
	rest, tension, sigma, bound float64
	moment, twist               float64
	sliding, locked, unbent     bool
	braced                      bool
	body, geo, edge             int
	local                       geom.Vec3 // an eye's, contact's or lock's point (m)
	s                           float64   // a contact node's place on its edge (m)
	touches                     []int
}

// entry is a body or constraint of the world's order: an external one
// (code codeExternal, a its index among those) or a wire's (a the wire, b
// the node).
type entry struct{ code, a, b int }

// State walks the image for a system whose wires have winches where
// winch says and whose step means have the lengths means says.
func (im *image) State(c *state.Codec, winch []bool, means []int) {
	c.Fixed("HMR wire state version", stateVersion)
	c.NonNegative("last step (s)", &im.lastH)
	c.Fixed("step means", len(means))
	if !c.Saving() {
		im.means = make([]meanImage, len(means))
	}
	for i := range im.means {
		m := &im.means[i]
		c.Flag("step mean valid", &m.valid)
		if !c.Saving() {
			m.mean = make([]float64, means[i])
		}
		for k := range m.mean {
			c.Float("step mean", &m.mean[k])
		}
	}
	c.Fixed("wires", len(winch))
	if !c.Saving() {
		im.wires = make([]wireImage, len(winch))
	}
	for wi := range im.wires {
		w := &im.wires[wi]
		n := len(w.nodes)
		n = c.Items("node count", 10, &n) // a node is at least 10 numbers
		c.Count("coarsenings", &w.coarsened)
		c.Count("refinements", &w.refined)
		c.Flag("tension known", &w.known)
		c.Flag("wire changed", &w.changed)
		if winch[wi] {
			c.Bounded("winch speed", "m/s", &w.winchSpeed)
			c.Bounded("winch rate", "m/s", &w.winchRate)
		}
		c.Check(n >= 2, "wire %d has %d nodes", wi, n)
		if !c.Saving() {
			w.nodes = make([]nodeImage, n)
		}
		first, last := MassNode, MassNode
		for i := range w.nodes {
			k := walkNode(c, &w.nodes[i])
			if i == 0 {
				first = k
			}
			last = k
		}
		c.Check(first == MassNode && last == MassNode, "wire %d: its ends are not mass nodes", wi)
	}
	im.bodies = walkEntries(c, "body", im.bodies, codeExternal, codeParticle)
	im.cons = walkEntries(c, "constraint", im.cons, codeExternal, codeLock, codeSegment, codeGround, codeTouch)
}

// walkNode walks a node and returns its kind (the fields are assigned
// only by a load's second pass; the first checks what it reads).
func walkNode(c *state.Codec, n *nodeImage) Kind {
	kind := Kind(c.Index("node kind", 3, &n.kind))
	c.Range("node rest length", "m", 0, state.Limit, &n.rest)
	c.Float("node tension (N)", &n.tension)
	c.NonNegative("node bending moment (N·m)", &n.moment)
	c.Float("node twist (rad)", &n.twist)
	c.Flag("node bend left out", &n.unbent)
	c.Flag("node bend braced", &n.braced)
	c.Range("node arc length", "m", 0, state.Limit, &n.sigma)
	c.NonNegative("node friction bound (N·s)", &n.bound)
	c.Flag("node sliding", &n.sliding)
	switch kind {
	case MassNode:
		if c.Flag("node locked", &n.locked) {
			c.Index("lock body", maxStateEntries, &n.body)
			c.Point("lock attachment", &n.local)
			break
		}
		k := len(n.touches)
		k = c.Items("node end contacts", 1, &k)
		if !c.Saving() {
			n.touches = make([]int, k)
		}
		for i := range n.touches {
			c.Index("end contact geometry", maxStateEntries, &n.touches[i])
		}
	case EyeNode:
		c.Index("eye body", maxStateEntries, &n.body)
		c.Point("eye attachment", &n.local)
	case ContactNode:
		c.Index("contact geometry", maxStateEntries, &n.geo)
		c.Index("contact edge", maxStateEntries, &n.edge)
		c.Bounded("contact edge position", "m", &n.s)
		c.Point("contact point", &n.local)
	}
	return kind
}

// walkEntries walks a list of the world's order, each entry a code of
// codes and two indices.
func walkEntries(c *state.Codec, what string, es []entry, codes ...int) []entry {
	defer c.Back(c.Of(what, ""))
	n := len(es)
	n = c.Items("count", 3, &n) // code and two indices
	if !c.Saving() {
		es = make([]entry, n)
	}
	for k := range es {
		e := &es[k]
		code := c.Index("code", codeTouch+1, &e.code)
		if !slices.Contains(codes, code) {
			c.Refuse("%s %d has code %d", what, k, code)
		}
		c.Index("index", maxStateEntries, &e.a)
		c.Index("node", maxStateNodes, &e.b)
	}
	return es
}

// walker binds an image to the system's winches and step means for the
// codec.
type walker struct {
	im    *image
	winch []bool
	means []int
}

func (w walker) State(c *state.Codec) { w.im.State(c, w.winch, w.means) }

// walker returns the walker of im for the system.
func (sys *System) walker(im *image) walker {
	means := make([]int, len(sys.means))
	for i, m := range sys.means {
		means[i] = len(m.mean)
	}
	return walker{im, sys.winches(), means}
}

func (sys *System) winches() []bool {
	winch := make([]bool, len(sys.Wires))
	for i, w := range sys.Wires {
		winch[i] = w.Winch != nil
	}
	return winch
}

// SaveState appends the system's state to dst; LoadState restores it
// into a system built the same way (the same bodies, geometries and
// wires added in the same order), at any resolution.
func (sys *System) SaveState(dst []float64) []float64 {
	dst = state.Save(dst, sys.walker(sys.image()))
	dst = sys.World.SaveState(dst)
	return state.Save(dst, sys.active.Warm(sys.World))
}

// image returns the system's own state.
func (sys *System) image() *image {
	im := &image{lastH: sys.lastH, wires: make([]wireImage, len(sys.Wires))}
	for _, m := range sys.means {
		im.means = append(im.means, meanImage{m.valid, m.mean})
	}
	geoIndex := make(map[*Geometry]int, len(sys.Geometries))
	for i, g := range sys.Geometries {
		geoIndex[g] = i
	}
	bodies := sys.World.Bodies()
	bodyIndex := make(map[*multibody.Body]int, len(bodies))
	for i, b := range bodies {
		bodyIndex[b] = i
	}
	particle := map[*multibody.Body][2]int{}
	lockAt := map[multibody.Constraint][2]int{}
	segAt := map[multibody.Constraint][2]int{}
	groundAt := map[multibody.Constraint][2]int{}
	touchAt := map[multibody.Constraint][2]int{}
	for wi, w := range sys.Wires {
		wm := &im.wires[wi]
		wm.coarsened, wm.refined, wm.known, wm.changed = w.Coarsened, w.Refined, w.known, w.changed
		if w.Winch != nil {
			wm.winchSpeed, wm.winchRate = w.Winch.speed, w.Winch.rate
		}
		for i, n := range w.nodes {
			nm := nodeImage{kind: int(n.kind), rest: n.rest, tension: n.tension, moment: n.moment, twist: n.twist, unbent: n.unbent, braced: n.braced, sigma: n.sigma, bound: n.bound, sliding: n.sliding}
			switch n.kind {
			case MassNode:
				particle[n.body] = [2]int{wi, i}
				if n.ground != nil {
					groundAt[n.ground] = [2]int{wi, i}
				}
				for _, t := range n.touches {
					touchAt[t] = [2]int{wi, i}
					nm.touches = append(nm.touches, geoIndex[t.geo])
				}
				if n.lock != nil {
					lockAt[n.lock] = [2]int{wi, i}
					nm.locked, nm.body, nm.local = true, bodyIndex[n.lock.body], n.lock.local
				}
			case EyeNode:
				nm.body, nm.local = bodyIndex[n.body], n.local
			case ContactNode:
				nm.geo, nm.edge, nm.s, nm.local = geoIndex[n.geo], n.edge, n.s, n.local
			}
			wm.nodes = append(wm.nodes, nm)
		}
		for _, s := range w.segs {
			segAt[s] = [2]int{wi, sys.nodeIndex(w, s.nodes[0])}
		}
	}
	ext := 0
	for _, b := range bodies {
		if at, ok := particle[b]; ok {
			im.bodies = append(im.bodies, entry{codeParticle, at[0], at[1]})
		} else {
			im.bodies = append(im.bodies, entry{codeExternal, ext, 0})
			ext++
		}
	}
	ext = 0
	for _, c := range sys.World.Constraints() {
		if at, ok := lockAt[c]; ok {
			im.cons = append(im.cons, entry{codeLock, at[0], at[1]})
		} else if at, ok := segAt[c]; ok {
			im.cons = append(im.cons, entry{codeSegment, at[0], at[1]})
		} else if at, ok := groundAt[c]; ok {
			im.cons = append(im.cons, entry{codeGround, at[0], at[1]})
		} else if at, ok := touchAt[c]; ok {
			im.cons = append(im.cons, entry{codeTouch, at[0], at[1]})
		} else {
			im.cons = append(im.cons, entry{codeExternal, ext, 0})
			ext++
		}
	}
	return im
}

// nodeIndex returns the index of n in w.
func (sys *System) nodeIndex(w *Wire, n *node) int {
	for i, m := range w.nodes {
		if m == n {
			return i
		}
	}
	return -1
}

// LoadState restores a state saved by SaveState and returns what follows
// it in src. On error the system is unchanged.
func (sys *System) LoadState(src []float64) ([]float64, error) {
	return sys.load(src, false)
}

// LoadStateAll is LoadState of a state that must end where the system's
// does: one with values left over is refused too, the system unchanged.
func (sys *System) LoadStateAll(src []float64) error {
	_, err := sys.load(src, true)
	return err
}

func (sys *System) load(src []float64, whole bool) ([]float64, error) {
	im := &image{}
	rest, err := state.Load(src, sys.walker(im))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", err, ErrState)
	}
	if sys.sameLayout(im) {
		return sys.loadInPlace(im, rest, whole)
	}
	r, err := sys.rebuild(im)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", err, ErrState)
	}
	old := sys.saveLists()
	r.apply(sys)
	rest, err = sys.World.LoadState(rest)
	if err == nil {
		rest, err = state.Load(rest, sys.active.Warm(sys.World))
	}
	if err == nil && whole && len(rest) != 0 {
		err = leftOver(len(rest))
	}
	if err != nil {
		old.restore(sys)
		return nil, fmt.Errorf("%w: %w", err, ErrState)
	}
	sys.lastH = im.lastH
	for i, m := range sys.means {
		m.valid = im.means[i].valid
		copy(m.mean, im.means[i].mean)
	}
	return rest, nil
}

// leftOver is the error of a state with n values after the system's.
func leftOver(n int) error { return fmt.Errorf("state: %d values after the HMR wire system's", n) }

// sameLayout reports whether a loaded image lays the system out as it is:
// the same nodes of the same kinds on the same bodies, geometries and
// edges, bent where they are, and the world's bodies and constraints in
// the same order. Such a state loads into the system's own objects
// (loadInPlace) and the world keeps its solver's analysis, as a master
// that iterates a communication step restores the state it saved at its
// start; any other is rebuilt.
func (sys *System) sameLayout(im *image) bool {
	cur := sys.image()
	if len(cur.wires) != len(im.wires) || !slices.Equal(cur.bodies, im.bodies) || !slices.Equal(cur.cons, im.cons) {
		return false
	}
	for wi := range cur.wires {
		a, b := &cur.wires[wi], &im.wires[wi]
		if a.changed != b.changed || len(a.nodes) != len(b.nodes) {
			return false
		}
		for i := range a.nodes {
			p, q := &a.nodes[i], &b.nodes[i]
			if p.kind != q.kind || p.locked != q.locked || p.unbent != q.unbent || p.braced != q.braced ||
				p.body != q.body || p.geo != q.geo || p.edge != q.edge || !slices.Equal(p.touches, q.touches) {
				return false
			}
		}
	}
	return true
}

// loadInPlace loads an image of the system's own layout (sameLayout) and
// the world's state and active set that follow it in src into the
// system's objects, every number checked (and, whole, that nothing
// follows) before any is assigned; it returns what follows.
func (sys *System) loadInPlace(im *image, src []float64, whole bool) ([]float64, error) {
	for wi, w := range sys.Wires {
		for i, nm := range im.wires[wi].nodes {
			if nm.kind != int(ContactNode) {
				continue
			}
			// As rebuild checks it: a contact slides along its edge, and
			// between a step and the next contact update it may have
			// passed an end, not by another edge's length.
			g := w.nodes[i].geo.Shape
			e := g.edges[nm.edge]
			if l := g.verts[e.B].Sub(g.verts[e.A]).Norm(); !(nm.s >= -l && nm.s <= 2*l) {
				return nil, fmt.Errorf("wire %q: contact %g m along an edge of %g m: %w", w.Name, nm.s, l, ErrState)
			}
		}
	}
	rest, err := state.Check(src, sys.World)
	if err == nil {
		rest, err = state.Check(rest, sys.active.Warm(sys.World))
	}
	if err == nil && whole && len(rest) != 0 {
		err = leftOver(len(rest))
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", err, ErrState)
	}
	for wi, w := range sys.Wires {
		wm := &im.wires[wi]
		w.Coarsened, w.Refined, w.known, w.changed = wm.coarsened, wm.refined, wm.known, wm.changed
		if w.Winch != nil {
			w.Winch.speed, w.Winch.rate = wm.winchSpeed, wm.winchRate
		}
		for i, nm := range wm.nodes {
			n := w.nodes[i]
			n.rest, n.tension, n.moment, n.twist, n.sigma, n.bound, n.sliding = nm.rest, nm.tension, nm.moment, nm.twist, nm.sigma, nm.bound, nm.sliding
			switch n.kind {
			case MassNode:
				if n.lock != nil {
					n.lock.local = nm.local
				}
			case EyeNode:
				n.local = nm.local
			case ContactNode:
				n.s, n.local = nm.s, nm.local
			}
		}
	}
	sys.lastH = im.lastH
	for i, m := range sys.means {
		m.valid = im.means[i].valid
		copy(m.mean, im.means[i].mean)
	}
	sys.World.Reevaluate()
	// Checked above: neither load can refuse.
	after, err := sys.World.LoadState(src)
	if err == nil {
		_, err = state.Load(after, sys.active.Warm(sys.World))
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", err, ErrState)
	}
	return rest, nil
}

// rebuilt is a loaded image turned into the system's objects, not yet in
// the system: each wire's nodes, the world's bodies and constraints in
// order, and each wire's state.
type rebuilt struct {
	wires  []wireImage
	nodes  [][]*node
	bodies []*multibody.Body
	cons   []conRef
}

// conRef is a constraint of a rebuilt order: an external constraint or a
// lock, or else the segment from node seg[1] of wire seg[0] (made once
// the wires hold their new nodes).
type conRef struct {
	c   multibody.Constraint
	seg [2]int
}

// key identifies the constraint among the order's.
func (r conRef) key() any {
	if r.c != nil {
		return r.c
	}
	return r.seg
}

// rebuild turns an image into the system's objects, checking that it fits
// the system: every index within what the system has, and the order lists
// naming every external body and constraint and every mass node's particle
// exactly once, and a lock or segment at most once (a wire rebuilds its
// segments after a change of resolution, so a state may hold fewer): a
// forged list would drop or double a body or constraint of the world. The
// system is not changed.
func (sys *System) rebuild(im *image) (*rebuilt, error) {
	particles := map[*multibody.Body]bool{}
	ownC := map[multibody.Constraint]bool{}
	for _, w := range sys.Wires {
		for _, n := range w.nodes {
			if n.kind == MassNode {
				particles[n.body] = true
			}
		}
		for _, s := range w.segs {
			ownC[s] = true
		}
		for _, l := range w.locks {
			ownC[l] = true
		}
		for _, g := range w.grounds {
			ownC[g] = true
		}
		for _, t := range w.touches {
			ownC[t] = true
		}
	}
	var extBodies []*multibody.Body
	for _, b := range sys.World.Bodies() {
		if !particles[b] {
			extBodies = append(extBodies, b)
		}
	}
	var extCons []multibody.Constraint
	for _, c := range sys.World.Constraints() {
		if !ownC[c] {
			extCons = append(extCons, c)
		}
	}
	r := &rebuilt{wires: im.wires, nodes: make([][]*node, len(sys.Wires))}
	// The nodes first, their bodies named by the saved order below.
	for wi, w := range sys.Wires {
		for _, nm := range im.wires[wi].nodes {
			n := &node{kind: Kind(nm.kind), rest: nm.rest, tension: nm.tension, moment: nm.moment, twist: nm.twist, unbent: nm.unbent, braced: nm.braced, sigma: nm.sigma, bound: nm.bound, sliding: nm.sliding}
			switch n.kind {
			case MassNode:
				n.body = multibody.NewParticle(w.Name, 0, geom.Vec3{})
			case ContactNode:
				if nm.geo >= len(sys.Geometries) {
					return nil, fmt.Errorf("wire %q: contact on geometry %d of %d", w.Name, nm.geo, len(sys.Geometries))
				}
				n.geo = sys.Geometries[nm.geo]
				n.body = n.geo.Body
				if nm.edge >= len(n.geo.Shape.edges) {
					return nil, fmt.Errorf("wire %q: contact on edge %d of %d", w.Name, nm.edge, len(n.geo.Shape.edges))
				}
				// A contact slides along its edge; between a step and the
				// next contact update it may have passed an end, not by
				// another edge's length.
				e := n.geo.Shape.edges[nm.edge]
				if l := n.geo.Shape.verts[e.B].Sub(n.geo.Shape.verts[e.A]).Norm(); !(nm.s >= -l && nm.s <= 2*l) {
					return nil, fmt.Errorf("wire %q: contact %g m along an edge of %g m", w.Name, nm.s, l)
				}
				n.edge, n.s, n.local = nm.edge, nm.s, nm.local
			}
			r.nodes[wi] = append(r.nodes[wi], n)
		}
	}
	wireNode := func(what string, wi, i int) (*node, error) {
		if wi >= len(r.nodes) || i >= len(r.nodes[wi]) {
			return nil, fmt.Errorf("%s names node %d of wire %d, which the state does not have", what, i, wi)
		}
		return r.nodes[wi][i], nil
	}
	for k, e := range im.bodies {
		switch e.code {
		case codeExternal:
			if e.a >= len(extBodies) {
				return nil, fmt.Errorf("body %d is external body %d of %d", k, e.a, len(extBodies))
			}
			r.bodies = append(r.bodies, extBodies[e.a])
		case codeParticle:
			n, err := wireNode("body", e.a, e.b)
			if err != nil {
				return nil, err
			}
			if n.kind != MassNode {
				return nil, fmt.Errorf("body %d is no mass node", k)
			}
			r.bodies = append(r.bodies, n.body)
		}
	}
	// Eye nodes and locks name their bodies in the saved order: bodies of
	// the world's own, not a wire's particles.
	particle := map[*multibody.Body]bool{}
	for _, nodes := range r.nodes {
		for _, n := range nodes {
			if n.kind == MassNode {
				particle[n.body] = true
			}
		}
	}
	for wi, w := range sys.Wires {
		for i, nm := range im.wires[wi].nodes {
			n := r.nodes[wi][i]
			if n.kind == ContactNode || n.kind == MassNode && !nm.locked {
				continue
			}
			if nm.body >= len(r.bodies) || particle[r.bodies[nm.body]] {
				return nil, fmt.Errorf("wire %q: node %d on body %d, which is no body of the world's own", w.Name, i, nm.body)
			}
			if n.kind == EyeNode {
				n.body, n.local = r.bodies[nm.body], nm.local
			} else {
				n.lock = &lock{particle: n.body, body: r.bodies[nm.body], local: nm.local}
			}
		}
	}
	for k, e := range im.cons {
		if e.code == codeExternal {
			if e.a >= len(extCons) {
				return nil, fmt.Errorf("constraint %d is external constraint %d of %d", k, e.a, len(extCons))
			}
			r.cons = append(r.cons, conRef{c: extCons[e.a]})
			continue
		}
		n, err := wireNode("constraint", e.a, e.b)
		if err != nil {
			return nil, err
		}
		switch {
		case n.kind != MassNode || e.code == codeLock && n.lock == nil:
			return nil, fmt.Errorf("constraint %d does not fit its node", k)
		case e.code == codeLock:
			r.cons = append(r.cons, conRef{c: n.lock})
		case e.code == codeGround:
			w := sys.Wires[e.a]
			if w.ground == nil || n.lock != nil || n.ground != nil {
				return nil, fmt.Errorf("constraint %d: a ground contact the node cannot have", k)
			}
			n.ground = w.groundContact(n)
			r.cons = append(r.cons, conRef{c: n.ground})
		case e.code == codeTouch:
			// The node's k-th touch in the order is the k-th of its image.
			geos := im.wires[e.a].nodes[e.b].touches
			j := len(n.touches)
			if n.lock != nil || e.b != 0 && e.b != len(r.nodes[e.a])-1 || j >= len(geos) {
				return nil, fmt.Errorf("constraint %d: an end contact the node cannot have", k)
			}
			if geos[j] >= len(sys.Geometries) || n.touching(sys.Geometries[geos[j]]) {
				return nil, fmt.Errorf("constraint %d: an end contact with geometry %d of %d, or twice with one", k, geos[j], len(sys.Geometries))
			}
			n.touches = append(n.touches, newTouch(sys.Geometries[geos[j]], n.body))
			r.cons = append(r.cons, conRef{c: n.touches[j]})
		case e.b == len(r.nodes[e.a])-1:
			return nil, fmt.Errorf("a segment starts at wire %q's last node", sys.Wires[e.a].Name)
		default:
			r.cons = append(r.cons, conRef{seg: [2]int{e.a, e.b}})
		}
	}
	// Every end contact a node has is in the world: a wire takes them on
	// and drops them in the step that rebuilds its rows.
	for wi, w := range sys.Wires {
		for i, n := range r.nodes[wi] {
			if want := len(im.wires[wi].nodes[i].touches); len(n.touches) != want {
				return nil, fmt.Errorf("wire %q: %d of node %d's %d end contacts in the state's order", w.Name, len(n.touches), i, want)
			}
		}
	}
	// A wire that has stepped since its nodes changed has every segment
	// (one from each mass node but the last) and every lock in the world.
	for wi, w := range sys.Wires {
		if im.wires[wi].changed {
			continue // the next step rebuilds them
		}
		segs, locks := map[int]bool{}, 0
		for _, c := range r.cons {
			if c.c == nil && c.seg[0] == wi {
				segs[c.seg[1]] = true
			}
		}
		nodes := r.nodes[wi]
		for i, n := range nodes {
			if n.kind == MassNode && i < len(nodes)-1 && !segs[i] {
				return nil, fmt.Errorf("wire %q: the segment from node %d is missing from the state's order", w.Name, i)
			}
			if n.lock != nil {
				locks++
			}
		}
		listed := 0
		for _, c := range r.cons {
			if l, ok := c.c.(*lock); ok && l.particle != nil {
				for _, n := range nodes {
					if n.lock == l {
						listed++
					}
				}
			}
		}
		if listed != locks {
			return nil, fmt.Errorf("wire %q: %d of its %d locks in the state's order", w.Name, listed, locks)
		}
	}
	seenBody := map[*multibody.Body]bool{}
	for _, b := range r.bodies {
		if seenBody[b] {
			return nil, fmt.Errorf("body %s twice in the state's order", b.Name)
		}
		seenBody[b] = true
	}
	seenCon := map[any]bool{}
	for _, c := range r.cons {
		if seenCon[c.key()] {
			return nil, errors.New("a constraint twice in the state's order")
		}
		seenCon[c.key()] = true
	}
	missing := 0
	for _, b := range extBodies {
		if !seenBody[b] {
			missing++
		}
	}
	for _, c := range extCons {
		if !seenCon[c] {
			missing++
		}
	}
	for _, nodes := range r.nodes {
		for _, n := range nodes {
			if n.kind == MassNode && !seenBody[n.body] {
				missing++
			}
		}
	}
	if missing > 0 {
		return nil, fmt.Errorf("the state's order lists miss %d of the system's bodies and constraints", missing)
	}
	return r, nil
}

// apply puts a rebuilt state into the system: the wires' nodes and
// counts, the world's bodies and constraints in the saved order. The
// world's state then fills the particles in.
func (r *rebuilt) apply(sys *System) {
	for wi, w := range sys.Wires {
		wm := &r.wires[wi]
		w.nodes, w.Coarsened, w.Refined, w.known, w.changed = r.nodes[wi], wm.coarsened, wm.refined, wm.known, wm.changed
		if w.Winch != nil {
			w.Winch.speed, w.Winch.rate = wm.winchSpeed, wm.winchRate
		}
		w.segs, w.locks, w.grounds, w.touches = w.segs[:0], w.locks[:0], w.grounds[:0], w.touches[:0]
	}
	sys.World.Remove(func(*multibody.Body) bool { return true }, func(multibody.Constraint) bool { return true })
	for _, b := range r.bodies {
		sys.World.AddBody(b)
	}
	for _, c := range r.cons {
		if c.c == nil {
			c.c = newSegment(sys.Wires[c.seg[0]], c.seg[1])
		}
		sys.World.AddConstraint(c.c)
	}
	for _, w := range sys.Wires {
		w.relist()
	}
}

// relist collects the wire's constraints from the world after a restore,
// its segments in the wire's order (the winch reels the first).
func (w *Wire) relist() {
	at := make(map[*node]int, len(w.nodes))
	for i, n := range w.nodes {
		at[n] = i
	}
	for _, c := range w.sys.World.Constraints() {
		switch c := c.(type) {
		case *segment:
			if c.wire == w {
				w.segs = append(w.segs, c)
			}
		case *lock:
			for _, n := range w.nodes {
				if n.lock == c {
					w.locks = append(w.locks, c)
				}
			}
		case *contact.Contact:
			for _, n := range w.nodes {
				if n.ground == c {
					w.grounds = append(w.grounds, c)
				}
			}
		case *touch:
			for _, n := range w.nodes {
				if slices.Contains(n.touches, c) {
					w.touches = append(w.touches, c)
				}
			}
		}
	}
	slices.SortStableFunc(w.segs, func(a, b *segment) int { return at[a.nodes[0]] - at[b.nodes[0]] })
}

// lists is what LoadState replaces, kept to undo a failed restore.
type lists struct {
	bodies []*multibody.Body
	cons   []multibody.Constraint
	wires  []wireLists
	state  []float64
	warm   []float64
}

type wireLists struct {
	nodes                 []*node
	segs                  []*segment
	locks                 []*lock
	grounds               []*contact.Contact
	touches               []*touch
	coarsened, refined    int
	known, changed        bool
	winchSpeed, winchRate float64
}

func (sys *System) saveLists() *lists {
	l := &lists{
		bodies: append([]*multibody.Body(nil), sys.World.Bodies()...),
		cons:   append([]multibody.Constraint(nil), sys.World.Constraints()...),
		state:  sys.World.SaveState(nil),
		warm:   state.Save(nil, sys.active.Warm(sys.World)),
	}
	for _, w := range sys.Wires {
		wl := wireLists{nodes: append([]*node(nil), w.nodes...), segs: append([]*segment(nil), w.segs...),
			locks: append([]*lock(nil), w.locks...), grounds: append([]*contact.Contact(nil), w.grounds...),
			touches: append([]*touch(nil), w.touches...), coarsened: w.Coarsened, refined: w.Refined, known: w.known, changed: w.changed}
		if w.Winch != nil {
			wl.winchSpeed, wl.winchRate = w.Winch.speed, w.Winch.rate
		}
		l.wires = append(l.wires, wl)
	}
	return l
}

func (l *lists) restore(sys *System) {
	sys.World.Remove(func(*multibody.Body) bool { return true }, func(multibody.Constraint) bool { return true })
	for _, b := range l.bodies {
		sys.World.AddBody(b)
	}
	for _, c := range l.cons {
		sys.World.AddConstraint(c)
	}
	for i, w := range sys.Wires {
		wl := l.wires[i]
		w.nodes, w.segs, w.locks, w.grounds, w.touches = wl.nodes, wl.segs, wl.locks, wl.grounds, wl.touches
		w.Coarsened, w.Refined, w.known, w.changed = wl.coarsened, wl.refined, wl.known, wl.changed
		if w.Winch != nil {
			w.Winch.speed, w.Winch.rate = wl.winchSpeed, wl.winchRate
		}
	}
	// The saved world state fits the lists it came from.
	if _, err := sys.World.LoadState(l.state); err != nil {
		panic(fmt.Sprintf("hmrwire: restoring the state before a failed load: %v", err))
	}
	if _, err := state.Load(l.warm, sys.active.Warm(sys.World)); err != nil {
		panic(fmt.Sprintf("hmrwire: restoring the state before a failed load: %v", err))
	}
}
