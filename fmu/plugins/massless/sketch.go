package massless

import (
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/multibody"
	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/hoist"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// Sketch implements fmu.Sketcher: each cable along its route (sheaves
// and eyes are points of it), the dynamic bodies' boxes, the static
// bodies and the kinematic ones the master drives.
func (s *simulation) Sketch() fmu.Sketch {
	var sk fmu.Sketch
	for _, c := range s.cables {
		var pts []fmu.Point
		for _, n := range c.stretch.Route() {
			pts = append(pts, port.Pt(n.Body.Pos.Add(n.Body.Rot.Rotate(n.Offset))))
		}
		sk.Add(fmu.Rope, c.name, pts...)
	}
	for i, b := range s.bodies {
		cfg := s.m.cfg.Bodies[i]
		switch b.Kind {
		case multibody.Dynamic:
			size := geom.V(cfg.Size[0], cfg.Size[1], cfg.Size[2])
			if size.X <= 0 || size.Z <= 0 {
				a := math.Cbrt(b.Mass / hoist.CompactSteel) // as a point load's box
				size = geom.V(a, a, a)
			}
			sk.Box(fmu.MassLabel(cfg.Name, b.Mass), port.Pt(b.Pos), port.Pt(size))
		case multibody.Static:
			sk.Add(fmu.Anchor, cfg.Name, port.Pt(b.Pos))
		default:
			sk.Add(fmu.Driven, cfg.Name, port.Pt(b.Pos))
		}
	}
	return sk
}
