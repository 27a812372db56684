package spline

import (
	"fmt"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
)

// BenchmarkSpline steps n control points of 20 mm rope (n m) at 1/60 s:
// dynamic, a 1 t load swinging on it from its held top; static, held at
// both ends n m apart and sagging (Algorithm 2 may take the static system
// there): ns per control point and per degree of freedom (four a control
// point). [TGDM07] §6: 18 control points in 0.8 ms on a 1.6 GHz Pentium M.
func BenchmarkSpline(b *testing.B) {
	for _, n := range []int{18, 100, 1000, 10000} {
		for _, static := range []bool{false, true} {
			name := "dynamic"
			if static {
				name = "static"
			}
			b.Run(fmt.Sprintf("N=%d/%s", n, name), func(b *testing.B) {
				spec := ropeSpec(rope20(), float64(n), n, geom.V(0, 0, -1))
				spec.Load = 1000
				if static {
					spec = ropeSpec(rope20(), float64(n), n, geom.V(1, 0, 0))
					spec.EndHeld = true
				}
				s := newSpline(b, spec)
				if static {
					s.Budget = 1
				}
				s.run(b, 1.0/60, 60, nil)
				s.StartTarget = geom.V(0, 0.2, 0)
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					if err := s.Step(1.0 / 60); err != nil {
						b.Fatal(err)
					}
				}
				if s.Static != static {
					b.Fatalf("static %v, want %v", s.Static, static)
				}
				per := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / float64(n)
				b.ReportMetric(per, "ns/control-point")
				b.ReportMetric(per/4, "ns/dof")
			})
		}
	}
}
