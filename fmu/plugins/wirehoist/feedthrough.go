package wirehoist

// Direct implements fmu.Feedthrough: the force on the boom tip depends at
// once on the boom tip's position and velocity (every component on every
// component: the lead pulls at an angle).
func (m *configured) Direct() map[int][]int {
	d := map[int][]int{}
	m.hoist.AddDirect(d)
	return d
}

// Feedthrough implements fmu.FeedthroughSimulation: the change of the
// hoisting system's force on the boom tip when the boom tip moves to the
// new inputs, the wire's mass nodes, the block and the sheaves' spin held
// (Hoist.BoomTipStiffness). The communication point lies back seconds
// before the end of the last step of h seconds: the inputs are compared
// with the path the boom tip followed over that step (the mean velocity
// input, the velocity input running linearly to refVel), and the
// deviation is applied at the step's end.
func (s *simulation) Feedthrough(values []float64, changed []bool, back, h float64) {
	x, v := s.m.hoist.Shifted(s.refPos, s.refVel, s.ho.BoomTip.Vel, values, changed, back, h)
	K, C := s.boomTipStiffness()
	dx, dv := x.Sub(s.refPos), v.Sub(s.refVel)
	df := K.MulVec(dx).Add(C.MulVec(dv))
	for a := 0; a < 3; a++ {
		if i := s.m.hoist.Force[a]; i >= 0 {
			values[i] += df.Comp(a)
		}
	}
}

// Partial implements fmu.FeedthroughSimulation: the entries of K and C of
// Hoist.BoomTipStiffness.
func (s *simulation) Partial(values []float64, changed []bool, back, h float64, out, in int) float64 {
	hp := s.m.hoist
	for a := 0; a < 3; a++ {
		if hp.Force[a] != out {
			continue
		}
		K, C := s.boomTipStiffness()
		for b := 0; b < 3; b++ {
			if hp.Pos[b] == in {
				return K[a][b]
			}
			if hp.Vel[b] == in {
				return C[a][b]
			}
		}
	}
	return 0
}
