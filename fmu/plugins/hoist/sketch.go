package hoist

import (
	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// Sketch implements fmu.Sketcher: the ground, the cable through its
// sample points, the load's box (the box a point load of its mass would
// fill) and the suspension point.
func (s *Simulation) Sketch() fmu.Sketch {
	var sk fmu.Sketch
	c := s.m.cfg
	if c.Ground != nil {
		sk.Add(fmu.Ground, "ground", fmu.Point{0, 0, c.Ground.Height})
	}
	top := port.Pt(*s.Cable.Top())
	load, _ := s.Cable.Load()
	box := c.Load.Box()
	pts := []fmu.Point{top, port.Pt(load)}
	if n := s.m.design.Nodes; n >= 2 {
		pts = make([]fmu.Point, n)
		for k := range pts {
			pts[k] = fmu.Point{s.Cable.Node(k, 0), s.Cable.Node(k, 1), s.Cable.Node(k, 2)}
		}
	}
	sk.Add(fmu.Rope, "cable", pts...)
	sk.Box(fmu.MassLabel("load", s.params.LoadMass), port.Pt(load), fmu.Point(box))
	sk.Add(fmu.Driven, "suspension", top)
	return sk
}
