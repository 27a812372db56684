// Package plugins assembles the registry of cable and crane models compiled into the
// FMU binary, with the extension that runs scenarios' Python plugins. The
// exporter and the runtime both call Builtin, so an FMU can only name a
// model its binary contains, and plugins are checked as they will run.
package plugins

import (
	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/crane"
	"github.com/cablefmu/cablefmu/fmu/plugins/hmrwire"
	"github.com/cablefmu/cablefmu/fmu/plugins/massless"
	"github.com/cablefmu/cablefmu/fmu/plugins/massspring"
	"github.com/cablefmu/cablefmu/fmu/plugins/rigidcable"
	"github.com/cablefmu/cablefmu/fmu/plugins/spline"
	"github.com/cablefmu/cablefmu/fmu/plugins/wirehoist"
	"github.com/cablefmu/cablefmu/fmu/pyplugin"
)

// Builtin returns a new registry of every model this build contains.
func Builtin() (*fmu.Registry, error) {
	r, err := fmu.NewRegistry(massless.Model{}, rigidcable.Model, hmrwire.Model{}, wirehoist.Model{}, massspring.Model, spline.Model, crane.Gantry{}, crane.BoomCrane{})
	if err != nil {
		return nil, err
	}
	// The names before the models took their core packages' names.
	for former, name := range map[string]string{"massless-cable": "massless", "rigid-body-cable": "rigid-cable",
		"mass-spring-cable": "mass-spring", "spline-cable": "spline"} {
		r.Rename(former, name)
	}
	r.UsePlugins(pyplugin.New())
	return r, nil
}
