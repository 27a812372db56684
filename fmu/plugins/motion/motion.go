// Package motion is how the model plugins carry their inputs through an
// internal step: where the step starts between the inputs at a
// communication point and at the step's end, the driven points placed
// and moved, the winches' mean speed.
package motion

import "github.com/cablefmu/cablefmu/core/geom"

// StepStart returns where an internal step of h (s) starting lead (s)
// after a communication point lies between the inputs there (from) and at
// the step's end (to): the fraction at which the inputs, interpolated
// linearly, take the step's start value.
func StepStart(lead, h float64) float64 { return lead / (lead + h) }

// Kinematic moves a point driven by position and velocity inputs through
// an internal step that starts at frac (StepStart) between the inputs
// from and to, lead after from: on the first step after a communication
// point whose position input differs from the one last applied (*placed)
// it is placed there, carried to the step's start with the mean velocity;
// it returns the mean velocity over the step, at which the step moves
// it. A master that drives the velocity alone leaves the position to the
// integration.
func Kinematic(pos, placed *geom.Vec3, fromPos, fromVel, toVel geom.Vec3, lead, frac float64, first bool) geom.Vec3 {
	start := fromVel.Add(toVel.Sub(fromVel).Scale(frac))
	if first && fromPos != *placed {
		*pos, *placed = fromPos.AddScaled(lead, fromVel.Add(start).Scale(0.5)), fromPos
	}
	return start.Add(toVel).Scale(0.5)
}

// MeanSpeed returns the mean over an internal step of a speed input
// interpolated linearly from from to to, the step starting at frac
// (StepStart).
func MeanSpeed(from, to, frac float64) float64 { return 0.5 * (from + (to-from)*frac + to) }
