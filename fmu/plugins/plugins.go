// Package plugins assembles the registry of cable models compiled into the
// FMU binary, with the extension that runs scenarios' Python plugins. The
// exporter and the runtime both call Builtin, so an FMU can only name a
// model its binary contains, and plugins are checked as they will run.
package plugins

import (
	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/hmrwire"
	"github.com/cablefmu/cablefmu/fmu/plugins/masslesscable"
	"github.com/cablefmu/cablefmu/fmu/plugins/massspringcable"
	"github.com/cablefmu/cablefmu/fmu/plugins/rigidbodycable"
	"github.com/cablefmu/cablefmu/fmu/plugins/splinecable"
	"github.com/cablefmu/cablefmu/fmu/plugins/wirehoist"
	"github.com/cablefmu/cablefmu/fmu/pyplugin"
)

// Builtin returns a new registry of every model this build contains.
func Builtin() (*fmu.Registry, error) {
	r, err := fmu.NewRegistry(masslesscable.Model{}, rigidbodycable.Model, hmrwire.Model{}, wirehoist.Model{}, massspringcable.Model, splinecable.Model)
	if err != nil {
		return nil, err
	}
	r.UsePlugins(pyplugin.New())
	return r, nil
}
