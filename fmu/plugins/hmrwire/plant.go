package hmrwire

import (
	"fmt"

	"github.com/cablefmu/cablefmu/core/hmrwire"
	"github.com/cablefmu/cablefmu/fmu/plugins/plant"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// Plant implements plant.Simulation: plugins see every body by its name,
// every wire as a cable by its name, and each wire's winch by its name
// (WIRE.winch unless the scenario names it), as in the ports.
func (s *simulation) Plant() plant.Plant { return view{s} }

type view struct{ s *simulation }

func (v view) Bodies() []plant.Body { return plant.RigidBodies(v.s.bodies) }

func (v view) ClearForces() { plant.ClearRigid(v.s.bodies) }

func (v view) Cables() []plant.Cable {
	cs := make([]plant.Cable, len(v.s.sys.Wires))
	for j, w := range v.s.sys.Wires {
		cs[j] = wireView{v.s, j, w, v.s.m.cfg.Wires[j].Name}
	}
	return cs
}

func (v view) Winches() []plant.Winch {
	var ws []plant.Winch
	for j, w := range v.s.sys.Wires {
		if w.Winch != nil {
			ws = append(ws, winch{v.s, j})
		}
	}
	return ws
}

type wireView struct {
	s    *simulation
	j    int // the wire's index
	w    *hmrwire.Wire
	name string
}

func (c wireView) Name() string        { return c.name }
func (c wireView) Tension() float64    { return c.s.wireTension(c.j) }
func (c wireView) FreeLength() float64 { return c.w.RestLength() }

// winch is wire j's winch; its command and force limit live in the
// simulation's plugin state.
type winch struct {
	s *simulation
	j int
}

func (w winch) Name() string   { wc := &w.s.m.cfg.Wires[w.j]; return wc.Winch.name(wc) }
func (w winch) Speed() float64 { return w.s.sys.Wires[w.j].Winch.Rate() }

func (w winch) Command(speed float64) {
	w.s.plugin[w.j].commanded, w.s.plugin[w.j].command = true, speed
}

func (w winch) Release() { w.s.plugin[w.j].commanded, w.s.plugin[w.j].command = false, 0 }

func (w winch) Commanded() (float64, bool) {
	return w.s.plugin[w.j].command, w.s.plugin[w.j].commanded
}

func (w winch) ForceLimit() float64 { return w.s.sys.Wires[w.j].Winch.ForceLimit }

func (w winch) SetForceLimit(newtons float64) error {
	if err := port.Force.Check("winch "+w.Name()+" force limit", "N", newtons); err != nil {
		return fmt.Errorf("%w (0: none)", err)
	}
	w.s.sys.Wires[w.j].Winch.ForceLimit = newtons
	return nil
}

// winchCommand is what plugins set on a wire's winch.
type winchCommand struct {
	commanded bool
	command   float64 // m/s
}
