package sparse

import (
	"fmt"
	"slices"
)

// Graph is an undirected graph in adjacency lists: node i's neighbours are
// Adj[Start[i]:Start[i+1]], each edge listed at both ends, no self loops.
type Graph struct {
	Start []int
	Adj   []int
}

// Nodes returns the number of nodes.
func (g Graph) Nodes() int { return max(len(g.Start)-1, 0) }

// check reports a graph whose lists do not hold together.
func (g Graph) check() error {
	n := g.Nodes()
	if len(g.Start) == 0 {
		return nil // no nodes
	}
	if g.Start[0] != 0 || g.Start[n] != len(g.Adj) {
		return fmt.Errorf("graph: lists span %d…%d of %d neighbours", g.Start[0], g.Start[n], len(g.Adj))
	}
	for i := 0; i < n; i++ {
		if g.Start[i+1] < g.Start[i] {
			return fmt.Errorf("graph: node %d's list ends before it starts", i)
		}
		for _, j := range g.Adj[g.Start[i]:g.Start[i+1]] {
			if j < 0 || j >= n || j == i {
				return fmt.Errorf("graph: node %d has neighbour %d (%d nodes)", i, j, n)
			}
		}
	}
	return nil
}

// Nodes describes a graph's nodes to Order beyond its edges; a nil field
// takes its default.
type Nodes struct {
	// Size[i] is the number of unknowns node i stands for (default one):
	// a body's three or six velocities, a constraint row's one, the block
	// graph of [SLNB11] eq. 7. Degrees count unknowns, so that a body,
	// whose elimination couples its rows, goes before a row, whose
	// elimination couples its bodies' blocks.
	Size []int
	// Wait[i] set: node i is eliminated only after every neighbour that
	// does not wait (with Lead, every neighbour that leads). A rigid
	// constraint row, whose diagonal is zero, goes after the bodies it
	// couples, so that its pivot is the (nonzero) Schur complement.
	Wait []bool
	// Lead, if set, marks the nodes a waiting node waits for (the bodies,
	// not the other rows a row is coupled to); nil: every node that does
	// not wait.
	Lead []bool
	// Stage[i] ≥ 0: every node of a lower stage is eliminated before any
	// node of a higher one (constrained minimum degree), as Dissect's
	// separators come after the parts they separate. Default: one stage.
	Stage []int
}

// Order returns an elimination order of g's nodes (perm[k] is the node
// eliminated k-th) that keeps the fill of a Cholesky or LDLᵀ factor low:
// minimum degree on the quotient graph, where eliminated nodes become
// elements standing for the clique they leave, with the approximate
// external degree of Amestoy, Davis and Duff (an upper bound computed in
// time proportional to the element lists) and element absorption, under
// the constraints of nodes (see Nodes).
func Order(g Graph, nodes Nodes) ([]int, error) {
	var o Orderer
	return o.Order(g, nodes)
}

// Orderer orders graphs as Order does, keeping its storage from one
// ordering to the next: a solver that orders again whenever its rows
// change allocates little. Its zero value is ready to use.
type Orderer struct {
	o                 ordering
	perm, size, stage []int
}

// Order is the package's Order; the order it returns is valid until the
// next call.
func (w *Orderer) Order(g Graph, nodes Nodes) ([]int, error) {
	if err := g.check(); err != nil {
		return nil, fmt.Errorf("order: %w", err)
	}
	n := g.Nodes()
	size, wait, stage := nodes.Size, nodes.Wait, nodes.Stage
	if wait != nil && len(wait) != n {
		return nil, fmt.Errorf("order: %d wait flags for %d nodes", len(wait), n)
	}
	if nodes.Lead != nil && len(nodes.Lead) != n {
		return nil, fmt.Errorf("order: %d lead flags for %d nodes", len(nodes.Lead), n)
	}
	if size == nil {
		size = grown(w.size, n)
		w.size = size
		for i := range size {
			size[i] = 1
		}
	}
	if len(size) != n {
		return nil, fmt.Errorf("order: %d sizes for %d nodes", len(size), n)
	}
	for i, s := range size {
		if s < 1 {
			return nil, fmt.Errorf("order: node %d stands for %d unknowns", i, s)
		}
	}
	if stage == nil {
		stage = zeroed(w.stage, n)
		w.stage = stage
	}
	if len(stage) != n {
		return nil, fmt.Errorf("order: %d stages for %d nodes", len(stage), n)
	}
	for i, s := range stage {
		if s < 0 {
			return nil, fmt.Errorf("order: node %d in stage %d", i, s)
		}
	}
	o := &w.o
	o.reset(g, size, wait, nodes.Lead, stage)
	perm := w.perm[:0]
	defer func() { w.perm = perm }()
	for len(perm) < n {
		p := o.pop()
		if p < 0 && o.nextStage() {
			continue
		}
		if p < 0 {
			return nil, fmt.Errorf("order: %d nodes wait on each other or on a later stage", n-len(perm))
		}
		o.eliminate(p)
		perm = append(perm, p)
	}
	return perm, nil
}

// ordering is the quotient graph of a minimum degree elimination.
type ordering struct {
	g          Graph
	size       []int
	wait, lead []bool
	stage      []int
	// cur is the stage being eliminated; later[s] lists the nodes of
	// stage s above cur, from the highest-numbered node down, and stages
	// the stages above cur, descending.
	cur    int
	later  map[int][]int
	stages []int
	// queued counts the variables in the degree buckets.
	queued int
	// vars[i] are i's uneliminated neighbours not covered by an element;
	// elems[i] the elements adjacent to variable i; members[e] the
	// variables of element e (an eliminated node).
	vars, elems, members [][]int
	eliminated, dead     []bool // dead: an element absorbed into another
	waiting              []int  // per node: neighbours not waiting and not yet eliminated
	degree               []int
	// Degree buckets: doubly linked lists of the eligible variables.
	head, next, prev []int
	least            int   // no bucket below holds a variable
	mark             []int // scratch, stamped
	stamp            int
	w                []int // per element: |members \ L_p| during an update
	wStamp           []int
}

// reset makes o the start of an ordering of g, keeping o's storage.
func (o *ordering) reset(g Graph, size []int, wait, lead []bool, stage []int) {
	n := g.Nodes()
	total := 0
	for _, s := range size {
		total += s
	}
	if o.later == nil {
		o.later = map[int][]int{}
	}
	clear(o.later)
	o.g, o.size, o.wait, o.stage, o.lead = g, size, wait, stage, lead
	o.cur, o.stages, o.queued, o.least, o.stamp = 0, o.stages[:0], 0, 0, 0
	o.vars, o.elems, o.members = grownLists(o.vars, n), grownLists(o.elems, n), grownLists(o.members, n)
	o.eliminated, o.dead = zeroed(o.eliminated, n), zeroed(o.dead, n)
	o.waiting, o.degree = zeroed(o.waiting, n), zeroed(o.degree, n)
	o.head, o.next, o.prev = grown(o.head, total+1), grown(o.next, n), grown(o.prev, n)
	o.mark, o.w, o.wStamp = zeroed(o.mark, n), zeroed(o.w, n), zeroed(o.wStamp, n)
	for i := range o.head {
		o.head[i] = -1
	}
	for i := 0; i < n; i++ {
		adj := g.Adj[g.Start[i]:g.Start[i+1]]
		o.vars[i] = append(o.vars[i], adj...)
		for _, j := range adj {
			o.degree[i] += size[j]
		}
		if o.waits(i) {
			for _, j := range adj {
				if o.leads(j) {
					o.waiting[i]++
				}
			}
		}
	}
	// Inserted from the last node down, so that among equal degrees the
	// lowest-numbered node comes first: the natural order of a chain.
	if n > 0 {
		o.cur = slices.Min(stage)
	}
	for i := n - 1; i >= 0; i-- {
		if stage[i] != o.cur {
			if o.later[stage[i]] == nil {
				o.stages = append(o.stages, stage[i])
			}
			o.later[stage[i]] = append(o.later[stage[i]], i)
		} else if o.waiting[i] == 0 {
			o.insert(i)
		}
	}
	slices.Sort(o.stages)
	slices.Reverse(o.stages)
}

// zeroed returns s resliced to length n and cleared.
func zeroed[T any](s []T, n int) []T {
	s = grown(s, n)
	clear(s)
	return s
}

// grownLists returns n empty lists, those of s keeping their storage.
func grownLists(s [][]int, n int) [][]int {
	if cap(s) < n {
		s = append(s[:cap(s)], make([][]int, n-cap(s))...)
	}
	s = s[:n]
	for i := range s {
		s[i] = s[i][:0]
	}
	return s
}

// nextStage moves on to the lowest stage above the current one and makes
// its nodes that wait on nothing eligible; false when no stage is left.
func (o *ordering) nextStage() bool {
	if len(o.stages) == 0 {
		return false
	}
	next := o.stages[len(o.stages)-1]
	o.stages = o.stages[:len(o.stages)-1]
	o.cur = next
	for _, i := range o.later[next] {
		if o.waiting[i] == 0 {
			o.insert(i)
		}
	}
	delete(o.later, next)
	return true
}

func (o *ordering) waits(i int) bool { return o.wait != nil && o.wait[i] }

// leads reports whether a waiting neighbour of node i waits for it.
func (o *ordering) leads(i int) bool {
	if o.lead != nil {
		return o.lead[i]
	}
	return !o.waits(i)
}

func (o *ordering) insert(i int) {
	o.queued++
	d := o.degree[i]
	o.least = min(o.least, d)
	o.prev[i], o.next[i] = -1, o.head[d]
	if o.head[d] >= 0 {
		o.prev[o.head[d]] = i
	}
	o.head[d] = i
}

func (o *ordering) remove(i int) {
	o.queued--
	if o.prev[i] >= 0 {
		o.next[o.prev[i]] = o.next[i]
	} else {
		o.head[o.degree[i]] = o.next[i]
	}
	if o.next[i] >= 0 {
		o.prev[o.next[i]] = o.prev[i]
	}
}

// pop removes and returns an eligible variable of least degree, −1 if
// none is eligible.
func (o *ordering) pop() int {
	if o.queued == 0 {
		return -1 // without scanning every bucket (once per stage)
	}
	o.queued--
	for d := o.least; d < len(o.head); d++ {
		o.least = d
		if i := o.head[d]; i >= 0 {
			o.head[d] = o.next[i]
			if o.next[i] >= 0 {
				o.prev[o.next[i]] = -1
			}
			return i
		}
	}
	return -1
}

// weight returns the unknowns of element e's variables.
func (o *ordering) weight(e int) int {
	w := 0
	for _, i := range o.members[e] {
		w += o.size[i]
	}
	return w
}

// eligible reports whether variable i sits in a degree bucket.
func (o *ordering) eligible(i int) bool {
	return !o.eliminated[i] && o.waiting[i] == 0 && o.stage[i] == o.cur
}

func (o *ordering) eliminate(p int) {
	o.stamp++
	st := o.stamp
	o.mark[p] = st
	// L_p: p's variables and the variables of its elements, which p
	// absorbs.
	lp := o.members[p][:0] // a variable's own member list is empty
	lpSize := 0
	add := func(i int) {
		if o.mark[i] != st && !o.eliminated[i] {
			o.mark[i] = st
			lp = append(lp, i)
			lpSize += o.size[i]
		}
	}
	for _, i := range o.vars[p] {
		add(i)
	}
	for _, e := range o.elems[p] {
		if o.dead[e] {
			continue
		}
		for _, i := range o.members[e] {
			add(i)
		}
		o.dead[e], o.members[e] = true, o.members[e][:0]
	}
	o.eliminated[p] = true
	o.members[p], o.vars[p], o.elems[p] = lp, o.vars[p][:0], o.elems[p][:0]
	if o.leads(p) {
		for _, r := range o.g.Adj[o.g.Start[p]:o.g.Start[p+1]] {
			if o.waits(r) && !o.eliminated[r] {
				if o.waiting[r]--; o.waiting[r] == 0 && o.stage[r] == o.cur {
					o.insert(r)
				}
			}
		}
	}
	// w[e] = |members(e) \ L_p| for the live elements next to L_p.
	for _, i := range lp {
		for _, e := range o.elems[i] {
			if o.dead[e] || e == p {
				continue
			}
			if o.wStamp[e] != st {
				o.wStamp[e], o.w[e] = st, o.weight(e)
			}
			o.w[e] -= o.size[i]
		}
	}
	for _, i := range lp {
		// Covered by element p now: drop L_p's members and p from vars[i].
		vars := o.vars[i][:0]
		deg := lpSize - o.size[i]
		for _, j := range o.vars[i] {
			if o.mark[j] != st && !o.eliminated[j] {
				vars = append(vars, j)
				deg += o.size[j]
			}
		}
		o.vars[i] = vars
		// Elements: drop dead ones, absorb those inside L_p, add p.
		elems := o.elems[i][:0]
		for _, e := range o.elems[i] {
			if o.dead[e] || e == p {
				continue
			}
			if o.wStamp[e] == st && o.w[e] == 0 {
				o.dead[e], o.members[e] = true, o.members[e][:0] // aggressive absorption
				continue
			}
			elems = append(elems, e)
			deg += o.w[e]
		}
		o.elems[i] = append(elems, p)
		if rest := len(o.head) - 1; deg > rest {
			deg = rest
		}
		if o.eligible(i) {
			o.remove(i)
			o.degree[i] = deg
			o.insert(i)
		} else {
			o.degree[i] = deg
		}
	}
	// Members of element p stay as L_p; eliminated variables are skipped
	// where members are read.
	o.members[p] = lp
}
