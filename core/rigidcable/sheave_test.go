package rigidcable

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/material"
)

// A sheave joint's elastic energy is its rope's stretch past the sheave
// alone: slack slid in stretches nothing, within its store or beyond it,
// where the sheave stops it with at most the rope's buckling load and does
// not drive it back out. (Counted as a spring beyond the store, the slack
// of a load thrown up by a trolley stopped at 8 m/s read 8.4 MJ of
// stretch energy at a rope carrying nothing.)
func TestSheaveStoresNoEnergyInSlack(t *testing.T) {
	for _, up := range []float64{0.2, 0.8, -0.01} { // m the first segment is moved up
		rig := newHoistRig(t, material.DefaultSteelRope(), 20, 100, Clamped)
		j, seg := rig.cable.Joints[0], rig.cable.Segments[0]
		seg.Pos = seg.Pos.Add(geom.V(0, 0, up))
		want := 0.0 // straight and untwisted: no bend or twist energy
		if up < 0 {
			// Pulled out past the sheave: stretched, the rope's spring.
			gap := j.bodies[0].PointWorld(j.pointA).Sub(seg.PointWorld(j.pointB)).Norm()
			want = 0.5 * j.Stretch * gap * gap
		}
		if got := j.PotentialEnergy(); math.Abs(got-want) > 1e-9*max(1, want) {
			t.Errorf("first segment moved up %g m (store %g m): sheave joint's energy %.6g J, want %.6g J", up, j.store(), got, want)
		}
	}
}
