package sparse

import "slices"

// The multifrontal kernel (Duff and Reid; Liu's survey): the columns of L
// are grouped into fundamental supernodes, runs of columns along a path of
// the elimination tree that share their structure below. Each supernode
// gathers its entries of A and its children's update matrices into a
// dense front, eliminates its own columns there and passes the rest of the
// front, the update matrix, to its parent. A net's separators are dense
// blocks of L, and dense loops over them run several times faster than
// the up-looking kernel's scattered updates; for a chain, whose supernodes
// are a column or three, the up-looking kernel stays faster.

// fronts is the multifrontal layout of a Symbolic.
type fronts struct {
	// start[s]: supernode s's first column (start[len−1] = n); its rows
	// below are those of L's column start[s+1]−1.
	start []int
	// children[s]: how many supernodes pass their update matrix to s.
	children []int
	// rel[relStart[s]:relStart[s+1]]: the positions in its parent's front
	// of supernode s's rows below.
	rel, relStart []int
	// A's entry aVal[aQ[t]] is added at aAt[t] of its supernode's front
	// (column-major, front order), t in aStart[s]…aStart[s+1].
	aQ, aAt, aStart []int
	// largest is the largest front's order.
	largest int
}

// front returns the order of supernode s's front and its rows below its
// own columns.
func (fr *fronts) front(s *Symbolic, sn int) (m int, below []int) {
	last := fr.start[sn+1] - 1
	below = s.rowIdx[s.colStart[last]:s.colStart[last+1]]
	return fr.start[sn+1] - fr.start[sn] + len(below), below
}

// newFronts finds the supernodes of s (postordered, structure known) and
// the maps of A's entries and of the update matrices into the fronts.
func newFronts(s *Symbolic, a *Matrix) *fronts {
	n := s.n
	kids := make([]int, n)
	for _, p := range s.parent {
		if p >= 0 {
			kids[p]++
		}
	}
	count := func(j int) int { return s.colStart[j+1] - s.colStart[j] }
	fr := &fronts{}
	for j := 0; j < n; j++ {
		if j == 0 || !(s.parent[j-1] == j && kids[j] == 1 && count(j-1) == count(j)+1) {
			fr.start = append(fr.start, j)
		}
	}
	fr.start = append(fr.start, n)
	nsn := len(fr.start) - 1
	of := make([]int, n) // supernode of each column
	for sn := 0; sn < nsn; sn++ {
		for j := fr.start[sn]; j < fr.start[sn+1]; j++ {
			of[j] = sn
		}
	}
	fr.children = make([]int, nsn)
	parent := make([]int, nsn)
	byParent := make([][]int, nsn)
	for sn := 0; sn < nsn; sn++ {
		parent[sn] = -1
		if p := s.parent[fr.start[sn+1]-1]; p >= 0 {
			parent[sn] = of[p]
			fr.children[of[p]]++
			byParent[of[p]] = append(byParent[of[p]], sn)
		}
	}
	// where[row]: the row's position in the front being mapped.
	where := make([]int, n)
	rel := make([][]int, nsn)
	fr.aStart = append(fr.aStart, 0)
	for sn := 0; sn < nsn; sn++ {
		first, next := fr.start[sn], fr.start[sn+1]
		m, below := fr.front(s, sn)
		fr.largest = max(fr.largest, m)
		for j := first; j < next; j++ {
			where[j] = j - first
		}
		for t, i := range below {
			where[i] = next - first + t
		}
		for j := first; j < next; j++ {
			col := s.perm[j]
			for q := a.Col[col]; q < a.Col[col+1]; q++ {
				if i := s.iperm[a.Row[q]]; i >= j {
					fr.aQ = append(fr.aQ, q)
					fr.aAt = append(fr.aAt, where[i]+(j-first)*m)
				}
			}
		}
		fr.aStart = append(fr.aStart, len(fr.aQ))
		for _, c := range byParent[sn] {
			_, cBelow := fr.front(s, c)
			for _, i := range cBelow {
				rel[c] = append(rel[c], where[i])
			}
		}
	}
	fr.relStart = append(fr.relStart, 0)
	for sn := 0; sn < nsn; sn++ {
		fr.rel = append(fr.rel, rel[sn]...)
		fr.relStart = append(fr.relStart, len(fr.rel))
	}
	return fr
}

// update is an update matrix on the stack: supernode sn's, of order m,
// column-major at stack[at:at+m·m].
type update struct{ sn, m, at int }

// multifrontal computes L and D supernode by supernode, in postorder, so
// that each supernode's children's update matrices are the top of the
// stack.
func (f *Factor) multifrontal(a *Matrix, piv Pivot) error {
	s := f.sym
	fr := s.front
	if len(f.front) < fr.largest*fr.largest {
		f.front = make([]float64, fr.largest*fr.largest)
	}
	f.stack, f.updates = f.stack[:0], f.updates[:0]
	for sn := 0; sn+1 < len(fr.start); sn++ {
		first, next := fr.start[sn], fr.start[sn+1]
		cols := next - first
		m, below := fr.front(s, sn)
		front := f.front[:m*m]
		clear(front)
		for t := fr.aStart[sn]; t < fr.aStart[sn+1]; t++ {
			front[fr.aAt[t]] += a.Val[fr.aQ[t]]
		}
		// Extend-add the children's update matrices (lower triangles:
		// the positions rise with the rows).
		for c := 0; c < fr.children[sn]; c++ {
			u := f.updates[len(f.updates)-1]
			f.updates = f.updates[:len(f.updates)-1]
			rel := fr.rel[fr.relStart[u.sn]:fr.relStart[u.sn+1]]
			um := f.stack[u.at : u.at+u.m*u.m]
			for jj, rj := range rel {
				dst := front[rj*m : rj*m+m]
				src := um[jj*u.m : jj*u.m+u.m]
				for ii := jj; ii < len(rel); ii++ {
					dst[rel[ii]] += src[ii]
				}
			}
			f.stack = f.stack[:u.at]
		}
		// Eliminate the supernode's columns: the front's trailing lower
		// triangle takes −l d lᵀ of each.
		for j := 0; j < cols; j++ {
			k := first + j
			dk, err := f.pivot(front[j*m+j], k, &piv)
			if err != nil {
				return err
			}
			f.d[k] = dk
			lj := front[j*m+j+1 : j*m+m]
			for t, v := range lj {
				if v == 0 {
					continue
				}
				c := v / dk
				col := front[(j+1+t)*m+j+1+t : (j+1+t)*m+m]
				src := lj[t:]
				src = src[:len(col)]
				for r := range col {
					col[r] -= src[r] * c
				}
			}
			dst := f.val[s.colStart[k]:s.colStart[k+1]]
			dst = dst[:len(lj)]
			for t, v := range lj {
				dst[t] = v / dk
			}
		}
		if len(below) == 0 {
			continue
		}
		at := len(f.stack)
		mu := len(below)
		f.stack = slices.Grow(f.stack, mu*mu)[:at+mu*mu]
		um := f.stack[at:] // only the lower triangle is written and read
		for jj := 0; jj < mu; jj++ {
			copy(um[jj*mu+jj:jj*mu+mu], front[(cols+jj)*m+cols+jj:(cols+jj)*m+m])
		}
		f.updates = append(f.updates, update{sn: sn, m: mu, at: at})
	}
	return nil
}
