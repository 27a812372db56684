package fmu

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
