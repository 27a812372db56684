package fmu_test

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
)

// The directional derivatives of the crane force with respect to the
// suspension point's position and velocity (the cable's stiffness and
// damping at the crane) match central finite differences taken through
// the state functions — save the state, set the input ± δ, read the force,
// restore — within 1e-6 of the matrix's size, for both examples, mid-run
// with the trolley moving and the load swinging.
func TestDirectionalDerivativesMatchFiniteDifferences(t *testing.T) {
	for _, ex := range []string{"massless", "rigid-cable"} {
		in := instantiate(t, ex)
		initialize(t, in)
		drive(t, in, 0, 30)
		vr := vrOf(in)
		outs := []string{"suspension.fx", "suspension.fy", "suspension.fz"}
		for _, group := range [][]string{{"suspension.x", "suspension.y", "suspension.z"}, {"suspension.vx", "suspension.vy", "suspension.vz"}} {
			var analytic, numeric [3][3]float64
			scale := 0.0
			for c, known := range group {
				for a, unknown := range outs {
					d := []float64{0}
					if st := in.DirectionalDerivative("test", []uint32{vr[unknown]}, []uint32{vr[known]}, []float64{1}, d); st != fmu.OK {
						t.Fatalf("%s: DirectionalDerivative: %v", ex, st)
					}
					analytic[a][c] = d[0]
					scale = math.Max(scale, math.Abs(d[0]))
				}
				const delta = 1e-6
				snap, _ := in.GetState(nil)
				u := get(t, in, vr[known])
				var plus, minus [3]float64
				for sign, dst := range map[float64]*[3]float64{1: &plus, -1: &minus} {
					if st := in.SetReal([]uint32{vr[known]}, []float64{u + sign*delta}); st != fmu.OK {
						t.Fatal(st)
					}
					for a, unknown := range outs {
						dst[a] = get(t, in, vr[unknown])
					}
					if st := in.SetState(snap); st != fmu.OK {
						t.Fatal(st)
					}
				}
				for a := range outs {
					numeric[a][c] = (plus[a] - minus[a]) / (2 * delta)
				}
			}
			if scale == 0 {
				t.Fatalf("%s: zero derivatives with respect to %v", ex, group)
			}
			for a := range outs {
				for c := range group {
					if d := math.Abs(analytic[a][c] - numeric[a][c]); d > 1e-6*scale {
						t.Errorf("%s: ∂%s/∂%s = %.9g analytic, %.9g by finite differences (off by %.2g of %.3g)", ex, outs[a], group[c], analytic[a][c], numeric[a][c], d/scale, scale)
					}
				}
			}
			t.Logf("%s: ∂F/∂%v diagonal %.4g, %.4g, %.4g", ex, group, analytic[0][0], analytic[1][1], analytic[2][2])
		}
	}
}
