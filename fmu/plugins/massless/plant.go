package massless

import (
	"fmt"

	"github.com/cablefmu/cablefmu/fmu/plugins/plant"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// Plant implements plant.Simulation: plugins see every body, every
// cable and every winch of the scenario by its name.
func (s *simulation) Plant() plant.Plant { return view{s} }

type view struct{ s *simulation }

func (p view) Bodies() []plant.Body { return plant.RigidBodies(p.s.bodies) }

func (p view) ClearForces() { plant.ClearRigid(p.s.bodies) }

func (p view) Cables() []plant.Cable {
	cs := make([]plant.Cable, len(p.s.cables))
	for j := range p.s.cables {
		cs[j] = &p.s.cables[j]
	}
	return cs
}

func (p view) Winches() []plant.Winch {
	var ws []plant.Winch
	for j := range p.s.cables {
		if p.s.cables[j].winch != nil {
			ws = append(ws, winch{&p.s.cables[j], p.s.m.cfg.Cables[j].Winch.Name})
		}
	}
	return ws
}

func (c *cable) Name() string         { return c.name }
func (c *cable) Tension() float64     { return c.stretch.Tension() }
func (c *cable) FreeLength() float64  { return c.stretch.FreeLength }
func (w winch) Name() string          { return w.name }
func (w winch) Speed() float64        { return w.c.stretch.Rate() }
func (w winch) Command(speed float64) { w.c.commanded, w.c.command = true, speed }
func (w winch) Release()              { w.c.commanded, w.c.command = false, 0 }
func (w winch) ForceLimit() float64   { return w.c.forceLimit }

func (w winch) Commanded() (float64, bool) { return w.c.command, w.c.commanded }

func (w winch) SetForceLimit(newtons float64) error {
	if err := port.Force.Check("winch "+w.name+" force limit", "N", newtons); err != nil {
		return fmt.Errorf("%w (0: none)", err)
	}
	w.c.forceLimit = newtons
	return nil
}

// winch is the winch of cable c as plugins see it.
type winch struct {
	c    *cable
	name string
}
