package sparse

import "fmt"

// Dissect returns stages for Order (Nodes.Stage) that make its order a
// nested dissection: a small set of nodes whose removal splits the graph
// in two (a separator) is put in a stage after both parts, and so on in
// each part down to parts of at most leaf unknowns, which minimum degree
// orders. Eliminating the parts first keeps their fill from crossing the
// separator, and a k×k grid then factors in O(k³) operations (George).
// Minimum degree does as well on a plain grid, but not on a net of cables
// whose wires are locked to the knots by rigid rows: those rows must wait
// for the knots, and minimum degree, forced to eliminate knots first,
// leaves about nine times the operations at 32×32 knots. On a chain,
// which minimum degree factors without fill, the separators cost a fifth
// more: compare the two (Symbolic.Operations).
//
// A separator is a level of a breadth-first level structure rooted at a
// pseudo-peripheral node (George and Liu's automatic nested dissection):
// the level of fewest unknowns per unknown of the smaller part, thinned to
// its nodes next to the level above. A waiting node is then moved to the
// stage of its latest neighbour it waits for (Nodes.Lead), so that Order can
// honour both.
func Dissect(g Graph, nodes Nodes, leaf int) ([]int, error) {
	if err := g.check(); err != nil {
		return nil, fmt.Errorf("dissect: %w", err)
	}
	n := g.Nodes()
	size := nodes.Size
	if size == nil {
		size = make([]int, n)
		for i := range size {
			size[i] = 1
		}
	}
	if leaf < 0 {
		return nil, fmt.Errorf("dissect: parts of at most %d unknowns", leaf)
	}
	if len(size) != n || (nodes.Wait != nil && len(nodes.Wait) != n) {
		return nil, fmt.Errorf("dissect: %d sizes and %d wait flags for %d nodes", len(size), len(nodes.Wait), n)
	}
	d := &dissection{g: g, size: size, part: make([]int, n), level: make([]int, n), depth: make([]int, n)}
	all := make([]int, n)
	for i := range all {
		all[i] = i
		d.depth[i] = -1 // in a leaf
	}
	stack := []subset{{nodes: all, depth: 0}}
	deepest := -1
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		stack = append(stack, d.split(s, leaf)...)
		for _, i := range s.nodes {
			if d.depth[i] >= 0 {
				deepest = max(deepest, d.depth[i])
			}
		}
	}
	// Separators at depth 0 go last; leaves first.
	stage := make([]int, n)
	for i, dp := range d.depth {
		if dp >= 0 {
			stage[i] = deepest - dp + 1
		}
	}
	if nodes.Wait != nil {
		for i, w := range nodes.Wait {
			if !w {
				continue
			}
			for _, j := range g.Adj[g.Start[i]:g.Start[i+1]] {
				if lead := !nodes.Wait[j]; nodes.Lead != nil && nodes.Lead[j] || nodes.Lead == nil && lead {
					stage[i] = max(stage[i], stage[j])
				}
			}
		}
	}
	return stage, nil
}

// maxDepth bounds the dissection's depth: a graph whose separators cut
// off a node or two each (a node joined to every later one) would
// otherwise be dissected n/2 levels deep, each level costing a search of
// what is left; below it, minimum degree orders the rest.
const maxDepth = 64

// subset is a set of nodes to dissect, at a depth of the dissection tree.
type subset struct {
	nodes []int
	depth int
}

// dissection is the state of Dissect: part[i] names the subset node i is
// in (nodes of one subset share it), level[i] its breadth-first level,
// depth[i] the depth of the separator holding it (−1 outside any).
type dissection struct {
	g                  Graph
	size               []int
	part, level, depth []int
	parts              int
	queue              []int
}

// split dissects s: a leaf returns nothing; a subset in pieces returns
// its connected components; otherwise its separator gets s's depth and
// the two parts are returned one level deeper.
func (d *dissection) split(s subset, leaf int) []subset {
	weight := 0
	for _, i := range s.nodes {
		weight += d.size[i]
	}
	if weight <= leaf || s.depth >= maxDepth {
		return nil
	}
	d.parts++
	id := d.parts
	for _, i := range s.nodes {
		d.part[i] = id
	}
	levels := d.levels(s.nodes[0], id)
	if reached := len(d.queue); reached < len(s.nodes) {
		// In pieces: each component is dissected on its own.
		var comps []subset
		for _, i := range s.nodes {
			if d.part[i] != id {
				continue
			}
			d.levels(i, id)
			d.parts++
			comp := append([]int(nil), d.queue...)
			for _, j := range comp {
				d.part[j] = d.parts
			}
			comps = append(comps, subset{nodes: comp, depth: s.depth})
		}
		return comps
	}
	// A pseudo-peripheral root: from the last level's node of least
	// degree while the structure gets deeper.
	root := s.nodes[0]
	for try := 0; try < 8; try++ {
		last := d.queue[len(d.queue)-1]
		for _, i := range d.queue {
			if d.level[i] == levels-1 && d.degree(i) < d.degree(last) {
				last = i
			}
		}
		deeper := d.levels(last, id)
		if deeper <= levels {
			break
		}
		levels, root = deeper, last
	}
	levels = d.levels(root, id)
	if levels < 3 {
		return nil // no level separates: a leaf
	}
	w := make([]int, levels)
	for _, i := range d.queue {
		w[d.level[i]] += d.size[i]
	}
	best, bestScore, below := -1, 0.0, w[0]
	for j := 1; j < levels-1; j++ {
		above := weight - below - w[j]
		score := float64(w[j]) / float64(min(below, above))
		if best < 0 || score < bestScore {
			best, bestScore = j, score
		}
		below += w[j]
	}
	// Thin the level to the nodes next to the level above; the rest
	// joins the part below.
	d.parts += 2
	lo, hi := d.parts-1, d.parts
	var loNodes, hiNodes []int
	for _, i := range d.queue {
		switch l := d.level[i]; {
		case l < best:
			loNodes = append(loNodes, i)
		case l > best:
			hiNodes = append(hiNodes, i)
		default:
			sep := false
			for _, j := range d.g.Adj[d.g.Start[i]:d.g.Start[i+1]] {
				if d.part[j] == id && d.level[j] == best+1 {
					sep = true
					break
				}
			}
			if sep {
				d.depth[i] = s.depth
			} else {
				loNodes = append(loNodes, i)
			}
		}
	}
	for _, i := range d.queue {
		if d.depth[i] == s.depth {
			d.part[i] = 0
		}
	}
	for _, i := range loNodes {
		d.part[i] = lo
	}
	for _, i := range hiNodes {
		d.part[i] = hi
	}
	return []subset{{nodes: loNodes, depth: s.depth + 1}, {nodes: hiNodes, depth: s.depth + 1}}
}

// degree counts i's neighbours in its subset.
func (d *dissection) degree(i int) int {
	k := 0
	for _, j := range d.g.Adj[d.g.Start[i]:d.g.Start[i+1]] {
		if d.part[j] == d.part[i] {
			k++
		}
	}
	return k
}

// levels runs a breadth-first search from root over the nodes of subset
// id, leaving the nodes reached in d.queue in the order reached and their
// levels in d.level; it returns the number of levels.
func (d *dissection) levels(root, id int) int {
	d.queue = append(d.queue[:0], root)
	seen := -id - 1 // a mark no subset id takes, undone below
	d.part[root] = seen
	d.level[root] = 0
	for h := 0; h < len(d.queue); h++ {
		i := d.queue[h]
		for _, j := range d.g.Adj[d.g.Start[i]:d.g.Start[i+1]] {
			if d.part[j] == id {
				d.part[j] = seen
				d.level[j] = d.level[i] + 1
				d.queue = append(d.queue, j)
			}
		}
	}
	for _, i := range d.queue {
		d.part[i] = id
	}
	return d.level[d.queue[len(d.queue)-1]] + 1
}
