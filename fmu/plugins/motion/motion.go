// Package motion is how the model plugins carry their inputs through an
// internal step: where the step starts between the inputs at a
// communication point and at the step's end, the driven points placed
// and moved along the path the runtime gives, the winches' mean speed.
package motion

import (
	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// StepStart returns where an internal step of h (s) starting lead (s)
// after a communication point lies between the inputs there (from) and at
// the step's end (to): the fraction at which the inputs, interpolated
// linearly, take the step's start value.
func StepStart(lead, h float64) float64 { return lead / (lead + h) }

// Kinematic places a driven point (fmu.Driver) at the start of an
// internal step of h seconds and returns its mean velocity (m/s) over the
// step, at which the step moves it. The runtime gives the point's path at
// the step's start (fromPos, fromVel) and end (toPos, toVel): on an axis
// with a position port (hasPos) the point is placed at the start's
// position and moves to the end's, on the others it moves at the mean of
// the two velocities.
func Kinematic(pos *geom.Vec3, hasPos [3]bool, fromPos, toPos, fromVel, toVel geom.Vec3, h float64) geom.Vec3 {
	mean := fromVel.Add(toVel).Scale(0.5)
	for a := 0; a < 3; a++ {
		if hasPos[a] {
			port.SetComp(pos, a, fromPos.Comp(a))
			port.SetComp(&mean, a, (toPos.Comp(a)-fromPos.Comp(a))/h)
		}
	}
	return mean
}

// MeanSpeed returns the mean over an internal step of a speed input
// interpolated linearly from from to to, the step starting at frac
// (StepStart).
func MeanSpeed(from, to, frac float64) float64 { return 0.5 * (from + (to-from)*frac + to) }
