package spline

import (
	"fmt"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/spline"
	"github.com/cablefmu/cablefmu/core/state"
	"github.com/cablefmu/cablefmu/fmu/plugins/hoist"
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
	sp, err := spline.New(spline.Spec{Start: st.Top, Dir: geom.V(0, 0, -1), Length: p.Length0, Controls: c.controls(), Rope: p.Rope,
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

func (c *cable) Top() *geom.Vec3  { return &c.sp.StartTarget }
func (c *cable) Length() float64  { return c.sp.Length() }
func (c *cable) Force() geom.Vec3 { return c.sp.StartForce }
func (c *cable) Tension() float64 { return c.sp.Tension(0) }

// LoadTension implements hoist.Cable: the cable's pull on the load
// along the rope's end. (The strain's tension EA(|r′| − 1) there swung by
// more than a light load's weight as a long rope swung: a 30 kg load
// swinging under 50 m was read slack for a second at a time.)
func (c *cable) LoadTension() float64 {
	up, _ := c.sp.Tangent(c.sp.Length()).Scale(-1).Unit()
	return c.sp.EndForce.Dot(up)
}

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
		return fmt.Errorf("%w (check the inputs and the internal step internalStep)", err)
	}
	return nil
}

// State implements hoist.Cable: the core spline's (spline.Spline.State).
func (c *cable) State(s *state.Codec) {
	c.nodesValid = false
	c.sp.State(s)
}
