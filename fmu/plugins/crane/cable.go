package crane

import (
	"fmt"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// cablePorts declares what a crane model exchanges with a cable FMU: the
// cable's force on the crane as inputs cable.fx, cable.fy, cable.fz (N; a
// cable FMU's suspension.f*), and the point the cable hangs from as
// outputs point.x … point.z (m) and point.vx … point.vz (m/s; a cable
// FMU's suspension.* inputs). on names what the force acts on, at and
// moving what the outputs give the position and the velocity of.
func cablePorts[P, D, S any](qs *port.Catalogue[P, D, S], point, on, at, moving string,
	force func(d *D) *geom.Vec3, pos, vel func(s *S) geom.Vec3) {
	for k := 0; k < 3; k++ {
		ax := port.Axis(k)
		qs.Input("cable.f"+ax, "N", fmt.Sprintf("World %s component of the cable's force on %s (a cable FMU's suspension.f%s)", ax, on, ax), 0, Force,
			func(d *D, x float64) { port.SetComp(force(d), k, x) })
	}
	for k := 0; k < 3; k++ {
		ax := port.Axis(k)
		qs.Output(point+"."+ax, "m", fmt.Sprintf("World %s position of %s (a cable FMU's suspension.%s)", ax, at, ax),
			func(s *S) float64 { return pos(s).Comp(k) })
	}
	for k := 0; k < 3; k++ {
		ax := port.Axis(k)
		qs.Output(point+".v"+ax, "m/s", fmt.Sprintf("World %s velocity of %s (a cable FMU's suspension.v%s)", ax, moving, ax),
			func(s *S) float64 { return vel(s).Comp(k) })
	}
}
