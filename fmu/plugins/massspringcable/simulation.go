package massspringcable

import (
	"fmt"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/massspring"
	"github.com/cablefmu/cablefmu/fmu/plugins/hoist"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// cable implements hoist.Cable and hoist.PointLoad on a massspring.Cable.
type cable struct{ c *massspring.Cable }

// build is the Design's Build: the cable hangs straight down from the
// suspension point with the load at its end, stretched into static
// equilibrium, moving with the suspension point's velocity.
func (cfg *config) build(st *hoist.Start) (hoist.Cable, error) {
	own, p := &cfg.Own, &st.Params
	solver, err := own.solver()
	if err != nil {
		return nil, err
	}
	spec := massspring.Spec{Top: st.Top, Dir: geom.V(0, 0, -1), Length: p.Length0, Segments: st.Config.Cable.Elements(),
		LinearDensity: p.Rope.LinearDensity(), AxialStiffness: p.Rope.AxialStiffness(), Bending: p.Rope.Bending(), DampingTime: p.Rope.DampingTime,
		Load: p.LoadMass, Gravity: geom.V(0, 0, -p.Gravity),
		Solver: solver, Rebuilds: own.Rebuilds, CGIterations: own.CGIterations, CGTolerance: own.CGTolerance}
	if pm := own.PerMass; pm != nil {
		spec.PerMass = &massspring.PerMass{KL: pm.KL, KD: pm.KD, KB: pm.KB}
	}
	c, err := massspring.New(spec)
	if err != nil {
		return nil, fmt.Errorf("cable: %w", err)
	}
	if p.Gravity > 0 {
		if err := c.Hang(); err != nil {
			return nil, fmt.Errorf("cable: %w", err)
		}
	}
	for i := range c.V {
		c.V[i] = st.Vel
	}
	return &cable{c}, nil
}

func (c *cable) Top() *geom.Vec3       { return &c.c.X[0] }
func (c *cable) Length() float64       { return c.c.Length() }
func (c *cable) Force() geom.Vec3      { return c.c.TopForce }
func (c *cable) Tension() float64      { return c.c.Tension(0) }
func (c *cable) Node(k, a int) float64 { return c.c.X[k].Comp(a) }
func (c *cable) PushLoad(f geom.Vec3)  { c.c.LoadForce = c.c.LoadForce.Add(f) }
func (c *cable) ClearLoad()            { c.c.LoadForce = geom.Vec3{} }

func (c *cable) Load() (pos, vel geom.Vec3) {
	n := len(c.c.X) - 1
	return c.c.X[n], c.c.V[n]
}

// LoadPull implements hoist.PointLoad: the last segment's tension along
// it.
func (c *cable) LoadPull() geom.Vec3 {
	n := len(c.c.X) - 1
	dir, _ := c.c.X[n-1].Sub(c.c.X[n]).Unit()
	return dir.Scale(c.c.Tension(n - 1))
}

// Step implements hoist.Cable: the winch changes the rest length, then
// the cable takes one step with its top moving at topVel.
func (c *cable) Step(h float64, topVel geom.Vec3, length, _ float64, _ *hoist.Drive) error {
	if err := c.c.SetLength(length); err != nil {
		return err
	}
	if err := c.c.Step(h, topVel); err != nil {
		return fmt.Errorf("%w (check the inputs and the step h)", err)
	}
	return nil
}

// SaveState implements hoist.Cable: every point's position and velocity,
// the rest length, the force on the crane and the CG count the outputs
// show.
func (c *cable) SaveState(dst []float64) []float64 {
	mc := c.c
	dst = append(dst, float64(len(mc.X)), mc.Rest)
	for i := range mc.X {
		dst = append(dst, mc.X[i].X, mc.X[i].Y, mc.X[i].Z, mc.V[i].X, mc.V[i].Y, mc.V[i].Z)
	}
	dst = append(dst, mc.TopForce.X, mc.TopForce.Y, mc.TopForce.Z)
	return append(dst, float64(mc.Stats.Rebuilds), float64(mc.Stats.Iterations), mc.Stats.Residual)
}

// LoadState implements hoist.Cable. Everything is checked before anything
// changes: the rest length positive, the points' positions and
// velocities within the bounds of positions and speeds, the counts whole.
func (c *cable) LoadState(src []float64) error {
	mc := c.c
	n := len(mc.X)
	if len(src) != 2+6*n+6 || src[0] != float64(n) {
		return fmt.Errorf("state of %d values, want %d for %d mass points", len(src), 2+6*n+6, n)
	}
	rest := src[1]
	src = src[2:]
	vec := func(k int) geom.Vec3 { return geom.V(src[k], src[k+1], src[k+2]) }
	var check port.StateCheck
	check.Length("segment rest length", rest)
	for i := 0; i < n; i++ {
		check.Point(fmt.Sprintf("mass point %d", i), vec(6*i))
		check.Velocity(fmt.Sprintf("mass point %d", i), vec(6*i+3))
	}
	tail := src[6*n:]
	check.Count("rebuilds", tail[3])
	check.Count("CG iterations", tail[4])
	check.NonNegative("CG residual", tail[5])
	if err := check.Err(); err != nil {
		return err
	}
	if err := mc.SetRest(rest); err != nil {
		return fmt.Errorf("state: %w", err)
	}
	for i := range mc.X {
		mc.X[i], mc.V[i] = vec(6*i), vec(6*i+3)
	}
	mc.TopForce = geom.V(tail[0], tail[1], tail[2])
	mc.Stats = massspring.Stats{Rebuilds: int(tail[3]), Iterations: int(tail[4]), Residual: tail[5]}
	return nil
}
