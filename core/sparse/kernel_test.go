package sparse

import (
	"math"
	"math/rand/v2"
	"testing"
)

// refUpLooking is the up-looking kernel in its plain form, from L's
// columns alone: the order of every floating-point operation the kernel
// must keep.
func refUpLooking(f *Factor, a *Matrix, piv Pivot, from int) error {
	s := f.sym
	type entry struct{ col, pos int }
	rows := make([][]entry, s.n)
	for j := 0; j < s.n; j++ {
		for q := s.colStart[j]; q < s.colStart[j+1]; q++ {
			rows[s.rowIdx[q]] = append(rows[s.rowIdx[q]], entry{j, q})
		}
	}
	y := make([]float64, s.n)
	for k := from; k < s.n; k++ {
		col := s.perm[k]
		for q := a.Col[col]; q < a.Col[col+1]; q++ {
			if i := s.iperm[a.Row[q]]; i <= k {
				y[i] += a.Val[q]
			}
		}
		dk := y[k]
		y[k] = 0
		for _, e := range rows[k] {
			yi := y[e.col]
			y[e.col] = 0
			for q := s.colStart[e.col]; q < e.pos; q++ {
				y[s.rowIdx[q]] -= f.val[q] * yi
			}
			lki := yi / f.d[e.col]
			dk -= lki * yi
			f.val[e.pos] = lki
		}
		dk, err := f.pivot(dk, k, &piv)
		if err != nil {
			return err
		}
		f.d[k] = dk
	}
	return nil
}

// refSolve is Solve in its plain form.
func refSolve(f *Factor, b []float64) {
	s := f.sym
	x := make([]float64, s.n)
	for k, i := range s.perm {
		x[k] = b[i]
	}
	for j := 0; j < s.n; j++ {
		xj := x[j]
		for q := s.colStart[j]; q < s.colStart[j+1]; q++ {
			x[s.rowIdx[q]] -= f.val[q] * xj
		}
	}
	for j := 0; j < s.n; j++ {
		x[j] /= f.d[j]
	}
	for j := s.n - 1; j >= 0; j-- {
		xj := x[j]
		for q := s.colStart[j]; q < s.colStart[j+1]; q++ {
			xj -= f.val[q] * x[s.rowIdx[q]]
		}
		x[j] = xj
	}
	for k, i := range s.perm {
		b[i] = x[k]
	}
}

// sameBits reports whether a and b hold the same float64s, bit for bit
// (signed zeros and NaNs told apart).
func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// The up-looking kernel, Refactor and Solve give the plain forms' results
// to the bit, on random matrices with zeros of both signs, subnormal and
// huge entries, and perturbed pivots.
func TestKernelsMatchPlainForms(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	special := []float64{0, math.Copysign(0, -1), 5e-324, -5e-324, 1e300, -1e300, 1e-300}
	for trial := 0; trial < 600; trial++ {
		n := 1 + rng.IntN(150)
		rows := rng.IntN(n/2 + 1)
		m, sign := randomMatrix(rng, n, 1+rng.IntN(5), rows)
		for q := range m.Val {
			if trial%2 == 1 && rng.IntN(6) == 0 {
				m.Val[q] = special[rng.IntN(len(special))]
			}
		}
		var perm []int
		if trial%4 != 3 {
			perm = order(t, m.Graph(), Nodes{}, 0)
		}
		sym, err := Analyze(m, perm)
		if err != nil {
			t.Fatal(err)
		}
		kernel(sym, m, false)
		piv := Pivot{Sign: sign, Scale: make([]float64, n), Eps: 1e-13}
		for i := range piv.Scale {
			piv.Scale[i] = rng.Float64() * 2
		}
		if trial%5 == 4 {
			piv = Pivot{}
		}
		f, want := NewFactor(sym), NewFactor(sym)
		err, werr := f.Factor(m, piv), refUpLooking(want, m, piv, 0)
		if (err == nil) != (werr == nil) {
			t.Fatalf("trial %d: error %v, plain form's %v", trial, err, werr)
		}
		if err != nil {
			continue
		}
		check := func(what string) {
			t.Helper()
			if !sameBits(f.val, want.val) || !sameBits(f.d, want.d) || f.Perturbed != want.Perturbed {
				t.Fatalf("trial %d: %s differs from the plain form's", trial, what)
			}
			b := make([]float64, n)
			for i := range b {
				b[i] = rng.Float64()*2 - 1
				if rng.IntN(5) == 0 {
					b[i] = special[rng.IntN(len(special))]
				}
			}
			x, wx := append([]float64(nil), b...), append([]float64(nil), b...)
			f.Solve(x)
			refSolve(want, wx)
			if !sameBits(x, wx) {
				t.Fatalf("trial %d: the solve with the %s differs from the plain form's", trial, what)
			}
		}
		check("factor")
		// Refactor from a random node on, with a changed diagonal.
		i := rng.IntN(n)
		m.Val[m.Index(i, i)] *= 1 + rng.Float64()
		if err := f.Refactor(m, piv, []int{i}); err != nil {
			t.Fatal(err)
		}
		want.Perturbed = 0
		for _, p := range want.perturbed[:sym.iperm[i]] {
			if p {
				want.Perturbed++
			}
		}
		clear(want.perturbed[sym.iperm[i]:])
		if err := refUpLooking(want, m, piv, sym.iperm[i]); err != nil {
			t.Fatal(err)
		}
		check("refactored factor")
	}
}
