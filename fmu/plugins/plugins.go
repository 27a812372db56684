// Package plugins assembles the registry of cable models compiled into the
// FMU binary. The exporter and the runtime both call Builtin, so an FMU can
// only name a model its binary contains.
package plugins

import (
	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/masslesscable"
	"github.com/cablefmu/cablefmu/fmu/plugins/rigidbodycable"
)

// Builtin returns a new registry of every model this build contains.
func Builtin() (*fmu.Registry, error) {
	return fmu.NewRegistry(masslesscable.Model{}, rigidbodycable.Model{})
}
