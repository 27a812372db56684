package plugins_test

import (
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins"
	"github.com/cablefmu/cablefmu/fmu/plugins/plugintest"
)

// A scenario whose names make one port's name the start of another's (a
// winch named "load.x": load.x, the load's position, and load.x.speed; a
// body named "wire.node" beside the wire's nodes wire.node[k].x, the FMI
// 3.0 array wire.node) is refused: a tool that builds the tree of
// structured names cannot make load.x both a value and a group. Before,
// the FMUs were exported.
func TestPortNameBeginningAnotherRefused(t *testing.T) {
	reg, err := plugins.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		example string
		edits   []string
		want    string
	}{
		{"massless", []string{`"winch.speed",`, `"load.x.speed",`, `{"name": "winch",`, `{"name": "load.x",`},
			`variable "load.x" is also the start of "load.x.speed"`},
		{"hmr-wire", []string{`"m2.x", "m2.y", "m2.z", "m2.vx"`, `"wire.node.x", "m2.y", "m2.z", "m2.vx"`,
			`"m2.y", "m2.z", "m2.vx", "m2.vy", "m2.vz"`, `"wire.node.y", "wire.node.z", "wire.node.vx", "wire.node.vy", "wire.node.vz"`,
			`"m2.mass"`, `"wire.node.mass"`, `{"name": "m2",`, `{"name": "wire.node",`, `{"end": "m2",`, `{"end": "wire.node",`},
			`variable "wire.node" is also the start of "wire.node.x"`},
	} {
		sc, err := fmu.ReadScenario(plugintest.Edited(t, "../../examples/"+c.example, c.edits...))
		if err != nil {
			t.Fatal(err)
		}
		if _, err = reg.Configure(sc); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %s", c.example, err, c.want)
		}
	}
}
