package hmrwire

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// A geometry's corners and faces, worked out when first used, are those
// of its placement at the last refresh, together, whatever its fields
// became since: each corner lies on the faces of its edges.
func TestGeometryPlacedAsRefreshed(t *testing.T) {
	shape, err := Prism(8, 0.5, 1)
	if err != nil {
		t.Fatal(err)
	}
	body := multibody.NewStatic("b", geom.V(1, 2, 3))
	body.Rot = geom.AxisAngle(geom.V(0, 1, 0), 0.3)
	g, err := NewGeometry("g", body, shape, geom.V(0, 0, 0.2), geom.AxisAngle(geom.V(1, 0, 0), 0.7), 0)
	if err != nil {
		t.Fatal(err)
	}
	g.refresh()
	// Moved on its body after the refresh, not yet refreshed again.
	g.Offset, g.Rot = geom.V(3, 0, 0), geom.AxisAngle(geom.V(0, 0, 1), 1)
	faces := g.planes()
	for e, ed := range g.Shape.edges {
		start, _, _ := g.edgeLine(e)
		for _, f := range ed.F {
			if d := faces[f].N.Dot(start) - faces[f].D; math.Abs(d) > 1e-12 {
				t.Errorf("edge %d starts %.3g m off its face %d", e, d, f)
			}
		}
	}
	if c := g.centre; c.Sub(body.PointWorld(geom.V(0, 0, 0.2))).Norm() > 1e-15 {
		t.Errorf("centre at %v, want the refreshed placement's", c)
	}
}
