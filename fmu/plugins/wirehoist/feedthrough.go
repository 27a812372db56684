package wirehoist

import (
	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// Direct implements fmu.Feedthrough: the force on the boom tip depends at
// once on the boom tip's position and velocity (every component on every
// component: the lead pulls at an angle).
func (m *configured) Direct() map[int][]int {
	h := m.hoist
	var ins []int
	for a := 0; a < 3; a++ {
		for _, i := range []int{h.pos[a], h.vel[a]} {
			if i >= 0 {
				ins = append(ins, i)
			}
		}
	}
	d := map[int][]int{}
	for a := 0; a < 3; a++ {
		if h.force[a] >= 0 && len(ins) > 0 {
			d[h.force[a]] = ins
		}
	}
	return d
}

// boomTipInputs returns the boom tip's position and velocity in values,
// the inputs not changed (or not ports) taken from ref.
func (s *simulation) boomTipInputs(ref [2]geom.Vec3, values []float64, changed []bool) (x, v geom.Vec3) {
	x, v = ref[0], ref[1]
	h := s.m.hoist
	for a := 0; a < 3; a++ {
		if i := h.pos[a]; i >= 0 && (changed == nil || changed[i]) {
			port.SetComp(&x, a, values[i])
		}
		if i := h.vel[a]; i >= 0 && (changed == nil || changed[i]) {
			port.SetComp(&v, a, values[i])
		}
	}
	return x, v
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
	mean := s.ho.BoomTip.Vel
	pathVel := s.refVel.AddScaled(-2*back/h, s.refVel.Sub(mean))
	x, v := s.boomTipInputs([2]geom.Vec3{s.refPos.AddScaled(-back, mean), pathVel}, values, changed)
	x, v = x.AddScaled(back, mean), v.Add(s.refVel.Sub(pathVel))
	K, C := s.ho.BoomTipStiffness()
	dx, dv := x.Sub(s.refPos), v.Sub(s.refVel)
	df := K.MulVec(dx).Add(C.MulVec(dv))
	for a := 0; a < 3; a++ {
		if i := s.m.hoist.force[a]; i >= 0 {
			values[i] += port.Comp(df, a)
		}
	}
}

// Partial implements fmu.FeedthroughSimulation: the entries of K and C of
// Hoist.BoomTipStiffness.
func (s *simulation) Partial(values []float64, changed []bool, back, h float64, out, in int) float64 {
	hp := s.m.hoist
	for a := 0; a < 3; a++ {
		if hp.force[a] != out {
			continue
		}
		K, C := s.ho.BoomTipStiffness()
		for b := 0; b < 3; b++ {
			if hp.pos[b] == in {
				return K[a][b]
			}
			if hp.vel[b] == in {
				return C[a][b]
			}
		}
	}
	return 0
}
