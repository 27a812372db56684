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

// Builder collects the structure of a symmetric matrix.
type Builder struct {
	n     int
	pairs [][2]int
}

// NewBuilder starts an n×n symmetric structure with its diagonal.
func NewBuilder(n int) *Builder {
	b := &Builder{n: n}
	for i := 0; i < n; i++ {
		b.pairs = append(b.pairs, [2]int{i, i})
	}
	return b
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
func (b *Builder) Matrix() *Matrix {
	// Sorted by column then row, duplicates removed.
	slices.SortFunc(b.pairs, func(x, y [2]int) int {
		if x[1] != y[1] {
			return x[1] - y[1]
		}
		return x[0] - y[0]
	})
	b.pairs = slices.Compact(b.pairs)
	m := &Matrix{N: b.n, Col: make([]int, b.n+1), Row: make([]int, len(b.pairs)), Val: make([]float64, len(b.pairs))}
	for k, p := range b.pairs {
		m.Row[k] = p[0]
		m.Col[p[1]+1]++
	}
	for j := 0; j < b.n; j++ {
		m.Col[j+1] += m.Col[j]
	}
	return m
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
func (m *Matrix) Graph() Graph {
	g := Graph{Start: make([]int, m.N+1)}
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
