package rigidcable

import (
	"fmt"
	"testing"
	"time"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// BenchmarkCableStep measures one step of a hanging 10 m steel cable of N
// segments with a 100 times heavier load, swinging, for N = 10 … 10000,
// with the chain solver (block Cholesky) and gonum's banded Cholesky. Metrics:
// ns per segment, and the split of a step into row evaluation (constraint
// Jacobians, violations, right-hand side), the Schur complement's blocks
// assembled and factored, substitution, and the rest (integration).
func BenchmarkCableStep(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000} {
		for _, name := range []string{"chain", "banded"} {
			b.Run(fmt.Sprintf("N=%d/%s", n, name), func(b *testing.B) {
				timing := &multibody.ChainTiming{}
				// The joints that bend hold compression only up to their
				// buckling load: a bounded row each, so an active set.
				var solver multibody.Solver = &multibody.ActiveSet{Solver: &multibody.Chain{Timing: timing}}
				if name == "banded" {
					solver = &multibody.ActiveSet{Solver: &multibody.Banded{}}
				}
				s := newHangingCable(b, Round(1e11, 0.3, 0.02, 0), n-1, 1e2, TwistAligned, solver)
				s.anchor.Vel = geom.V(0.5, 0, 0)
				const h = 1.0 / 60
				var rows time.Duration
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					t0 := time.Now()
					if _, err := s.world.Assemble(h); err != nil {
						b.Fatal(err)
					}
					rows += time.Since(t0)
					if err := s.world.Step(h); err != nil {
						b.Fatal(err)
					}
				}
				b.StopTimer()
				// Step repeats the row evaluation, so a step costs the loop's
				// time less one row evaluation.
				step := (b.Elapsed() - rows) / time.Duration(b.N)
				per := func(d time.Duration) float64 { return float64(d) / float64(b.N) }
				b.ReportMetric(float64(step)/float64(n), "ns/segment")
				b.ReportMetric(float64(step), "ns/step")
				b.ReportMetric(per(rows), "ns-rows")
				if name == "chain" {
					b.ReportMetric(per(timing.Factorization), "ns-factor")
					b.ReportMetric(per(timing.Substitution), "ns-subst")
				}
			})
		}
	}
}
