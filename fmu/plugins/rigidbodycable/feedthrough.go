package rigidbodycable

import (
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// Direct implements fmu.Feedthrough: the force on the crane depends at
// once on the suspension point's position and velocity.
func (m *configured) Direct() map[int][]int {
	d := map[int][]int{}
	port.FindDriven(m.Variables(), "hoist").AddDirect(d)
	return d
}

// Feedthrough implements fmu.FeedthroughSimulation: the change of the top
// joint's spring and damper force when the suspension point moves to the
// new inputs, the cable held (none while the rope is slack there). The communication point lies back seconds
// before the end of the last step of h seconds, where the cable is: the
// inputs are compared with the path the hoist followed over that step
// (the mean velocity input, the velocity input running linearly to
// refVel), and the deviation is applied at the step's end.
func (s *simulation) Feedthrough(values []float64, changed []bool, back, h float64) {
	if s.slackAtSheave() {
		return
	}
	x, v := s.ports.Shifted(s.refPos, s.refVel, s.hoist.Vel, values, changed, back, h)
	top := s.cable.Joints[0]
	df := top.BallForce(x, v).Sub(top.BallForce(s.refPos, s.refVel))
	for a := 0; a < 3; a++ {
		if i := s.ports.Force[a]; i >= 0 {
			values[i] += df.Comp(a)
		}
	}
}

// slackAtSheave reports whether the rope went slack at the sheave in the
// last step: it then exerts no force that a small move of the suspension
// point would change.
func (s *simulation) slackAtSheave() bool {
	top := s.cable.Joints[0]
	return top.Force() <= 0 || top.Slide() > 0
}

// Partial implements fmu.FeedthroughSimulation: ∂F/∂x = −c_s I and
// ∂F/∂v = −c_s γ I of the top joint (see rigidcable.Joint.BallForce);
// zero while the rope is slack at the sheave.
func (s *simulation) Partial(values []float64, changed []bool, back, h float64, out, in int) float64 {
	if s.slackAtSheave() {
		return 0
	}
	top := s.cable.Joints[0]
	for a := 0; a < 3; a++ {
		if s.ports.Force[a] != out {
			continue
		}
		if s.ports.Pos[a] == in {
			return -top.Stretch
		}
		if s.ports.Vel[a] == in {
			return -top.Stretch * top.Damping
		}
	}
	return 0
}
