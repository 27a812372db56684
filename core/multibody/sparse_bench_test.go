package multibody

import (
	"fmt"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
)

// particleChain hangs n particles of 1 kg on compliant distance links from
// a kinematic point, with a 1000 kg load at the end.
func particleChain(n int) *World {
	w := NewWorld(geom.V(0, 0, -9.81))
	prev := w.AddBody(NewKinematic("top", geom.V(0, 0, 0)))
	for i := 0; i < n; i++ {
		m := 1.0
		if i == n-1 {
			m = 1000
		}
		b := w.AddBody(NewParticle("node", m, geom.V(0.01*float64(i), 0, -0.1*float64(i+1))))
		w.AddConstraint(&pointLink{a: prev, b: b, length: b.Pos.Sub(prev.Pos).Norm(), compliance: 1e-8})
		prev = b
	}
	return w
}

// benchmarkSteps steps w with solver and reports the cost per node (per
// dynamic body) and the split of the sparse solver's time.
func benchmarkSteps(b *testing.B, w *World, solver Solver, nodes int) {
	w.Solver = solver
	for i := 0; i < 10; i++ { // past the set-up
		if err := w.Step(1.0 / 60); err != nil {
			b.Fatal(err)
		}
	}
	var tm *SparseTiming
	if s, ok := solver.(*Sparse); ok {
		tm = &SparseTiming{}
		s.Timing = tm
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := w.Step(1.0 / 60); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	per := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(per/float64(nodes), "ns/node")
	if tm != nil {
		n := float64(b.N)
		b.ReportMetric(float64(tm.Assembly.Nanoseconds())/n, "ns-assembly")
		b.ReportMetric(float64(tm.Factorization.Nanoseconds())/n, "ns-factor")
		b.ReportMetric(float64(tm.Substitution.Nanoseconds())/n, "ns-solve")
	}
}

// A chain of particles: the block-tridiagonal Chain (O(N)) against the
// sparse LDLᵀ of the whole system (O(N) with the minimum degree order)
// and gonum's banded Cholesky.
func BenchmarkChainSolvers(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		for _, s := range []struct {
			name string
			make func() Solver
		}{{"Chain", func() Solver { return &Chain{} }}, {"Banded", func() Solver { return &Banded{} }}, {"Sparse", func() Solver { return &Sparse{} }}} {
			b.Run(fmt.Sprintf("N=%d/%s", n, s.name), func(b *testing.B) {
				benchmarkSteps(b, particleChain(n), s.make(), n)
			})
		}
	}
}

// A net of particles (closed loops, rigid and compliant rows): the sparse
// LDLᵀ, near-linear in the nodes, against the dense solver on the small
// ones ([SLNB11] Fig. 8).
func BenchmarkNetSolvers(b *testing.B) {
	for _, side := range []int{4, 8, 16, 32, 64} {
		n := side * side
		b.Run(fmt.Sprintf("N=%d/Sparse", n), func(b *testing.B) {
			benchmarkSteps(b, net(side, false), &Sparse{}, n)
		})
		if side <= 8 {
			b.Run(fmt.Sprintf("N=%d/Dense", n), func(b *testing.B) {
				benchmarkSteps(b, net(side, false), &Dense{}, n)
			})
		}
	}
}
