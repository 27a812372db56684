package port

import (
	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/fmu"
)

// Driven holds the port indices (−1 where a quantity is not a port) of a
// body the master drives: its position inputs NAME.x|y|z, velocity inputs
// NAME.vx|vy|vz and force outputs NAME.fx|fy|fz (a crane's suspension
// point or boom tip).
type Driven struct{ Pos, Vel, Force [3]int }

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
		d.Force[a] = find(name + ".f" + Axis(a))
	}
	return d
}

// AddDirect records in direct (fmu.Feedthrough's map) that each force
// output depends at once on every position and velocity input.
func (d Driven) AddDirect(direct map[int][]int) {
	var ins []int
	for a := 0; a < 3; a++ {
		for _, i := range []int{d.Pos[a], d.Vel[a]} {
			if i >= 0 {
				ins = append(ins, i)
			}
		}
	}
	for a := 0; a < 3; a++ {
		if d.Force[a] >= 0 && len(ins) > 0 {
			direct[d.Force[a]] = ins
		}
	}
}

// Inputs returns the position and velocity in values of the inputs that
// changed (all, for a nil changed), ref's for the others.
func (d Driven) Inputs(ref [2]geom.Vec3, values []float64, changed []bool) (x, v geom.Vec3) {
	x, v = ref[0], ref[1]
	for a := 0; a < 3; a++ {
		if i := d.Pos[a]; i >= 0 && (changed == nil || changed[i]) {
			SetComp(&x, a, values[i])
		}
		if i := d.Vel[a]; i >= 0 && (changed == nil || changed[i]) {
			SetComp(&v, a, values[i])
		}
	}
	return x, v
}

// Shifted returns the position and velocity at which a feedthrough
// evaluates the force at the driven point: its inputs set since the last
// step (changed), the path it followed otherwise, moved to the step's
// end. The communication point lies back seconds before the end of the
// last step of h seconds, over which the point moved at the mean velocity
// mean, its velocity input running linearly to refVel, to end at refPos.
func (d Driven) Shifted(refPos, refVel, mean geom.Vec3, values []float64, changed []bool, back, h float64) (x, v geom.Vec3) {
	pathVel := refVel.AddScaled(-2*back/h, refVel.Sub(mean))
	x, v = d.Inputs([2]geom.Vec3{refPos.AddScaled(-back, mean), pathVel}, values, changed)
	return x.AddScaled(back, mean), v.Add(refVel.Sub(pathVel))
}
