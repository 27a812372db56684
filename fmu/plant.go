package fmu

import "github.com/cablefmu/cablefmu/core/multibody"

// Plant is what a running simulation shows the scenario's plugins: its
// bodies to read and push, its cables to read and its winches to drive.
// A simulation offers it by implementing PlantSimulation.
type Plant interface {
	// Bodies lists the bodies a plugin may read and load with forces
	// (Body.Force and Body.Torque belong to the plugins).
	Bodies() []*multibody.Body
	Cables() []PlantCable
	Winches() []PlantWinch
}

// PlantSimulation is a simulation with a Plant.
type PlantSimulation interface {
	Simulation
	Plant() Plant
}

// PlantCable is a cable as plugins see it.
type PlantCable interface {
	Name() string
	// Tension is the tension of the last step (N); for a cable with mass,
	// at its upper end.
	Tension() float64
	// FreeLength is the unstretched length paid out (m).
	FreeLength() float64
}

// PlantWinch is a winch plugins may command.
type PlantWinch interface {
	Name() string
	// Speed is the pay-out rate of the last step (m/s), positive
	// lengthening the cable.
	Speed() float64
	// Command sets the pay-out rate (m/s) for the coming steps in place of
	// the winch's speed input, until Release.
	Command(speed float64)
	Release()
	// Commanded returns the command in force, if any.
	Commanded() (speed float64, ok bool)
	// SetForceLimit lets the winch slip (pay out) when the cable tension
	// would exceed newtons; 0 removes the limit. Models without a force
	// limited winch say so in the error.
	SetForceLimit(newtons float64) error
	ForceLimit() float64
}

// Extension adds a scenario's plugins to a configured model. The registry
// holds one so that the exporter and the runtime read plugins alike.
type Extension interface {
	Extend(model Configured, sc *Scenario) (Configured, error)
}

// CommunicationPointer is implemented by simulations that act at
// communication points: after the simulation is built and after every
// communication step, at time t (s).
type CommunicationPointer interface {
	CommunicationPoint(t float64) error
}

// ExtraState is implemented by simulations that carry state besides
// numbers (the plugins' variables); it travels with SaveState's numbers in
// FMU states and serialized states.
type ExtraState interface {
	SaveExtra(dst []byte) ([]byte, error)
	LoadExtra(src []byte) error
}
