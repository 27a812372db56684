package massless

import (
	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// kinematicPorts are the ports of one kinematic body (its index in the
// configuration's bodies).
type kinematicPorts struct {
	body int
	port.Driven
}

// kinematicPorts finds the ports of every kinematic body.
func (m *configured) kinematicPorts() []kinematicPorts {
	var ks []kinematicPorts
	for i, b := range m.cfg.Bodies {
		if b.Kind == "kinematic" {
			ks = append(ks, kinematicPorts{body: i, Driven: port.FindDriven(m.Variables(), b.Name)})
		}
	}
	return ks
}

// DrivenPoints implements fmu.Driver: the kinematic bodies.
func (m *configured) DrivenPoints() []fmu.DrivenPoint {
	var ps []fmu.DrivenPoint
	for _, k := range m.kinematicPorts() {
		ps = append(ps, k.Point(m.cfg.Bodies[k.body].Name))
	}
	return ps
}
