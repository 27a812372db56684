package hmrwire

import (
	"errors"
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// The state of a System is its wires' nodes (whose number changes with
// the resolution and the contacts), the order of the world's bodies and
// constraints (which the solver's ordering follows: a restored system must
// lay its rows out as the saved one did to continue bitwise), the world's
// state, and the active set's rows for the next solve.

// stateVersion starts every saved state.
const stateVersion = 2

// Codes of the world's bodies and constraints in a saved state: an
// external one (not the wires') by its index among those, a wire's by
// wire and node index.
const (
	codeExternal = iota
	codeParticle
	codeLock
	codeSegment
)

// ErrState reports a state that does not fit the system.
var ErrState = errors.New("invalid HMR wire state")

// SaveState appends the system's state to dst; LoadState restores it
// into a system built the same way (the same bodies, geometries and
// wires added in the same order), at any resolution.
func (sys *System) SaveState(dst []float64) []float64 {
	dst = append(dst, stateVersion, sys.lastH, float64(len(sys.Wires)))
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
	for wi, w := range sys.Wires {
		dst = append(dst, float64(len(w.nodes)), float64(w.Coarsened), float64(w.Refined), flag(w.known), flag(w.changed))
		if w.Winch != nil {
			dst = append(dst, w.Winch.speed, w.Winch.rate)
		}
		for i, n := range w.nodes {
			dst = append(dst, float64(n.kind), n.rest, n.tension, n.sigma, n.bound, flag(n.sliding))
			switch n.kind {
			case MassNode:
				particle[n.body] = [2]int{wi, i}
				dst = append(dst, flag(n.lock != nil))
				if n.lock != nil {
					lockAt[n.lock] = [2]int{wi, i}
					dst = append(dst, float64(bodyIndex[n.lock.body]), n.lock.local.X, n.lock.local.Y, n.lock.local.Z)
				}
			case EyeNode:
				dst = append(dst, float64(bodyIndex[n.body]), n.local.X, n.local.Y, n.local.Z)
			case ContactNode:
				dst = append(dst, float64(geoIndex[n.geo]), float64(n.edge), n.s, n.local.X, n.local.Y, n.local.Z)
			}
		}
		for _, s := range w.segs {
			segAt[s] = [2]int{wi, sys.nodeIndex(w, s.nodes[0])}
		}
	}
	// The world's order of bodies and constraints.
	dst = append(dst, float64(len(bodies)))
	ext := 0
	for _, b := range bodies {
		if at, ok := particle[b]; ok {
			dst = append(dst, codeParticle, float64(at[0]), float64(at[1]))
		} else {
			dst = append(dst, codeExternal, float64(ext), 0)
			ext++
		}
	}
	cs := sys.World.Constraints()
	dst = append(dst, float64(len(cs)))
	ext = 0
	for _, c := range cs {
		if at, ok := lockAt[c]; ok {
			dst = append(dst, codeLock, float64(at[0]), float64(at[1]))
		} else if at, ok := segAt[c]; ok {
			dst = append(dst, codeSegment, float64(at[0]), float64(at[1]))
		} else {
			dst = append(dst, codeExternal, float64(ext), 0)
			ext++
		}
	}
	dst = sys.World.SaveState(dst)
	return sys.active.SaveWarm(dst, sys.World)
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

func flag(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// stateReader reads a saved state, remembering the first error.
type stateReader struct {
	src []float64
	err error
}

func (r *stateReader) next() float64 {
	if r.err != nil {
		return 0
	}
	if len(r.src) == 0 {
		r.err = fmt.Errorf("state ends early: %w", ErrState)
		return 0
	}
	x := r.src[0]
	r.src = r.src[1:]
	return x
}

// index reads an integer in [0, n).
func (r *stateReader) index(what string, n int) int {
	x := r.next()
	if r.err == nil && !(x >= 0 && x < float64(n) && x == math.Trunc(x)) {
		r.err = fmt.Errorf("%s %g: want an integer in [0, %d): %w", what, x, n, ErrState)
		return 0
	}
	return int(x)
}

func (r *stateReader) vec() geom.Vec3 { return geom.V(r.next(), r.next(), r.next()) }

// bounded checks numbers just read that are lengths (m), positions (m) or
// speeds (m/s): within ±multibody.DivergenceLimit, where a step stops as
// diverged, so a state holding more was not saved by a running system.
func (r *stateReader) bounded(what string, xs ...float64) {
	if r.err == nil && !multibody.Bounded(xs...) {
		r.err = fmt.Errorf("%s %v beyond ±%g: %w", what, xs, multibody.DivergenceLimit, ErrState)
	}
}

// LoadState restores a state saved by SaveState and returns what follows
// it in src. On error the system is unchanged.
func (sys *System) LoadState(src []float64) ([]float64, error) {
	r := &stateReader{src: src}
	if v := r.next(); r.err == nil && v != stateVersion {
		return nil, fmt.Errorf("state version %g, want %d: %w", v, stateVersion, ErrState)
	}
	lastH := r.next()
	if r.err == nil && !(lastH >= 0 && lastH < math.Inf(1)) {
		return nil, fmt.Errorf("last step %g s: %w", lastH, ErrState)
	}
	if nw := r.next(); r.err == nil && nw != float64(len(sys.Wires)) {
		return nil, fmt.Errorf("state of %g wires for a system of %d: %w", nw, len(sys.Wires), ErrState)
	}
	// The external bodies and constraints keep their relative order.
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
	bodies := sys.World.Bodies()
	type wireState struct {
		nodes                 []*node
		coarsened, refined    int
		known, changed        bool
		winchSpeed, winchRate float64
	}
	states := make([]wireState, len(sys.Wires))
	for wi, w := range sys.Wires {
		st := &states[wi]
		nn := r.index("node count", 1<<24)
		st.coarsened, st.refined = int(r.next()), int(r.next())
		st.known, st.changed = r.next() != 0, r.next() != 0
		if w.Winch != nil {
			st.winchSpeed, st.winchRate = r.next(), r.next()
			r.bounded("winch speed and rate (m/s)", st.winchSpeed, st.winchRate)
		}
		if r.err == nil && nn < 2 {
			return nil, fmt.Errorf("wire %q: %d nodes: %w", w.Name, nn, ErrState)
		}
		for i := 0; i < nn && r.err == nil; i++ {
			n := &node{kind: Kind(r.index("node kind", 3))}
			n.rest, n.tension, n.sigma, n.bound, n.sliding = r.next(), r.next(), r.next(), r.next(), r.next() != 0
			switch n.kind {
			case MassNode:
				n.body = multibody.NewParticle(w.Name, 0, geom.Vec3{})
				if r.next() != 0 {
					n.lock = &lock{particle: n.body, body: bodies[r.index("lock body", len(bodies))], local: r.vec()}
				}
			case EyeNode:
				n.body, n.local = bodies[r.index("eye body", len(bodies))], r.vec()
			case ContactNode:
				n.geo = sys.Geometries[r.index("geometry", len(sys.Geometries))]
				n.body = n.geo.Body
				n.edge = r.index("edge", len(n.geo.Shape.edges))
				n.s, n.local = r.next(), r.vec()
			}
			r.bounded("node rest length, arc length, edge position (m)", n.rest, n.sigma, n.s)
			r.bounded("node attachment (m)", n.local.X, n.local.Y, n.local.Z)
			if n.lock != nil {
				r.bounded("lock attachment (m)", n.lock.local.X, n.lock.local.Y, n.lock.local.Z)
			}
			if r.err == nil && (math.IsNaN(n.tension) || math.IsInf(n.tension, 0) || !(n.bound >= 0) || math.IsInf(n.bound, 0)) {
				r.err = fmt.Errorf("node tension %g N, friction bound %g N·s: must be finite, the bound non-negative: %w", n.tension, n.bound, ErrState)
			}
			st.nodes = append(st.nodes, n)
		}
		if r.err == nil && (st.nodes[0].kind != MassNode || st.nodes[nn-1].kind != MassNode) {
			return nil, fmt.Errorf("wire %q: ends are not mass nodes: %w", w.Name, ErrState)
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	wireNode := func(what string) *node {
		wi := r.index(what+" wire", len(sys.Wires))
		i := r.index(what+" node", len(states[wi].nodes))
		if r.err != nil {
			return nil
		}
		return states[wi].nodes[i]
	}
	nb := r.index("body count", 1<<26)
	order := make([]*multibody.Body, 0, nb)
	for k := 0; k < nb && r.err == nil; k++ {
		switch code := r.next(); code {
		case codeExternal:
			order = append(order, extBodies[r.index("external body", len(extBodies))])
			r.next()
		case codeParticle:
			if n := wireNode("particle"); n != nil {
				if n.kind != MassNode {
					return nil, fmt.Errorf("body %d is no mass node: %w", k, ErrState)
				}
				order = append(order, n.body)
			}
		default:
			return nil, fmt.Errorf("body %d has code %g: %w", k, code, ErrState)
		}
	}
	nc := r.index("constraint count", 1<<26)
	type conAt struct {
		code int
		n    *node
		ext  multibody.Constraint
	}
	cons := make([]conAt, 0, nc)
	for k := 0; k < nc && r.err == nil; k++ {
		switch code := r.next(); code {
		case codeExternal:
			cons = append(cons, conAt{code: codeExternal, ext: extCons[r.index("external constraint", len(extCons))]})
			r.next()
		case codeLock, codeSegment:
			if n := wireNode("constraint"); n != nil {
				if n.kind != MassNode || code == codeLock && n.lock == nil {
					return nil, fmt.Errorf("constraint %d does not fit its node: %w", k, ErrState)
				}
				cons = append(cons, conAt{code: int(code), n: n})
			}
		default:
			return nil, fmt.Errorf("constraint %d has code %g: %w", k, code, ErrState)
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	// The order lists name every external body and constraint and every
	// mass node's particle exactly once, and a lock or segment at most
	// once (a wire rebuilds its segments after a change of resolution, so
	// a state may hold fewer): a forged list would drop or double a body
	// or constraint of the world.
	seenBody := map[*multibody.Body]bool{}
	for _, b := range order {
		if seenBody[b] {
			return nil, fmt.Errorf("body %s twice in the state's order: %w", b.Name, ErrState)
		}
		seenBody[b] = true
	}
	seenCon := map[any]bool{}
	for _, c := range cons {
		key := any(c.ext)
		if c.code != codeExternal {
			key = [2]any{c.code, c.n}
		}
		if seenCon[key] {
			return nil, fmt.Errorf("a constraint twice in the state's order: %w", ErrState)
		}
		seenCon[key] = true
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
	for _, st := range states {
		for _, n := range st.nodes {
			if n.kind == MassNode && !seenBody[n.body] {
				missing++
			}
		}
	}
	if missing > 0 {
		return nil, fmt.Errorf("the state's order lists miss %d of the system's bodies and constraints: %w", missing, ErrState)
	}
	// Replace the wires' nodes and the world's lists; the world's state
	// then fills the particles in.
	nodeAt := map[*node][2]int{}
	for wi, st := range states {
		for i, n := range st.nodes {
			nodeAt[n] = [2]int{wi, i}
		}
	}
	old := sys.saveLists()
	for wi, w := range sys.Wires {
		st := states[wi]
		w.nodes, w.Coarsened, w.Refined, w.known, w.changed = st.nodes, st.coarsened, st.refined, st.known, st.changed
		if w.Winch != nil {
			w.Winch.speed, w.Winch.rate = st.winchSpeed, st.winchRate
		}
		w.segs, w.locks = w.segs[:0], w.locks[:0]
	}
	sys.World.Remove(func(*multibody.Body) bool { return true }, func(multibody.Constraint) bool { return true })
	for _, b := range order {
		sys.World.AddBody(b)
	}
	for _, c := range cons {
		switch c.code {
		case codeExternal:
			sys.World.AddConstraint(c.ext)
		case codeLock:
			sys.World.AddConstraint(c.n.lock)
		case codeSegment:
			at := nodeAt[c.n]
			w := sys.Wires[at[0]]
			if at[1] == len(w.nodes)-1 {
				old.restore(sys)
				return nil, fmt.Errorf("a segment starts at wire %q's last node: %w", w.Name, ErrState)
			}
			sys.World.AddConstraint(newSegment(w, at[1]))
		}
	}
	for _, w := range sys.Wires {
		w.relist()
	}
	rest, err := sys.World.LoadState(r.src)
	if err == nil {
		rest, err = sys.active.LoadWarm(rest, sys.World)
	}
	if err != nil {
		old.restore(sys)
		return nil, fmt.Errorf("%w: %w", err, ErrState)
	}
	sys.lastH = lastH
	return rest, nil
}

// relist collects the wire's constraints from the world after a restore.
func (w *Wire) relist() {
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
		}
	}
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
	coarsened, refined    int
	known, changed        bool
	winchSpeed, winchRate float64
}

func (sys *System) saveLists() *lists {
	l := &lists{
		bodies: append([]*multibody.Body(nil), sys.World.Bodies()...),
		cons:   append([]multibody.Constraint(nil), sys.World.Constraints()...),
		state:  sys.World.SaveState(nil),
		warm:   sys.active.SaveWarm(nil, sys.World),
	}
	for _, w := range sys.Wires {
		wl := wireLists{nodes: append([]*node(nil), w.nodes...), segs: append([]*segment(nil), w.segs...),
			locks: append([]*lock(nil), w.locks...), coarsened: w.Coarsened, refined: w.Refined, known: w.known, changed: w.changed}
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
		w.nodes, w.segs, w.locks, w.Coarsened, w.Refined, w.known, w.changed = wl.nodes, wl.segs, wl.locks, wl.coarsened, wl.refined, wl.known, wl.changed
		if w.Winch != nil {
			w.Winch.speed, w.Winch.rate = wl.winchSpeed, wl.winchRate
		}
	}
	// The saved world state fits the lists it came from.
	if _, err := sys.World.LoadState(l.state); err != nil {
		panic(fmt.Sprintf("hmrwire: restoring the state before a failed load: %v", err))
	}
	if _, err := sys.active.LoadWarm(l.warm, sys.World); err != nil {
		panic(fmt.Sprintf("hmrwire: restoring the state before a failed load: %v", err))
	}
}
