package port

import (
	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/fmu"
)

// Driven holds the port indices (−1 where a quantity is not a port) of a
// body the master drives: its position inputs NAME.x|y|z and velocity
// inputs NAME.vx|vy|vz (a crane's suspension point or boom tip).
type Driven struct{ Pos, Vel [3]int }

// FindDriven returns the ports of the driven body name among vars.
func FindDriven(vars []fmu.Variable, name string) Driven {
	index := make(map[string]int, len(vars))
	for i, v := range vars {
		index[v.Name] = i
	}
	find := func(n string) int {
		if i, ok := index[n]; ok {
			return i
		}
		return -1
	}
	var d Driven
	for a := 0; a < 3; a++ {
		d.Pos[a] = find(name + "." + Axis(a))
		d.Vel[a] = find(name + ".v" + Axis(a))
	}
	return d
}

// Point returns the driven point as the runtime knows it (fmu.Driver).
func (d Driven) Point(name string) fmu.DrivenPoint {
	return fmu.DrivenPoint{Name: name, Pos: d.Pos, Vel: d.Vel}
}

// HasPos says on which axes the point has a position port.
func (d Driven) HasPos() [3]bool {
	return [3]bool{d.Pos[0] >= 0, d.Pos[1] >= 0, d.Pos[2] >= 0}
}

// Pt returns v as a point of a sketch (fmu.Sketch).
func Pt(v geom.Vec3) fmu.Point { return fmu.Point{v.X, v.Y, v.Z} }

// Pts returns vs as points of a sketch.
func Pts(vs []geom.Vec3) []fmu.Point {
	out := make([]fmu.Point, len(vs))
	for i, v := range vs {
		out[i] = Pt(v)
	}
	return out
}
