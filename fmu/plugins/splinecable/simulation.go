package splinecable

import (
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/spline"
	"github.com/cablefmu/cablefmu/fmu/plugins/hoist"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// cable implements hoist.Cable and hoist.PointLoad on a spline.Spline.
type cable struct {
	sp *spline.Spline
	// nodes caches the sampled centreline for the node outputs, valid
	// until the state changes.
	nodes      []geom.Vec3
	n          int
	nodesValid bool
}

// build is the Design's Build: the spline hangs straight down from the
// suspension point with the load at its end, in its exact static stretch
// (spline.Hang).
func (c *config) build(st *hoist.Start) (hoist.Cable, error) {
	p := &st.Params
	dia := p.Rope.Diameter
	sp, err := spline.New(spline.Spec{Start: st.Top, Dir: geom.V(0, 0, -1), Length: p.Length0, Controls: c.controls(),
		LinearDensity: p.Rope.LinearDensity(), RollInertia: p.Rope.Density * math.Pi * dia * dia * dia * dia / 32,
		AxialStiffness: p.Rope.AxialStiffness(), Torsion: p.Rope.TorsionalRigidity(), BendingStiffness: p.Rope.Bending(),
		Load: p.LoadMass, Gravity: geom.V(0, 0, -p.Gravity), Ceiling: c.Own.Ceiling, ClampStart: c.Own.ClampStart})
	if err != nil {
		return nil, fmt.Errorf("cable: %w", err)
	}
	if p.Gravity > 0 {
		if err := sp.Hang(); err != nil {
			return nil, fmt.Errorf("cable: %w", err)
		}
	}
	for i := range sp.V {
		sp.V[i] = [4]float64{st.Vel.X, st.Vel.Y, st.Vel.Z, 0}
	}
	sp.LoadVel = st.Vel
	return &cable{sp: sp, n: c.Own.outputNodes()}, nil
}

func (c *cable) Top() *geom.Vec3            { return &c.sp.StartTarget }
func (c *cable) Length() float64            { return c.sp.Length() }
func (c *cable) Force() geom.Vec3           { return c.sp.StartForce }
func (c *cable) Tension() float64           { return c.sp.Tension(0) }
func (c *cable) Load() (pos, vel geom.Vec3) { return c.sp.LoadPos, c.sp.LoadVel }
func (c *cable) PushLoad(f geom.Vec3)       { c.sp.LoadForce = c.sp.LoadForce.Add(f) }
func (c *cable) ClearLoad()                 { c.sp.LoadForce = geom.Vec3{} }
func (c *cable) LoadPull() geom.Vec3        { return c.sp.EndForce }

// Node implements hoist.Cable: point k of the centreline sampled at n
// points of equal rest arc length.
func (c *cable) Node(k, a int) float64 {
	if !c.nodesValid {
		c.nodes = c.sp.Points(c.n, c.nodes[:0])
		c.nodesValid = true
	}
	return c.nodes[k].Comp(a)
}

// Step implements hoist.Cable: the start's target moves at topVel, the
// winch changes the rest length, the budget input sets Algorithm 2's,
// and the spline takes one step.
func (c *cable) Step(h float64, topVel geom.Vec3, length, _ float64, in *hoist.Drive) error {
	c.nodesValid = false
	sp := c.sp
	sp.StartTarget = sp.StartTarget.AddScaled(h, topVel)
	if err := sp.SetLength(length); err != nil {
		return err
	}
	sp.Budget = in.Extra[0]
	if err := sp.Step(h); err != nil {
		return fmt.Errorf("%w (check the inputs and the step h)", err)
	}
	return nil
}

// SaveState implements hoist.Cable: the control points and their rates,
// the load, the start's target, the rest length, the mode and the forces
// the outputs show.
func (c *cable) SaveState(dst []float64) []float64 {
	sp := c.sp
	dst = append(dst, float64(len(sp.Q)), sp.Length(), port.Flag(sp.Static), sp.Budget, sp.StartTorque, sp.EndTorque)
	for i := range sp.Q {
		dst = append(dst, sp.Q[i][:]...)
		dst = append(dst, sp.V[i][:]...)
	}
	for _, v := range [5]geom.Vec3{sp.LoadPos, sp.LoadVel, sp.StartTarget, sp.StartForce, sp.EndForce} {
		dst = append(dst, v.X, v.Y, v.Z)
	}
	return dst
}

// LoadState implements hoist.Cable. Everything is checked before anything
// changes: the length positive, the control points, the load and the
// start's target within the bounds of positions and their rates and the
// load's velocity within those of speeds, the mode a flag. The budget is
// any number the runtime let through: it is the input's value, which
// input derivatives may extrapolate below 0 (no limit, as 0 is).
func (c *cable) LoadState(src []float64) error {
	c.nodesValid = false
	sp := c.sp
	n := len(sp.Q)
	want := 6 + 8*n + 15
	if len(src) != want || src[0] != float64(n) {
		return fmt.Errorf("state of %d values, want %d for %d control points", len(src), want, n)
	}
	head, pts, tail := src[:6], src[6:6+8*n], src[6+8*n:]
	vec := func(k int) geom.Vec3 { return geom.V(tail[3*k], tail[3*k+1], tail[3*k+2]) }
	var check port.StateCheck
	check.Length("spline length", head[1])
	check.Flag("static", head[2])
	for i := 0; i < n; i++ {
		q := pts[8*i:]
		check.Point(fmt.Sprintf("control point %d", i), geom.V(q[0], q[1], q[2]))
		check.Velocity(fmt.Sprintf("control point %d rate", i), geom.V(q[4], q[5], q[6]))
	}
	check.Point("load", vec(0))
	check.Velocity("load", vec(1))
	check.Point("start target", vec(2))
	if err := check.Err(); err != nil {
		return err
	}
	if err := sp.SetLength(head[1]); err != nil {
		return fmt.Errorf("state: %w", err)
	}
	sp.Static, sp.Budget, sp.StartTorque, sp.EndTorque = head[2] != 0, head[3], head[4], head[5]
	for i := range sp.Q {
		copy(sp.Q[i][:], pts[8*i:8*i+4])
		copy(sp.V[i][:], pts[8*i+4:8*i+8])
	}
	sp.LoadPos, sp.LoadVel, sp.StartTarget, sp.StartForce, sp.EndForce = vec(0), vec(1), vec(2), vec(3), vec(4)
	return nil
}
