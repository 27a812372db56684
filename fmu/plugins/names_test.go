package plugins_test

import (
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins"
	"github.com/cablefmu/cablefmu/fmu/plugins/plugintest"
)

// A scenario whose names make one port's name the start of another's (a
// winch named "load.x": load.x, the load's position, and load.x.speed)
// is refused: a tool that builds the tree of structured names cannot make
// load.x both a value and a group. Before, the FMU was exported.
func TestPortNameBeginningAnotherRefused(t *testing.T) {
	dir := plugintest.Edited(t, "../../examples/massless", `"winch.speed",`, `"load.x.speed",`, `{"name": "winch",`, `{"name": "load.x",`)
	sc, err := fmu.ReadScenario(dir)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := plugins.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	_, err = reg.Configure(sc)
	if want := `variable "load.x" is also the start of "load.x.speed"`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want one saying %s", err, want)
	}
}
