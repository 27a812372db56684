package hmrwire

import (
	"github.com/cablefmu/cablefmu/core/multibody"
	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// Sketch implements fmu.Sketcher: the geometries' outlines, each wire
// along its nodes, the dynamic bodies' boxes, the static bodies and the
// kinematic ones the master drives.
func (s *simulation) Sketch() fmu.Sketch {
	var sk fmu.Sketch
	for _, g := range s.geos {
		sk.Hull(g.Name, port.Pts(g.Vertices()))
	}
	for _, w := range s.sys.Wires {
		sk.Add(fmu.Rope, w.Name, port.Pts(w.Sample(400))...)
	}
	for i, b := range s.bodies {
		cfg := s.m.cfg.Bodies[i]
		switch b.Kind {
		case multibody.Dynamic:
			sk.Box(fmu.MassLabel(cfg.Name, b.Mass), port.Pt(b.Pos), fmu.Point(cfg.Size))
		case multibody.Static:
			sk.Add(fmu.Anchor, cfg.Name, port.Pt(b.Pos))
		default:
			sk.Add(fmu.Driven, cfg.Name, port.Pt(b.Pos))
		}
	}
	return sk
}
