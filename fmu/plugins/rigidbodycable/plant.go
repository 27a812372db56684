package rigidbodycable

import (
	"errors"

	"github.com/cablefmu/cablefmu/core/multibody"
	"github.com/cablefmu/cablefmu/fmu"
)

// Plant implements fmu.PlantSimulation: plugins see the hoist (suspension
// point) and the load, the cable and its winch, named as in the ports.
func (s *simulation) Plant() fmu.Plant { return plant{s} }

type plant struct{ s *simulation }

func (p plant) Bodies() []*multibody.Body  { return []*multibody.Body{p.s.hoist, p.s.load} }
func (p plant) Cables() []fmu.PlantCable   { return []fmu.PlantCable{cableView(p)} }
func (p plant) Winches() []fmu.PlantWinch  { return []fmu.PlantWinch{winch(p)} }
func (c cableView) Name() string           { return "cable" }
func (c cableView) Tension() float64       { return c.s.cable.Joints[0].Force() }
func (c cableView) FreeLength() float64    { return c.s.cable.Length() }
func (w winch) Name() string               { return "winch" }
func (w winch) Speed() float64             { return w.s.rate }
func (w winch) Command(speed float64)      { w.s.commanded, w.s.command = true, speed }
func (w winch) Release()                   { w.s.commanded, w.s.command = false, 0 }
func (w winch) Commanded() (float64, bool) { return w.s.command, w.s.commanded }
func (w winch) ForceLimit() float64        { return 0 }
func (w winch) SetForceLimit(f float64) error {
	if f == 0 {
		return nil
	}
	return errors.New("winch: the rigid-body cable's winch has no force limit (the massless cable's has); limit the tension by commanding the speed")
}

type cableView struct{ s *simulation }
type winch struct{ s *simulation }
