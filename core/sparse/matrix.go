package sparse

import (
	"fmt"
	"slices"
)

// Matrix is a symmetric n×n matrix in compressed columns, both triangles
// stored: column j holds rows Row[Col[j]:Col[j+1]], in increasing order,
// with values Val. The structure (Col, Row) is fixed once built; Val may
// be rewritten for each factorization (Index finds an entry's position).
type Matrix struct {
	N   int
	Col []int
	Row []int
	Val []float64
}

// Builder collects the structure of a symmetric matrix. A Builder may be
// Reset and used again, keeping its storage.
type Builder struct {
	n     int
	pairs [][2]int
	// scratch of Build
	at    []int
	byRow [][2]int
}

// NewBuilder starts an n×n symmetric structure with its diagonal.
func NewBuilder(n int) *Builder {
	b := &Builder{}
	b.Reset(n)
	return b
}

// Reset starts b again on an n×n structure with its diagonal.
func (b *Builder) Reset(n int) {
	b.n = n
	b.pairs = b.pairs[:0]
	for i := 0; i < n; i++ {
		b.pairs = append(b.pairs, [2]int{i, i})
	}
}

// Couple marks entries (i, j) and (j, i) as nonzero.
func (b *Builder) Couple(i, j int) {
	if i < 0 || j < 0 || i >= b.n || j >= b.n {
		panic(fmt.Sprintf("sparse: entry (%d, %d) outside a %d×%d matrix", i, j, b.n, b.n))
	}
	b.pairs = append(b.pairs, [2]int{j, i})
	if i != j {
		b.pairs = append(b.pairs, [2]int{i, j})
	}
}

// Matrix returns the structure built, with zero values.
func (b *Builder) Matrix() *Matrix { return b.Build(nil) }

// Build writes the structure built, with zero values, into m (reusing
// its storage; a new matrix if m is nil) and returns it.
func (b *Builder) Build(m *Matrix) *Matrix {
	// Sorted by column then row, duplicates removed: a counting sort by
	// row, then a stable one by column (linear; a comparison sort of the
	// pairs was most of the time of a symbolic analysis).
	n := b.n
	at := grown(b.at, n+1)
	clear(at)
	for _, p := range b.pairs {
		at[p[0]+1]++
	}
	for i := 0; i < n; i++ {
		at[i+1] += at[i]
	}
	byRow := b.byRow[:0]
	byRow = slices.Grow(byRow, len(b.pairs))[:len(b.pairs)]
	for _, p := range b.pairs {
		byRow[at[p[0]]] = p
		at[p[0]]++
	}
	clear(at)
	for _, p := range byRow {
		at[p[1]+1]++
	}
	for j := 0; j < n; j++ {
		at[j+1] += at[j]
	}
	if m == nil {
		m = &Matrix{}
	}
	rows := grown(m.Row, len(byRow))
	for _, p := range byRow {
		rows[at[p[1]]] = p[0]
		at[p[1]]++
	}
	// at[j] is now column j's end; compact each column in place.
	m.N, m.Col = n, grown(m.Col, n+1)
	m.Col[0] = 0
	k, from := 0, 0
	for j := 0; j < n; j++ {
		for q := from; q < at[j]; q++ {
			if q == from || rows[q] != rows[q-1] {
				rows[k] = rows[q]
				k++
			}
		}
		from = at[j]
		m.Col[j+1] = k
	}
	m.Row = rows[:k]
	m.Val = grown(m.Val, k)
	clear(m.Val)
	b.at, b.byRow = at, byRow
	return m
}

// grown returns s resliced to length n, reallocated if its capacity is
// short; its contents are left as they are.
func grown[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// Index returns the position of entry (i, j) in Val, or −1 if it is not
// in the structure.
func (m *Matrix) Index(i, j int) int {
	rows := m.Row[m.Col[j]:m.Col[j+1]]
	if k, ok := slices.BinarySearch(rows, i); ok {
		return m.Col[j] + k
	}
	return -1
}

// MulVec sets y = A x.
func (m *Matrix) MulVec(y, x []float64) {
	for j := 0; j < m.N; j++ {
		s := 0.0
		for k := m.Col[j]; k < m.Col[j+1]; k++ {
			s += m.Val[k] * x[m.Row[k]]
		}
		y[j] = s // A symmetric: column j is row j
	}
}

// Graph returns the adjacency of the matrix's structure without the
// diagonal, in the form Order takes.
func (m *Matrix) Graph() Graph { return m.GraphIn(Graph{}) }

// GraphIn is Graph written into g's storage.
func (m *Matrix) GraphIn(g Graph) Graph {
	g.Start, g.Adj = grown(g.Start, m.N+1), g.Adj[:0]
	g.Start[0] = 0
	for j := 0; j < m.N; j++ {
		for k := m.Col[j]; k < m.Col[j+1]; k++ {
			if m.Row[k] != j {
				g.Adj = append(g.Adj, m.Row[k])
			}
		}
		g.Start[j+1] = len(g.Adj)
	}
	return g
}
