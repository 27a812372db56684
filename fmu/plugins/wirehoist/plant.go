package wirehoist

import (
	"fmt"

	"github.com/cablefmu/cablefmu/core/hmrwire"
	"github.com/cablefmu/cablefmu/core/multibody"
	"github.com/cablefmu/cablefmu/fmu/plugins/plant"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// Plant implements plant.Simulation: plugins see the boom tip ("suspension",
// moved by the inputs) and the hook block with its load ("load"), the
// wire ("cable": its tension where it leaves the drum) and the drum as
// the winch ("winch"), named as in the ports.
func (s *simulation) Plant() plant.Plant { return view{s} }

type view struct{ s *simulation }

func (v view) Bodies() []plant.Body {
	return []plant.Body{plant.Renamed(plant.RigidBody(v.s.ho.BoomTip), "suspension"), plant.Renamed(plant.RigidBody(v.s.ho.Block), "load")}
}

func (v view) ClearForces()           { plant.ClearRigid([]*multibody.Body{v.s.ho.Block}) }
func (v view) Cables() []plant.Cable  { return []plant.Cable{wireView(v)} }
func (v view) Winches() []plant.Winch { return []plant.Winch{drumWinch(v)} }

type wireView struct{ s *simulation }

func (c wireView) Name() string        { return "cable" }
func (c wireView) Tension() float64    { return c.s.reported(hmrwire.ReportDrumTension) }
func (c wireView) FreeLength() float64 { return c.s.ho.Wire.RestLength() }

// drumWinch is the drum as a winch: a command runs its motor in speed
// mode at that rim speed in place of the inputs (while the brake input
// is engaged the brake holds the drum, as it does the motor's own
// command); a force limit caps the motor's torque at limit × radius (with
// the motor.torqueLimit parameter the lower of the two holds), so the
// drum gives way beyond that tension.
type drumWinch struct{ s *simulation }

func (w drumWinch) Name() string               { return "winch" }
func (w drumWinch) Speed() float64             { return w.s.ho.Drum.Omega() * w.s.ho.Drum.Radius }
func (w drumWinch) Command(speed float64)      { w.s.commanded, w.s.speedCommand = true, speed }
func (w drumWinch) Release()                   { w.s.commanded, w.s.speedCommand = false, 0 }
func (w drumWinch) Commanded() (float64, bool) { return w.s.speedCommand, w.s.commanded }
func (w drumWinch) ForceLimit() float64        { return w.s.forceLimit }

func (w drumWinch) SetForceLimit(newtons float64) error {
	if err := port.Force.Check("winch force limit", "N", newtons); err != nil {
		return fmt.Errorf("%w (0: none)", err)
	}
	if newtons != 0 && w.s.m.cfg.torqueDrive() {
		return fmt.Errorf("winch force limit: the drum is driven by the winch.torque input, which already sets the torque it gives; command the speed, or limit the torque input")
	}
	w.s.forceLimit = newtons
	return nil
}
