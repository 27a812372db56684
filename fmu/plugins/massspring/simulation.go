package massspring

import (
	"fmt"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/massspring"
	"github.com/cablefmu/cablefmu/core/state"
	"github.com/cablefmu/cablefmu/fmu/plugins/hoist"
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
		Rope: p.Rope,
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

func (c *cable) Top() *geom.Vec3  { return &c.c.X[0] }
func (c *cable) Length() float64  { return c.c.Length() }
func (c *cable) Force() geom.Vec3 { return c.c.TopForce }
func (c *cable) Tension() float64 { return c.c.Tension(0) }

// LoadTension implements hoist.Cable: the last segment's.
func (c *cable) LoadTension() float64 { return c.c.Tension(len(c.c.X) - 2) }

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
		return fmt.Errorf("%w (check the inputs and the internal step internalStep)", err)
	}
	return nil
}

// State implements hoist.Cable: the core cable's (massspring.Cable.State).
func (c *cable) State(s *state.Codec) { c.c.State(s) }
