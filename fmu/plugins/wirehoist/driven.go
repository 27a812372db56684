package wirehoist

import "github.com/cablefmu/cablefmu/fmu"

// DrivenPoints implements fmu.Driver: the boom tip.
func (m *configured) DrivenPoints() []fmu.DrivenPoint {
	return []fmu.DrivenPoint{m.hoist.Point("suspension")}
}
