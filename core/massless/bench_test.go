package massless

import (
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
)

// BenchmarkHoistStep measures one internal step of the hoist: a load on a
// 10 m steel rope below a moving suspension point, winch running.
func BenchmarkHoistStep(b *testing.B) {
	hs := newHoist(b, 1000, 10, 1.0/60)
	hs.crane.Vel = geom.V(0.5, 0, 0)
	hs.winch.Speed = 0.01
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := hs.world.Step(1.0 / 60); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTwoBoxesStretchTwistStep measures a step of the [SL07]
// validation system with stretch and twist rows.
func BenchmarkTwoBoxesStretchTwistStep(b *testing.B) {
	sys := newTwoBoxes(b, 1e3, 10, 0)
	sys.a.AngVel = geom.V(0.1, 0, 0)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := sys.world.Step(0.01); err != nil {
			b.Fatal(err)
		}
	}
}
