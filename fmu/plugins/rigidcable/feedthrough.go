package rigidcable

import "github.com/cablefmu/cablefmu/fmu/plugins/hoist"

// Feedthrough implements hoist.Feeder: the change of the top joint's
// spring and damper force when the suspension point moves to the new
// inputs, the cable held (none while the rope is slack there). The
// communication point lies back seconds before the end of the last step
// of h seconds, where the cable is: the inputs are compared with the path
// the hoist followed over that step (the mean velocity input, the
// velocity input running linearly to RefVel), and the deviation is
// applied at the step's end.
func (r *rope) Feedthrough(s *hoist.Simulation, values []float64, changed []bool, back, h float64) {
	if r.slackAtSheave() {
		return
	}
	x, v := s.Driven.Shifted(s.RefPos, s.RefVel, r.hoist.Vel, values, changed, back, h)
	top := r.cable.Joints[0]
	df := top.BallForce(x, v).Sub(top.BallForce(s.RefPos, s.RefVel))
	for a := 0; a < 3; a++ {
		if i := s.Driven.Force[a]; i >= 0 {
			values[i] += df.Comp(a)
		}
	}
}

// slackAtSheave reports whether the rope went slack at the sheave in the
// last step: it then exerts no force that a small move of the suspension
// point would change.
func (r *rope) slackAtSheave() bool {
	top := r.cable.Joints[0]
	return top.Force() <= 0 || top.Slide() > 0
}

// Partial implements hoist.Feeder: ∂F/∂x = −c_s I and ∂F/∂v = −c_s γ I
// of the top joint (see rigidcable.Joint.BallForce); zero while the rope
// is slack at the sheave.
func (r *rope) Partial(s *hoist.Simulation, values []float64, changed []bool, back, h float64, out, in int) float64 {
	if r.slackAtSheave() {
		return 0
	}
	top := r.cable.Joints[0]
	for a := 0; a < 3; a++ {
		if s.Driven.Force[a] != out {
			continue
		}
		if s.Driven.Pos[a] == in {
			return -top.Stretch
		}
		if s.Driven.Vel[a] == in {
			return -top.Stretch * top.Damping
		}
	}
	return 0
}
