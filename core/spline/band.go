package spline

import (
	"errors"
	"fmt"
	"math"
)

// band is a square matrix of n rows with kl sub- and ku super-diagonals,
// factored in place by Gaussian elimination with partial pivoting (the
// scheme of LAPACK's dgbtrf, which gonum does not provide; the indefinite
// systems of the Lagrange multipliers need the pivoting). Entry (i, j),
// |i − j| within the bands, lives at a[i*w + j − i + kl]: row i holds
// columns i − kl … i + ku + kl, the extra kl for the fill that row
// exchanges bring.
type band struct {
	n, kl, ku int
	w         int // row width: 2kl + ku + 1
	a         []float64
	piv       []int
	reach     []int     // per row: its last nonzero column, while factoring
	scale     []float64 // per row: its largest entry before the elimination
	rhs       []float64 // eliminated along, when not nil
	done      int       // elimination steps carried out
	// floor, when not nil, holds per row the least scale its pivot is
	// judged against: what a row of its kind holds (a stiffness), so that
	// a row whose entries cancelled to rounding noise (no stiffness at
	// all) is found singular rather than judged against its own noise.
	floor []float64
	// deferred holds every elimination back until the last row is in
	// (eliminate(n)): the whole matrix assembled, then factored, which
	// the frontal scheme must match bitwise.
	deferred bool
}

// errSingular is a factorization's failure for want of a pivot.
var errSingular = errors.New("singular matrix")

func newBand(n, kl, ku int) *band {
	w := 2*kl + ku + 1
	return &band{n: n, kl: kl, ku: ku, w: w, a: make([]float64, n*w), piv: make([]int, n)}
}

// at returns the storage index of (i, j); it panics outside the bands.
func (b *band) at(i, j int) int {
	d := j - i + b.kl
	if d < 0 || d >= b.w {
		panic(fmt.Sprintf("band: (%d, %d) outside %d/%d bands", i, j, b.kl, b.ku))
	}
	return i*b.w + d
}

// add adds v to entry (i, j).
func (b *band) add(i, j int, v float64) { b.a[b.at(i, j)] += v }

// get returns entry (i, j), zero outside the stored bands.
func (b *band) get(i, j int) float64 {
	d := j - i + b.kl
	if d < 0 || d >= b.w {
		return 0
	}
	return b.a[i*b.w+d]
}

// begin starts a factorization that eliminate carries out in stages, as
// the rows are assembled (a frontal scheme): step k reads and changes
// rows k … k + kl alone, so that rows farther down may still be zero or
// incomplete, and the whole elimination runs over rows that are in the
// cache. rhs, when not nil, is eliminated along (the forward
// substitution), and back then solves.
func (b *band) begin(rhs []float64) {
	n := b.n
	if cap(b.scale) < n {
		b.scale = make([]float64, n)
	}
	b.reach = b.reach[:0]
	for i := 0; i < n; i++ {
		b.reach = append(b.reach, min(i+b.ku, n-1))
	}
	b.rhs, b.done = rhs, 0
}

// zeroRows clears rows from … to − 1 (a frontal assembly clears a row
// before it adds the first entry to it).
func (b *band) zeroRows(from, to int) { clear(b.a[from*b.w : to*b.w]) }

// eliminate carries out elimination steps up to (not including) to:
// rows up to to + kl − 1 must be complete. It fails (errSingular) on a
// column without a pivot, none above 1e-14 of its row's scale or floor (a
// singular matrix: in the static system, rigid motions no constraint
// holds, or no stiffness across a straight slack cable). Each row's reach
// (its last nonzero column) is tracked, so that where no rows are
// exchanged (the mass and stiffness part, positive definite) the
// elimination spans ku columns rather than kl + ku. Each pivot is judged against
// its row's largest entry before the elimination: unknowns of very
// different scales (a thin rope's roll next to a heavy load's position)
// each have theirs. A row's scale is taken as it enters the elimination's
// window (row i at step i − kl, before any step touches it), while it is
// about to be read anyway.
func (b *band) eliminate(to int) error {
	n, kl, ku, w := b.n, b.kl, b.ku, b.w
	if to <= b.done || (b.deferred && to < n) {
		return nil
	}
	scale, reach, x := b.scale[:n], b.reach, b.rhs
	rowScale := func(i int) float64 {
		m := 0.0
		if b.floor != nil {
			m = b.floor[i]
		}
		for _, v := range b.a[i*w+max(kl-i, 0) : i*w+kl+min(ku, n-1-i)+1] {
			if v > m {
				m = v
			} else if -v > m {
				m = -v
			}
		}
		return m
	}
	if b.done == 0 {
		for i := 0; i < min(kl, n); i++ {
			scale[i] = rowScale(i)
		}
	}
	for k := b.done; k < min(to, n); k++ {
		if i := k + kl; i < n {
			scale[i] = rowScale(i)
		}
		// Pivot: the largest of column k in rows k … k+kl.
		p, best := k, math.Abs(b.a[k*w+kl])
		for i := k + 1; i <= min(k+kl, n-1); i++ {
			if v := math.Abs(b.a[i*w+k-i+kl]); v > best {
				p, best = i, v
			}
		}
		if !(best > 1e-14*scale[p]) {
			return fmt.Errorf("%w: no pivot in column %d of %d", errSingular, k, n)
		}
		b.piv[k] = p
		if p != k {
			scale[k], scale[p] = scale[p], scale[k]
			last := max(reach[k], reach[p])
			for j := k; j <= last; j++ {
				b.a[k*w+j-k+kl], b.a[p*w+j-p+kl] = b.a[p*w+j-p+kl], b.a[k*w+j-k+kl]
			}
			reach[k], reach[p] = last, last
			if x != nil {
				x[k], x[p] = x[p], x[k]
			}
		}
		last := reach[k]
		pivot := b.a[k*w+kl]
		row := b.a[k*w-k+kl : k*w-k+kl+last+1] // row k by column
		for i := k + 1; i <= min(k+kl, n-1); i++ {
			l := b.a[i*w+k-i+kl] / pivot
			b.a[i*w+k-i+kl] = l
			if l == 0 {
				continue
			}
			other := b.a[i*w-i+kl : i*w-i+kl+last+1]
			for j := k + 1; j <= last; j++ {
				other[j] -= l * row[j]
			}
			reach[i] = max(reach[i], last)
			if x != nil {
				x[i] -= l * x[k]
			}
		}
		b.done = k + 1
	}
	return nil
}

// back completes the solve of x, forward-eliminated already, by back
// substitution through U.
func (b *band) back(x []float64) {
	kl, w := b.kl, b.w
	for k := b.n - 1; k >= 0; k-- {
		s := x[k]
		row := b.a[k*w-k+kl : k*w-k+kl+b.reach[k]+1] // by column, up to its reach
		for j := k + 1; j < len(row); j++ {
			s -= row[j] * x[j]
		}
		x[k] = s / row[k]
	}
}
