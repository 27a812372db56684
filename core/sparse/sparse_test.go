package sparse

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randomMatrix builds an n×n symmetric structure with about deg random
// neighbours per node and values that make it symmetric positive definite
// (diagonally dominant) or, with rows > 0, quasi-definite: the last rows
// nodes get negative diagonals and couple only to the first n − rows.
func randomMatrix(rng *rand.Rand, n, deg, rows int) (*Matrix, []int8) {
	b := NewBuilder(n)
	vars := n - rows
	for i := 0; i < n; i++ {
		for d := 0; d < deg; d++ {
			j := rng.IntN(vars)
			if i >= vars || j != i {
				b.Couple(i, j)
			}
		}
	}
	m := b.Matrix()
	sign := make([]int8, n)
	rowSum := make([]float64, n)
	for j := 0; j < n; j++ {
		for q := m.Col[j]; q < m.Col[j+1]; q++ {
			if i := m.Row[q]; i < j {
				v := rng.Float64()*2 - 1
				m.Val[q] = v
				m.Val[m.Index(j, i)] = v
				rowSum[i] += math.Abs(v)
				rowSum[j] += math.Abs(v)
			}
		}
	}
	for i := 0; i < n; i++ {
		sign[i] = 1
		d := rowSum[i] + 1
		if i >= vars {
			sign[i], d = -1, -(0.1 + rng.Float64())
		}
		m.Val[m.Index(i, i)] = d
	}
	return m, sign
}

func dense(m *Matrix) *mat.Dense {
	a := mat.NewDense(m.N, m.N, nil)
	for j := 0; j < m.N; j++ {
		for q := m.Col[j]; q < m.Col[j+1]; q++ {
			a.Set(m.Row[q], j, m.Val[q])
		}
	}
	return a
}

// LDLᵀ with the minimum degree order solves as gonum's dense LU does, for
// positive definite and quasi-definite matrices, with the expected
// inertia, by both kernels; the nested dissection order too.
func TestFactorSolvesAsDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 60; trial++ {
		n := 2 + rng.IntN(160)
		rows := 0
		if trial%2 == 1 {
			rows = rng.IntN(n / 2)
		}
		m, sign := randomMatrix(rng, n, 1+rng.IntN(4), rows)
		leaf := 0
		if trial%3 == 2 {
			leaf = 8
		}
		perm := order(t, m.Graph(), Nodes{}, leaf)
		sym, err := Analyze(m, perm)
		if err != nil {
			t.Fatal(err)
		}
		// With the expected signs, no pivot of these well-conditioned
		// matrices is perturbed.
		piv := Pivot{}
		if trial%4 == 1 {
			piv = Pivot{Sign: sign, Scale: make([]float64, n), Eps: 1e-13}
			for i := range piv.Scale {
				piv.Scale[i] = 1
			}
		}
		b := make([]float64, n)
		for i := range b {
			b[i] = rng.Float64()*2 - 1
		}
		var want mat.VecDense
		if err := want.SolveVec(dense(m), mat.NewVecDense(n, append([]float64(nil), b...))); err != nil {
			t.Fatal(err)
		}
		for _, frontal := range []bool{false, true} {
			kernel(sym, m, frontal)
			f := NewFactor(sym)
			if err := f.Factor(m, piv); err != nil {
				t.Fatal(err)
			}
			if f.Perturbed != 0 {
				t.Errorf("trial %d (frontal %v): %d pivots perturbed", trial, frontal, f.Perturbed)
			}
			if pos, neg := f.Inertia(); pos != n-rows || neg != rows {
				t.Errorf("trial %d (frontal %v): inertia (%d, %d), want (%d, %d)", trial, frontal, pos, neg, n-rows, rows)
			}
			x := slices.Clone(b)
			f.Solve(x)
			for i := range x {
				if d := math.Abs(x[i] - want.AtVec(i)); d > 1e-10*(1+math.Abs(want.AtVec(i))) {
					t.Fatalf("trial %d (n = %d, frontal %v): x[%d] = %g, dense %g", trial, n, frontal, i, x[i], want.AtVec(i))
				}
			}
		}
	}
}

// order orders g by minimum degree under nodes' constraints, in the stages
// of a nested dissection down to leaf unknowns if leaf > 0.
func order(t *testing.T, g Graph, nodes Nodes, leaf int) []int {
	t.Helper()
	if leaf > 0 {
		stage, err := Dissect(g, nodes, leaf)
		if err != nil {
			t.Fatal(err)
		}
		nodes.Stage = stage
	}
	perm, err := Order(g, nodes)
	if err != nil {
		t.Fatal(err)
	}
	return perm
}

// kernel makes s factor with the multifrontal kernel or the up-looking one,
// whichever the analysis chose.
func kernel(s *Symbolic, a *Matrix, frontal bool) {
	s.frontal, s.front = frontal, nil
	if frontal {
		s.front = newFronts(s, a)
	} else if s.row == nil {
		s.rows(a)
	}
}

// The elimination tree's column counts are the fill a dense elimination
// in the same order produces.
func TestAnalysisCountsTheFill(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 20; trial++ {
		n := 2 + rng.IntN(60)
		m, _ := randomMatrix(rng, n, 1+rng.IntN(3), 0)
		perm := rng.Perm(n)
		sym, err := Analyze(m, perm)
		if err != nil {
			t.Fatal(err)
		}
		// Symbolic elimination on a dense boolean matrix.
		nz := make([][]bool, n)
		for k := range nz {
			nz[k] = make([]bool, n)
		}
		for j := 0; j < n; j++ {
			for q := m.Col[j]; q < m.Col[j+1]; q++ {
				nz[sym.iperm[m.Row[q]]][sym.iperm[j]] = true
			}
		}
		count := 0
		for k := 0; k < n; k++ {
			for i := k + 1; i < n; i++ {
				if !nz[i][k] {
					continue
				}
				count++
				for j := k + 1; j < n; j++ {
					if nz[j][k] {
						nz[i][j], nz[j][i] = true, true
					}
				}
			}
		}
		if got := sym.Nonzeros(); got != count {
			t.Fatalf("trial %d: analysis counts %d entries of L, elimination %d", trial, got, count)
		}
	}
}

// grid is the 5-point Laplacian of a side×side grid plus the identity.
func grid(side int) *Matrix {
	n := side * side
	b := NewBuilder(n)
	for y := 0; y < side; y++ {
		for x := 0; x < side; x++ {
			i := y*side + x
			if x+1 < side {
				b.Couple(i, i+1)
			}
			if y+1 < side {
				b.Couple(i, i+side)
			}
		}
	}
	m := b.Matrix()
	for j := 0; j < n; j++ {
		for q := m.Col[j]; q < m.Col[j+1]; q++ {
			m.Val[q] = -1
			if m.Row[q] == j {
				m.Val[q] = 5
			}
		}
	}
	return m
}

// Minimum degree keeps a chain's factor free of fill and cuts a grid's
// well below the banded fill of the natural order (side³ entries): a net
// of cable segments factors in near-linear cost.
func TestOrderKeepsFillLow(t *testing.T) {
	chain := NewBuilder(1000)
	for i := 0; i+1 < 1000; i++ {
		chain.Couple(i, i+1)
	}
	perm, err := Order(chain.Matrix().Graph(), Nodes{})
	if err != nil {
		t.Fatal(err)
	}
	sym, _ := Analyze(chain.Matrix(), perm)
	if sym.Nonzeros() != 999 {
		t.Errorf("chain of 1000: %d entries in L, want 999", sym.Nonzeros())
	}
	for _, side := range []int{10, 30, 60} {
		m := grid(side)
		natural, _ := Analyze(m, nil)
		perm, err := Order(m.Graph(), Nodes{})
		if err != nil {
			t.Fatal(err)
		}
		md, _ := Analyze(m, perm)
		n := float64(side * side)
		t.Logf("grid %d×%d: natural order %d entries, minimum degree %d (%.1f per node, n log n = %.0f)", side, side, natural.Nonzeros(), md.Nonzeros(), float64(md.Nonzeros())/n, n*math.Log2(n))
		if side >= 30 && float64(md.Nonzeros()) > 0.5*float64(natural.Nonzeros()) {
			t.Errorf("grid %d×%d: minimum degree leaves %d entries, natural order %d", side, side, md.Nonzeros(), natural.Nonzeros())
		}
		if float64(md.Nonzeros()) > 2*n*math.Log2(n) {
			t.Errorf("grid %d×%d: %d entries, more than 2 n log₂ n", side, side, md.Nonzeros())
		}
	}
}

// Waiting nodes come after their neighbours: a zero diagonal (a rigid
// constraint row) then gets the nonzero Schur complement as its pivot.
func TestWaitingRowsFactorWithZeroDiagonal(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 20; trial++ {
		n := 10 + rng.IntN(80)
		rows := 1 + rng.IntN(n/4)
		m, _ := randomMatrix(rng, n, 2, rows)
		wait := make([]bool, n)
		for i := n - rows; i < n; i++ {
			m.Val[m.Index(i, i)] = 0
			wait[i] = true
		}
		perm := order(t, m.Graph(), Nodes{Wait: wait}, 4*(trial%2)) // the stages of a dissection keep the waits
		pos := make([]int, n)
		for k, i := range perm {
			pos[i] = k
		}
		g := m.Graph()
		for r := n - rows; r < n; r++ {
			for _, j := range g.Adj[g.Start[r]:g.Start[r+1]] {
				if !wait[j] && pos[j] > pos[r] {
					t.Fatalf("row %d eliminated before its neighbour %d", r, j)
				}
			}
		}
		sym, _ := Analyze(m, perm)
		for k, i := range sym.perm { // the postorder keeps rows after their neighbours
			pos[i] = k
		}
		for r := n - rows; r < n; r++ {
			for _, j := range g.Adj[g.Start[r]:g.Start[r+1]] {
				if !wait[j] && pos[j] > pos[r] {
					t.Fatalf("analysis: row %d eliminated before its neighbour %d", r, j)
				}
			}
		}
		for _, frontal := range []bool{false, true} {
			kernel(sym, m, frontal)
			f := NewFactor(sym)
			// Random rows may be dependent; independent ones must factor.
			if err := f.Factor(m, Pivot{}); err != nil {
				continue
			}
			if _, neg := f.Inertia(); neg != rows {
				t.Errorf("trial %d (frontal %v): %d negative pivots, want %d", trial, frontal, neg, rows)
			}
		}
	}
	// Without waiting, the natural order meets the zero pivot first.
	b := NewBuilder(2)
	b.Couple(0, 1)
	m := b.Matrix()
	m.Val[m.Index(0, 1)], m.Val[m.Index(1, 0)], m.Val[m.Index(1, 1)] = 1, 1, 2
	sym, _ := Analyze(m, []int{0, 1})
	if err := NewFactor(sym).Factor(m, Pivot{}); err == nil {
		t.Error("a zero first pivot factored")
	}
	perm, _ := Order(m.Graph(), Nodes{Wait: []bool{true, false}})
	if perm[0] != 1 {
		t.Errorf("waiting node 0 ordered %v", perm)
	}
}

// TestOrderRefusesBrokenGraphs: no nodes orders to nothing; lists that do
// not hold together are refused, not a panic.
func TestOrderRefusesBrokenInput(t *testing.T) {
	for _, g := range []Graph{{}, {Start: []int{0}}} {
		if perm, err := Order(g, Nodes{}); err != nil || len(perm) != 0 {
			t.Errorf("empty graph %+v: %v, %v", g, perm, err)
		}
	}
	for name, g := range map[string]Graph{
		"neighbour out of range": {Start: []int{0, 1, 2}, Adj: []int{1, 2}},
		"negative neighbour":     {Start: []int{0, 1, 2}, Adj: []int{-1, 0}},
		"self loop":              {Start: []int{0, 1, 2}, Adj: []int{0, 0}},
		"lists past the end":     {Start: []int{0, 1, 3}, Adj: []int{1, 0}},
		"list ends before start": {Start: []int{0, 2, 1, 2}, Adj: []int{1, 2}},
		"lists not from 0":       {Start: []int{1, 2, 2}, Adj: []int{1, 0}},
	} {
		if _, err := Order(g, Nodes{}); err == nil {
			t.Errorf("%s: %+v accepted", name, g)
		}
		if _, err := Dissect(g, Nodes{}, 1); err == nil {
			t.Errorf("%s: %+v dissected", name, g)
		}
	}
	if stage, err := Dissect(Graph{}, Nodes{}, 1); err != nil || len(stage) != 0 {
		t.Errorf("empty graph dissected into %v, %v", stage, err)
	}
	if _, err := Dissect(Graph{Start: []int{0}}, Nodes{}, -1); err == nil {
		t.Error("a negative leaf size accepted")
	}
	// Pivot signs must be ±1, one with a scale per unknown.
	b := NewBuilder(2)
	b.Couple(0, 1)
	m := b.Matrix()
	m.Val[m.Index(0, 0)], m.Val[m.Index(1, 0)], m.Val[m.Index(0, 1)], m.Val[m.Index(1, 1)] = 2, 1, 1, -1
	sym, _ := Analyze(m, nil)
	for name, piv := range map[string]Pivot{
		"zero sign":    {Sign: []int8{1, 0}, Scale: []float64{1, 1}, Eps: 1e-13},
		"scales short": {Sign: []int8{1, -1}, Scale: []float64{1}, Eps: 1e-13},
	} {
		if err := NewFactor(sym).Factor(m, piv); err == nil {
			t.Errorf("%s: factored", name)
		}
	}
	pair := Graph{Start: []int{0, 1, 2}, Adj: []int{1, 0}}
	for name, nodes := range map[string]Nodes{
		"sizes short":      {Size: []int{1}},
		"zero size":        {Size: []int{1, 0}},
		"wait flags short": {Wait: []bool{true}},
		"stages short":     {Stage: []int{0}},
		"negative stage":   {Stage: []int{0, -1}},
		"waits on a stage": {Wait: []bool{true, false}, Stage: []int{0, 1}},
	} {
		if _, err := Order(pair, nodes); err == nil {
			t.Errorf("%s: %+v accepted", name, nodes)
		}
	}
}

// netGraph is the block graph of a side×side net of knots (3 unknowns,
// the border fixed and left out), each pair of neighbours joined by a
// wire of per segments: constraint rows (1 unknown) between particles (3),
// its end particles locked to the knots by three rigid rows each, which
// wait for their bodies: the net of BenchmarkWireNet.
func netGraph(side, per int) (*Matrix, Nodes) {
	var nodes Nodes
	add := func(size int, wait bool) int {
		nodes.Size = append(nodes.Size, size)
		nodes.Wait = append(nodes.Wait, wait)
		return len(nodes.Size) - 1
	}
	knot := map[[2]int]int{}
	for i := 1; i < side-1; i++ {
		for j := 1; j < side-1; j++ {
			knot[[2]int{i, j}] = add(3, false)
		}
	}
	var edges [][2]int
	lock := func(particle, body int) {
		for d := 0; d < 3; d++ {
			r := add(1, true)
			edges = append(edges, [2]int{r, particle})
			if body >= 0 {
				edges = append(edges, [2]int{r, body})
			}
		}
	}
	link := func(a, b int) {
		prev := add(3, false)
		lock(prev, a)
		for s := 0; s < per; s++ {
			r, p := add(1, false), add(3, false)
			edges = append(edges, [2]int{prev, r}, [2]int{r, p})
			prev = p
		}
		lock(prev, b)
	}
	at := func(i, j int) int {
		if k, ok := knot[[2]int{i, j}]; ok {
			return k
		}
		return -1
	}
	for i := 0; i < side; i++ {
		for j := 0; j < side; j++ {
			if i+1 < side && (at(i, j) >= 0 || at(i+1, j) >= 0) {
				link(at(i, j), at(i+1, j))
			}
			if j+1 < side && (at(i, j) >= 0 || at(i, j+1) >= 0) {
				link(at(i, j), at(i, j+1))
			}
		}
	}
	b := NewBuilder(len(nodes.Size))
	for _, e := range edges {
		b.Couple(e[0], e[1])
	}
	return b.Matrix(), nodes
}

// scalarAnalysis analyzes the scalar matrix of the block graph m (node i
// standing for size[i] unknowns, coupled to all of its neighbours') in the
// block order perm.
func scalarAnalysis(t *testing.T, m *Matrix, size []int, perm []int) *Symbolic {
	start := make([]int, len(size)+1)
	for i, s := range size {
		start[i+1] = start[i] + s
	}
	b := NewBuilder(start[len(size)])
	for j := 0; j < m.N; j++ {
		for q := m.Col[j]; q < m.Col[j+1]; q++ {
			if i := m.Row[q]; i != j {
				for u := start[i]; u < start[i+1]; u++ {
					for v := start[j]; v < start[j+1]; v++ {
						b.Couple(u, v)
					}
				}
			}
		}
	}
	var unknowns []int
	for _, k := range perm {
		for u := start[k]; u < start[k+1]; u++ {
			unknowns = append(unknowns, u)
		}
	}
	s, err := Analyze(b.Matrix(), unknowns)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Nested dissection cuts the factorization of a net whose wires are
// locked to its knots by rigid rows (which minimum degree must leave
// until their bodies are gone) to a fraction; a chain, which minimum
// degree factors without fill, it makes a little dearer (so the solver
// compares the two).
func TestDissectCutsNetCost(t *testing.T) {
	analyze := func(m *Matrix, nodes Nodes, dissect bool) *Symbolic {
		leaf := 0
		if dissect {
			leaf = 64
		}
		return scalarAnalysis(t, m, nodes.Size, order(t, m.Graph(), nodes, leaf))
	}
	for _, side := range []int{16, 32} {
		for _, per := range []int{1, 4} {
			m, nodes := netGraph(side, per)
			md, nd := analyze(m, nodes, false), analyze(m, nodes, true)
			t.Logf("net %d×%d, %d segments a link: minimum degree %d entries, %d operations; nested dissection %d, %d",
				side, side, per, md.Nonzeros(), md.Operations(), nd.Nonzeros(), nd.Operations())
			if side == 32 && nd.Operations() > md.Operations()/4 {
				t.Errorf("net %d×%d, %d segments: nested dissection takes %d operations, minimum degree %d", side, side, per, nd.Operations(), md.Operations())
			}
		}
	}
	chain := NewBuilder(2001)
	nodes := Nodes{Size: make([]int, 2001), Wait: make([]bool, 2001)}
	for i := range nodes.Size {
		nodes.Size[i] = 3 - 2*(i%2) // particles and rows
		if i+1 < 2001 {
			chain.Couple(i, i+1)
		}
	}
	md, nd := analyze(chain.Matrix(), nodes, false), analyze(chain.Matrix(), nodes, true)
	t.Logf("chain of 1,000 particles: minimum degree %d operations, nested dissection %d", md.Operations(), nd.Operations())
	if md.Nonzeros() > 7*1000 || nd.Operations() > 5*md.Operations()/4 { // a fill entry between the rows of each particle
		t.Errorf("chain: minimum degree %d entries, %d operations; nested dissection %d operations", md.Nonzeros(), md.Operations(), nd.Operations())
	}
}

// A graph whose separators cut off a node or two each (a_k – b_k, every
// b_k joined to all later nodes) is dissected at most maxDepth levels
// deep, and still ordered.
func TestDissectDepthBounded(t *testing.T) {
	const pairs = 300
	b := NewBuilder(2 * pairs)
	for k := 0; k < pairs; k++ {
		b.Couple(2*k, 2*k+1)
		for j := 2 * (k + 1); j < 2*pairs; j++ {
			b.Couple(2*k+1, j)
		}
	}
	g := b.Matrix().Graph()
	stage, err := Dissect(g, Nodes{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if top := slices.Max(stage); top > 65 { // maxDepth + 1; unbounded, 299
		t.Errorf("%d stages, at most 65 wanted", top)
	}
	perm, err := Order(g, Nodes{Stage: stage})
	if err != nil || len(perm) != 2*pairs {
		t.Errorf("order of the dissection: %d nodes, %v", len(perm), err)
	}
}

// Storage kept from one analysis to the next changes nothing: a Builder,
// a Matrix, an Orderer, a Symbolic and a Factor used again on matrices of
// growing and shrinking size (some with waiting rows and dissection
// stages) give bitwise the order, the factor and the solution that fresh
// ones give.
func TestReusedStorageMatchesFresh(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var (
		builder Builder
		built   *Matrix
		graph   Graph
		orderer Orderer
		sym     *Symbolic
		fac     Factor
	)
	for trial := 0; trial < 40; trial++ {
		n := 2 + rng.IntN(200)
		rows := 0
		if trial%2 == 1 {
			rows = rng.IntN(n / 2)
		}
		m, sign := randomMatrix(rng, n, 1+rng.IntN(4), rows)
		// The structure rebuilt through the reused builder and matrix.
		builder.Reset(n)
		for j := 0; j < n; j++ {
			for q := m.Col[j]; q < m.Col[j+1]; q++ {
				builder.Couple(m.Row[q], j)
			}
		}
		built = builder.Build(built)
		if !slices.Equal(built.Col, m.Col) || !slices.Equal(built.Row, m.Row) {
			t.Fatalf("trial %d: the reused builder's structure differs", trial)
		}
		copy(built.Val, m.Val)
		nodes := Nodes{}
		if trial%3 == 2 {
			nodes.Wait = make([]bool, n)
			for i := n - rows; i < n; i++ {
				nodes.Wait[i] = true
			}
		}
		graph = built.GraphIn(graph)
		if trial%5 == 4 {
			stage, err := Dissect(graph, nodes, 8)
			if err != nil {
				t.Fatal(err)
			}
			nodes.Stage = stage
		}
		want, err := Order(m.Graph(), nodes)
		if err != nil {
			t.Fatal(err)
		}
		got, err := orderer.Order(graph, nodes)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: the reused orderer's order differs", trial)
		}
		fresh, err := Analyze(m, want)
		if err != nil {
			t.Fatal(err)
		}
		if sym, err = AnalyzeIn(sym, built, got); err != nil {
			t.Fatal(err)
		}
		fac.Reset(sym)
		f := NewFactor(fresh)
		piv := Pivot{Sign: sign, Scale: make([]float64, n), Eps: 1e-13}
		for i := range piv.Scale {
			piv.Scale[i] = 1
		}
		if err := f.Factor(m, piv); err != nil {
			t.Fatal(err)
		}
		if err := fac.Factor(built, piv); err != nil {
			t.Fatal(err)
		}
		b := make([]float64, n)
		for i := range b {
			b[i] = rng.Float64()*2 - 1
		}
		x, y := slices.Clone(b), slices.Clone(b)
		f.Solve(x)
		fac.Solve(y)
		if sym.Multifrontal() != fresh.Multifrontal() || !slices.Equal(x, y) {
			t.Fatalf("trial %d (n = %d): the reused analysis and factor solve differently", trial, n)
		}
	}
}

// Refactor after changing a few nodes' diagonals and pivot scales gives
// the factor a fresh Factor gives, to the bit, by both kernels, also where
// pivots are perturbed (a diagonal of the wrong sign) before, at and after
// the first changed node; a changed node outside the matrix is refused.
func TestRefactorMatchesFactor(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for trial := 0; trial < 200; trial++ {
		n := 2 + rng.IntN(120)
		rows := rng.IntN(n/2 + 1)
		m, sign := randomMatrix(rng, n, 1+rng.IntN(4), rows)
		sym, err := Analyze(m, order(t, m.Graph(), Nodes{}, 0))
		if err != nil {
			t.Fatal(err)
		}
		frontal := trial%5 == 4
		kernel(sym, m, frontal)
		piv := Pivot{Sign: sign, Scale: make([]float64, n), Eps: 1e-13}
		for i := range piv.Scale {
			piv.Scale[i] = 1 + rng.Float64()
		}
		flip := func() { // a diagonal of the wrong sign: a perturbed pivot
			i := rng.IntN(n)
			m.Val[m.Index(i, i)] = -m.Val[m.Index(i, i)]
		}
		if trial%3 == 0 {
			flip()
		}
		f := NewFactor(sym)
		if err := f.Factor(m, piv); err != nil {
			t.Fatal(err)
		}
		for round := 0; round < 3; round++ {
			changed := make([]int, 1+rng.IntN(3))
			for k := range changed {
				i := rng.IntN(n)
				changed[k] = i
				m.Val[m.Index(i, i)] *= 1 + rng.Float64()
				piv.Scale[i] *= 1 + rng.Float64()
			}
			if trial%3 == 1 && round == 1 {
				i := changed[0]
				m.Val[m.Index(i, i)] = -m.Val[m.Index(i, i)]
			}
			if err := f.Refactor(m, piv, changed); err != nil {
				t.Fatal(err)
			}
			fresh := NewFactor(sym)
			if err := fresh.Factor(m, piv); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(f.val, fresh.val) || !slices.Equal(f.d, fresh.d) || f.Perturbed != fresh.Perturbed {
				t.Fatalf("trial %d round %d (frontal %v, changed %v): refactored factor differs from a fresh one (%d and %d pivots perturbed)",
					trial, round, frontal, changed, f.Perturbed, fresh.Perturbed)
			}
		}
		if trial == 0 && f.Refactor(m, piv, []int{n}) == nil {
			t.Errorf("node %d of a %d×%d matrix was not refused", n, n, n)
		}
	}
}
