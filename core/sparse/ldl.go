package sparse

import (
	"errors"
	"fmt"
	"math"
)

// Symbolic is the analysis of a matrix structure under an ordering: the
// elimination tree, the structure of L and its supernodes. It holds while
// the structure stays the same; new values need only Factor.
type Symbolic struct {
	n     int
	perm  []int // perm[k]: the node eliminated k-th
	iperm []int // iperm[perm[k]] = k
	// parent is the elimination tree of P A Pᵀ (−1 at a root), whose
	// nodes are numbered in postorder; L's column k holds the rows
	// rowIdx[colStart[k]:colStart[k+1]], ascending.
	parent   []int
	colStart []int
	rowIdx   []int
	// frontal: Factor uses the multifrontal kernel (see frontal.go),
	// whose supernodes and maps are then set.
	frontal bool
	front   *fronts
	// For the up-looking kernel: row k of L (left of the diagonal) is
	// row[rowStart[k]:rowStart[k+1]], its entries' columns ascending (an
	// order in which its triangular solve may go); and row k of P A Pᵀ
	// on and left of the diagonal is scatter[scatterStart[k]:
	// scatterStart[k+1]].
	rowStart, scatterStart []int
	row                    []rowEntry
	scatter                []scatterEntry
	// scratch of the analysis
	flag, count, post, stack []int
}

// Analyze computes the symbolic factorization of a's structure in the
// order perm (from Order, or nil for the natural order). The order is
// refined to a postorder of its elimination tree, which has the same
// fill and keeps each subtree's columns together.
func Analyze(a *Matrix, perm []int) (*Symbolic, error) {
	return AnalyzeIn(nil, a, perm)
}

// AnalyzeIn is Analyze written into s's storage (a new analysis if s is
// nil): a solver that analyzes again whenever its rows change allocates
// little. A Factor made for s must be Reset for it.
func AnalyzeIn(s *Symbolic, a *Matrix, perm []int) (*Symbolic, error) {
	n := a.N
	if perm != nil && len(perm) != n {
		return nil, fmt.Errorf("analyze: an ordering of %d nodes for a %d×%d matrix", len(perm), n, n)
	}
	if s == nil {
		s = &Symbolic{}
	}
	s.n, s.frontal, s.front = n, false, nil
	s.perm = grown(s.perm, n)
	if perm == nil {
		for i := range s.perm {
			s.perm[i] = i
		}
	} else {
		copy(s.perm, perm)
	}
	s.iperm, s.parent, s.colStart = grown(s.iperm, n), grown(s.parent, n), zeroed(s.colStart, n+1)
	for i := range s.iperm {
		s.iperm[i] = -1
	}
	for k, i := range s.perm {
		if i < 0 || i >= n || s.iperm[i] >= 0 {
			return nil, fmt.Errorf("analyze: the ordering is not a permutation (node %d)", i)
		}
		s.iperm[i] = k
	}
	s.flag = grown(s.flag, n)
	flag := s.flag
	s.tree(a, flag)
	s.postorder()
	count := s.tree(a, flag)
	for k := 0; k < n; k++ {
		s.colStart[k+1] = s.colStart[k] + count[k]
	}
	// L's structure: row k's entries, found as in tree, appended to their
	// columns in increasing k.
	s.rowIdx = grown(s.rowIdx, s.colStart[n])
	fill := count[:n]
	clear(fill)
	for k := 0; k < n; k++ {
		flag[k] = k
		col := s.perm[k]
		for q := a.Col[col]; q < a.Col[col+1]; q++ {
			for i := s.iperm[a.Row[q]]; i < k && flag[i] != k; i = s.parent[i] {
				s.rowIdx[s.colStart[i]+fill[i]] = k
				fill[i]++
				flag[i] = k
			}
		}
	}
	if s.Operations() > frontalFrom*s.Nonzeros() {
		s.frontal = true
		s.front = newFronts(s, a)
		return s, nil
	}
	s.rows(a)
	return s, nil
}

// rowEntry is an entry l_ki of L for the up-looking kernel: its column i,
// its position in rowIdx and the factor's values, and the position of its
// column's first entry (l_ki's column above it is from…pos−1).
type rowEntry struct{ col, pos, from int }

// scatterEntry is an entry of P A Pᵀ for the up-looking kernel: its
// column and its position in the matrix's values.
type scatterEntry struct{ col, pos int }

// rows lays out the up-looking kernel's row patterns of L and the scatter
// of a's entries, so that a factorization walks neither the elimination
// tree nor the permutation.
func (s *Symbolic) rows(a *Matrix) {
	n := s.n
	s.rowStart = zeroed(s.rowStart, n+1)
	for _, k := range s.rowIdx {
		s.rowStart[k+1]++
	}
	for k := 0; k < n; k++ {
		s.rowStart[k+1] += s.rowStart[k]
	}
	s.row = grown(s.row, len(s.rowIdx))
	next := append(s.count[:0], s.rowStart[:n]...)
	s.count = next
	for j := 0; j < n; j++ { // columns ascending: each row's list ascends
		for q := s.colStart[j]; q < s.colStart[j+1]; q++ {
			k := s.rowIdx[q]
			s.row[next[k]] = rowEntry{col: j, pos: q, from: s.colStart[j]}
			next[k]++
		}
	}
	s.scatterStart = grown(s.scatterStart, n+1)
	s.scatterStart[0] = 0
	s.scatter = s.scatter[:0]
	for k := 0; k < n; k++ {
		col := s.perm[k]
		for q := a.Col[col]; q < a.Col[col+1]; q++ {
			if i := s.iperm[a.Row[q]]; i <= k {
				s.scatter = append(s.scatter, scatterEntry{col: i, pos: q})
			}
		}
		s.scatterStart[k+1] = len(s.scatter)
	}
}

// Multifrontal reports whether Factor uses the multifrontal kernel.
func (s *Symbolic) Multifrontal() bool { return s.frontal }

// frontalFrom is the operations per entry of L above which the
// multifrontal kernel is used: where L has large dense blocks (a net's
// separators: 13 and more from a net of 1,000 unknowns) its dense
// updates are faster than the up-looking kernel's scattered ones; for a
// chain (about 1.5), a wire's hoist with its hub bodies (2 to 4) and a
// small net (7) the up-looking one is as fast or faster.
const frontalFrom = 8

// tree computes the elimination tree of P A Pᵀ and returns the number of
// entries of each column of L below the diagonal: row k of L is the set of
// nodes reached from the entries of row k of P A Pᵀ left of the diagonal
// by walking up the tree until node k, whose tree it joins (Liu).
func (s *Symbolic) tree(a *Matrix, flag []int) []int {
	s.count = zeroed(s.count, s.n+1)
	count := s.count
	for k := 0; k < s.n; k++ {
		s.parent[k], flag[k] = -1, k
		col := s.perm[k]
		for q := a.Col[col]; q < a.Col[col+1]; q++ {
			for i := s.iperm[a.Row[q]]; i < k && flag[i] != k; i = s.parent[i] {
				if s.parent[i] < 0 {
					s.parent[i] = k
				}
				count[i]++
				flag[i] = k
			}
		}
	}
	return count
}

// postorder renumbers perm so that each subtree of the elimination tree
// is a contiguous run of columns ending at its root (children in their
// old order), which leaves the tree the same up to the numbering.
func (s *Symbolic) postorder() {
	n := s.n
	// Scratch: flag and count are free between the two tree walks.
	s.post = grown(s.post, 3*n)
	head, next, post := s.post[:n], s.post[n:2*n], s.post[2*n:2*n]
	for i := range head {
		head[i] = -1
	}
	for k := n - 1; k >= 0; k-- { // children lists, ascending
		if p := s.parent[k]; p >= 0 {
			next[k], head[p] = head[p], k
		}
	}
	stack := s.stack[:0]
	defer func() { s.stack = stack }()
	for root := 0; root < n; root++ {
		if s.parent[root] >= 0 {
			continue
		}
		stack = append(stack, root)
		for len(stack) > 0 {
			top := stack[len(stack)-1]
			if c := head[top]; c >= 0 {
				head[top] = next[c]
				stack = append(stack, c)
				continue
			}
			stack = stack[:len(stack)-1]
			post = append(post, top)
		}
	}
	old := append(s.flag[:0], s.perm...) // flag is scratch here
	for k, p := range post {
		s.perm[k] = old[p]
		s.iperm[old[p]] = k
	}
}

// Nonzeros returns the number of entries of L below its diagonal.
func (s *Symbolic) Nonzeros() int { return s.colStart[s.n] }

// Operations returns the multiply-adds of a numeric factorization,
// Σ_k c_k (c_k + 1)/2 for the c_k entries of column k of L: what an
// ordering is judged by.
func (s *Symbolic) Operations() int {
	ops := 0
	for k := 0; k < s.n; k++ {
		c := s.colStart[k+1] - s.colStart[k]
		ops += c * (c + 1) / 2
	}
	return ops
}

// Factor is the numeric LDLᵀ factorization P A Pᵀ = L D Lᵀ of a matrix,
// L unit lower triangular in compressed columns.
type Factor struct {
	sym *Symbolic
	// val holds L's entries below the diagonal, in the symbolic
	// structure's positions; d its diagonal D.
	val []float64
	d   []float64
	// Perturbed counts the pivots of the last factorization that were
	// below the threshold and were replaced (see Options.Pivot).
	Perturbed int
	// perturbed marks them by position, for Refactor, which keeps the
	// rows before the first it recomputes.
	perturbed []bool
	// scratch of the up-looking kernel
	y, x []float64
	// scratch of the multifrontal kernel: the dense front, the stack of
	// update matrices and their places on it
	front, stack []float64
	updates      []update
}

// Pivot says how Factor treats a pivot d_k too small to divide by. With
// Sign (per node, not per position) the expected sign of each pivot, a
// pivot of the wrong sign or of magnitude below Eps·Scale[node] is set to
// Sign·Eps·Scale[node] and counted in Factor.Perturbed: static pivoting,
// whose solution is that of a nearby matrix, which iterative refinement
// against the true matrix corrects. With Sign nil a zero pivot is an
// error.
type Pivot struct {
	Sign  []int8
	Scale []float64
	Eps   float64
}

// ErrSingular reports a zero pivot.
var ErrSingular = errors.New("matrix is singular")

// NewFactor allocates a factorization for the analysis s.
func NewFactor(s *Symbolic) *Factor {
	f := &Factor{}
	f.Reset(s)
	return f
}

// Reset makes f a factorization for the analysis s, keeping its storage.
func (f *Factor) Reset(s *Symbolic) {
	f.sym, f.Perturbed = s, 0
	f.val, f.d, f.perturbed = zeroed(f.val, s.Nonzeros()), zeroed(f.d, s.n), zeroed(f.perturbed, s.n)
	f.y, f.x = zeroed(f.y, s.n), zeroed(f.x, s.n)
}

// Symbolic returns the analysis f factors for.
func (f *Factor) Symbolic() *Symbolic { return f.sym }

// Factor computes L and D for a's values (a's structure must be the one
// analyzed), with the kernel the analysis chose: multifrontal where L has
// dense blocks, up-looking otherwise.
func (f *Factor) Factor(a *Matrix, piv Pivot) error {
	if err := f.check(a, piv); err != nil {
		return err
	}
	f.Perturbed = 0
	clear(f.perturbed)
	if f.sym.frontal {
		return f.multifrontal(a, piv)
	}
	return f.upLooking(a, piv, 0)
}

// check reports a matrix or pivot options of the wrong size.
func (f *Factor) check(a *Matrix, piv Pivot) error {
	if a.N != f.sym.n {
		return fmt.Errorf("factor: a %d×%d matrix for an analysis of %d", a.N, a.N, f.sym.n)
	}
	if piv.Sign != nil && (len(piv.Sign) != a.N || len(piv.Scale) != a.N) {
		return fmt.Errorf("factor: %d pivot signs and %d scales for %d unknowns", len(piv.Sign), len(piv.Scale), a.N)
	}
	return nil
}

// Refactor factors a again where it differs from the matrix of the last
// Factor or Refactor only in the rows and columns of the nodes changed
// and in those nodes' pivot scales: an active set's pinned row changes
// its diagonal alone. Row k of L depends on rows k and above of P A Pᵀ
// and on L's rows before k only, so the rows before the first changed
// node's position are kept as they are, and the result is the one Factor
// gives, to the bit. The multifrontal kernel factors anew.
func (f *Factor) Refactor(a *Matrix, piv Pivot, changed []int) error {
	if err := f.check(a, piv); err != nil {
		return err
	}
	s := f.sym
	from := s.n
	for _, c := range changed {
		if c < 0 || c >= s.n {
			return fmt.Errorf("refactor: node %d of a %d×%d matrix", c, s.n, s.n)
		}
		from = min(from, s.iperm[c])
	}
	if s.frontal {
		from = 0
	}
	f.Perturbed = 0
	for _, p := range f.perturbed[:from] {
		if p {
			f.Perturbed++
		}
	}
	clear(f.perturbed[from:])
	if s.frontal {
		return f.multifrontal(a, piv)
	}
	return f.upLooking(a, piv, from)
}

// pivot returns the pivot to divide by at position k for the computed
// dk, perturbed as piv says.
func (f *Factor) pivot(dk float64, k int, piv *Pivot) (float64, error) {
	col := f.sym.perm[k]
	switch {
	case piv.Sign != nil:
		sign := float64(piv.Sign[col])
		if sign != 1 && sign != -1 {
			return 0, fmt.Errorf("factor: pivot sign %v of node %d: must be ±1", sign, col)
		}
		least := max(piv.Eps*piv.Scale[col], math.SmallestNonzeroFloat64)
		if !(dk*sign >= least) {
			dk = sign * least
			f.Perturbed++
			f.perturbed[k] = true
		}
	case dk == 0 || math.IsNaN(dk):
		return 0, fmt.Errorf("factor: pivot %d (node %d): %w", k, col, ErrSingular)
	}
	return dk, nil
}

// takes reports whether dk is the pivot of node col as it is, as pivot
// would find: the usual case, decided without a call in the up-looking
// kernel's loop over the unknowns.
func (piv *Pivot) takes(dk float64, col int) bool {
	if piv.Sign == nil {
		return dk != 0 && !math.IsNaN(dk)
	}
	// dk·sign ≥ max(ε·scale, the least float), as pivot has it.
	sign := piv.Sign[col]
	v := dk * float64(sign)
	return (sign == 1 || sign == -1) && v >= piv.Eps*piv.Scale[col] && v >= math.SmallestNonzeroFloat64
}

// upLooking computes L row by row from row from on (the rows before it
// kept): row k of L solves L₁₁ D₁₁ yᵀ = A₁₂ on the row's pattern (from
// the analysis, ascending), and d_k = a_kk − Σ_j l_kj y_j. Column i's
// entries above row k are those before l_ki's position (rows ascend), so
// a refactorization from a later row needs no bookkeeping of the rows
// kept.
func (f *Factor) upLooking(a *Matrix, piv Pivot, from int) error {
	s := f.sym
	// Locals, and slices of known lengths: the loops reload no fields,
	// and check fewer bounds.
	n := s.n
	y, d, aVal := f.y[:n], f.d[:n], a.Val
	rowIdx := s.rowIdx
	val := f.val[:len(rowIdx)]
	rowStart, scatterStart := s.rowStart[:n+1], s.scatterStart[:n+1]
	perm := s.perm[:n]
	for k := from; k < n; k++ {
		// Row k of P A Pᵀ, left of and on the diagonal, into y.
		for _, e := range s.scatter[scatterStart[k]:scatterStart[k+1]] {
			y[e.col] += aVal[e.pos]
		}
		dk := y[k]
		y[k] = 0
		for _, e := range s.row[rowStart[k]:rowStart[k+1]] {
			yi := y[e.col]
			y[e.col] = 0
			// l_ki first: the column's update below reads neither it
			// nor dk, and the loop then holds fewer values.
			lki := yi / d[e.col]
			dk -= lki * yi
			val[e.pos] = lki
			// Column e.col above row k; unsigned q needs no bounds
			// checks on rows and vals.
			rows := rowIdx[:e.pos]
			vals := val[:len(rows)]
			for q := uint(e.from); q < uint(len(rows)); q++ {
				y[rows[q]] -= vals[q] * yi
			}
		}
		if !piv.takes(dk, perm[k]) {
			var err error
			if dk, err = f.pivot(dk, k, &piv); err != nil {
				return err
			}
		}
		d[k] = dk
	}
	return nil
}

// Solve overwrites b with the solution x of A x = b.
func (f *Factor) Solve(b []float64) {
	s := f.sym
	n := s.n
	x, d, perm := f.x[:n], f.d[:n], s.perm[:n]
	colStart, rowIdx, val := s.colStart[:n+1], s.rowIdx, f.val[:len(s.rowIdx)]
	forward(x, b, perm, colStart, rowIdx, val)
	backward(b, x, d, perm, colStart, rowIdx, val)
}

// forward sets x to L⁻¹ P b, L unit lower triangular with columns
// colStart, rows rowIdx and values val (of one length). Solve's halves
// are functions of their own: in one, the other's locals crowded the
// registers and the loops reloaded some per entry.
func forward(x, b []float64, perm, colStart, rowIdx []int, val []float64) {
	perm, colStart = perm[:len(x)], colStart[:len(x)+1]
	for k, i := range perm {
		x[k] = b[i]
	}
	for j, xj := range x {
		// Column j of L is rows[colStart[j]:], vals alike: unsigned
		// q needs no bounds checks on them.
		rows := rowIdx[:colStart[j+1]]
		vals := val[:len(rows)]
		for q := uint(colStart[j]); q < uint(len(rows)); q++ {
			x[rows[q]] -= vals[q] * xj
		}
	}
}

// backward sets b to Pᵀ L⁻ᵀ D⁻¹ x, x's entries divided by D as their
// columns come (x_j is final when column j comes: the columns after it
// write only their own), x left as L⁻ᵀ D⁻¹ x.
func backward(b, x, d []float64, perm, colStart, rowIdx []int, val []float64) {
	d, perm, colStart = d[:len(x)], perm[:len(x)], colStart[:len(x)+1]
	for j := len(x) - 1; j >= 0; j-- {
		xj := x[j] / d[j]
		rows := rowIdx[:colStart[j+1]]
		vals := val[:len(rows)]
		for q := uint(colStart[j]); q < uint(len(rows)); q++ {
			xj -= vals[q] * x[rows[q]]
		}
		x[j] = xj
	}
	for k, i := range perm {
		b[i] = x[k]
	}
}

// intBytes is the size of an int (bytes), for the storage estimates.
const intBytes = 8

// Bytes returns the storage the analysis holds (bytes, by capacity): what
// a solver keeping several analyses counts against its budget.
func (s *Symbolic) Bytes() int {
	n := 0
	for _, v := range [][]int{s.perm, s.iperm, s.parent, s.colStart, s.rowIdx, s.rowStart,
		s.scatterStart, s.flag, s.count, s.post, s.stack} {
		n += intBytes * cap(v)
	}
	n += 3*intBytes*cap(s.row) + 2*intBytes*cap(s.scatter)
	if fr := s.front; fr != nil {
		for _, v := range [][]int{fr.start, fr.children, fr.rel, fr.relStart, fr.aQ, fr.aAt, fr.aStart} {
			n += intBytes * cap(v)
		}
	}
	return n
}

// Bytes returns the storage the factorization holds (bytes, by capacity),
// its analysis not counted.
func (f *Factor) Bytes() int {
	return 8*(cap(f.val)+cap(f.d)+cap(f.y)+cap(f.x)+cap(f.front)+cap(f.stack)) + cap(f.perturbed) + 3*intBytes*cap(f.updates)
}

// Inertia returns the numbers of positive and negative pivots.
func (f *Factor) Inertia() (pos, neg int) {
	for _, d := range f.d {
		if d > 0 {
			pos++
		} else if d < 0 {
			neg++
		}
	}
	return pos, neg
}
