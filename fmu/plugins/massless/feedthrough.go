package massless

import (
	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/massless"
	"github.com/cablefmu/cablefmu/core/multibody"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// kinematicPorts are the ports of one kinematic body (its index in the
// configuration's bodies).
type kinematicPorts struct {
	body int
	port.Driven
}

// kinematicPorts finds the ports of every kinematic body.
func (m *configured) kinematicPorts() []kinematicPorts {
	var ks []kinematicPorts
	for i, b := range m.cfg.Bodies {
		if b.Kind == "kinematic" {
			ks = append(ks, kinematicPorts{body: i, Driven: port.FindDriven(m.Variables(), b.Name)})
		}
	}
	return ks
}

// Direct implements fmu.Feedthrough: a kinematic body's force depends at
// once on its position and velocity.
func (m *configured) Direct() map[int][]int {
	d := map[int][]int{}
	for _, k := range m.kinematicPorts() {
		k.AddDirect(d)
	}
	return d
}

// Feedthrough implements fmu.FeedthroughSimulation: a kinematic body moved
// to new inputs changes its force by the change of the cables'
// instantaneous elastic and damping force, F_el(x, v) − F_el(x_ref,
// v_ref), everything else held. The communication point lies back seconds
// before the end of the last step of h seconds, where the bodies are: the
// inputs are compared with the path the body followed over that step (the
// mean velocity input b.Vel, the velocity input running linearly to
// refVel), and the deviation is applied at the step's end.
func (s *simulation) Feedthrough(values []float64, changed []bool, back, h float64) {
	for _, k := range s.kin {
		b := s.bodies[k.body]
		x, v := s.shifted(k, values, changed, back, h)
		df := s.elastic(b, x, v).force.Sub(s.elastic(b, s.refPos[k.body], s.refVel[k.body]).force)
		for a := 0; a < 3; a++ {
			if i := k.Force[a]; i >= 0 {
				values[i] += df.Comp(a)
			}
		}
	}
}

// shifted returns the position and velocity at which Feedthrough
// evaluates a kinematic body's force: its inputs set since the step, the
// path it followed otherwise, moved to the step's end (see Feedthrough).
func (s *simulation) shifted(k kinematicPorts, values []float64, changed []bool, back, h float64) (x, v geom.Vec3) {
	return k.Shifted(s.refPos[k.body], s.refVel[k.body], s.bodies[k.body].Vel, values, changed, back, h)
}

// Partial implements fmu.FeedthroughSimulation: ∂F/∂x is the stiffness K
// and ∂F/∂v the damping C of the cables at the body (see elastic), where
// Feedthrough evaluates the force once the input in is set.
func (s *simulation) Partial(values []float64, changed []bool, back, h float64, out, in int) float64 {
	s.set = append(s.set[:0], changed...)
	s.set[in] = true
	for _, k := range s.kin {
		for a := 0; a < 3; a++ {
			if k.Force[a] != out {
				continue
			}
			x, v := s.shifted(k, values, s.set, back, h)
			e := s.elastic(s.bodies[k.body], x, v)
			for c := 0; c < 3; c++ {
				if k.Pos[c] == in {
					return e.stiffness[a][c]
				}
				if k.Vel[c] == in {
					return e.damping[a][c]
				}
			}
		}
	}
	return 0
}

// elasticForce is the cables' instantaneous force on a body and its
// derivatives with respect to the body's position and velocity.
type elasticForce struct {
	force              geom.Vec3
	stiffness, damping geom.Mat3 // N/m, N·s/m
}

// elastic returns the force of all cables on body b if b were at x moving
// at v, the other bodies as they are: each cable's regularized tension
// T = c_s (Σl − L + γ d(Σl)/dt) ([SL07] eqs. 14, 21 with SPOOK's damping),
// zero when slack, pulling b along s = Σ e_j, the unit vectors from the
// neighbouring nodes to b's nodes. With P_j = (I − e_j e_jᵀ)/l_j:
//
//	K = −[ s (∂T/∂x)ᵀ + T Σ P_j ],  ∂T/∂x = c_s [ s + γ Σ P_j (v − v_j) ],
//	C = −c_s γ s sᵀ.
func (s *simulation) elastic(b *multibody.Body, x, v geom.Vec3) elasticForce {
	var out elasticForce
	for _, c := range s.cables {
		st := c.stretch
		route := st.Route()
		cs, gamma := st.Stiffness(), st.Damping
		world := func(n massless.Node) (geom.Vec3, geom.Vec3) {
			r := n.Body.Rot.Rotate(n.Offset)
			if n.Body == b {
				return x.Add(r), v.Add(b.AngVel.Cross(r))
			}
			return n.Body.Pos.Add(r), n.Body.Vel.Add(n.Body.AngVel.Cross(r))
		}
		length, rate := 0.0, 0.0
		var sum geom.Vec3
		var proj geom.Mat3
		var dTdx geom.Vec3
		for j := 0; j+1 < len(route); j++ {
			pa, va := world(route[j])
			pb, vb := world(route[j+1])
			e, l := pa.Sub(pb).Unit()
			length += l
			rate += e.Dot(va.Sub(vb))
			onA, onB := route[j].Body == b, route[j+1].Body == b
			if onA == onB || l == 0 {
				continue // not touching b, or within b: no force on it
			}
			vn := vb
			if onB {
				e, vn = e.Scale(-1), va // e points from the neighbour to b's node
			}
			sum = sum.Add(e)
			p := projector(e, l)
			proj = addMat(proj, p)
			dTdx = dTdx.Add(p.MulVec(v.Sub(vn)).Scale(gamma))
		}
		if sum == (geom.Vec3{}) {
			continue
		}
		t := cs * (length - st.FreeLength + gamma*rate)
		if st.Slack && t < 0 {
			continue
		}
		dTdx = sum.Add(dTdx).Scale(cs)
		out.force = out.force.Sub(sum.Scale(t))
		out.stiffness = subMat(out.stiffness, addMat(outer(sum, dTdx), scaleMat(proj, t)))
		out.damping = subMat(out.damping, scaleMat(outer(sum, sum), cs*gamma))
	}
	return out
}

func projector(e geom.Vec3, l float64) geom.Mat3 {
	p := geom.Diag(1/l, 1/l, 1/l)
	return subMat(p, scaleMat(outer(e, e), 1/l))
}

func outer(a, b geom.Vec3) geom.Mat3 {
	return geom.Mat3{
		{a.X * b.X, a.X * b.Y, a.X * b.Z},
		{a.Y * b.X, a.Y * b.Y, a.Y * b.Z},
		{a.Z * b.X, a.Z * b.Y, a.Z * b.Z},
	}
}

func addMat(a, b geom.Mat3) geom.Mat3 {
	for i := range a {
		for j := range a[i] {
			a[i][j] += b[i][j]
		}
	}
	return a
}

func subMat(a, b geom.Mat3) geom.Mat3 { return addMat(a, scaleMat(b, -1)) }

func scaleMat(a geom.Mat3, s float64) geom.Mat3 {
	for i := range a {
		for j := range a[i] {
			a[i][j] *= s
		}
	}
	return a
}
