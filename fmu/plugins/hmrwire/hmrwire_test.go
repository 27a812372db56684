package hmrwire_test

import (
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins"
	"github.com/cablefmu/cablefmu/fmu/plugins/plugintest"
)

// A dynamic body's mass has no default: left out (read as 0) or 0, the
// refusal says so and names the range, where it said "mass 0 kg" as of a
// value given out of range.
func TestBodyMassLeftOut(t *testing.T) {
	reg, err := plugins.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ what, replacement string }{{"left out", ``}, {"0", `"mass": 0, `}} {
		dir := plugintest.Edited(t, "../../../examples/hmr-wire", `"mass": 10, `, c.replacement)
		sc, err := fmu.ReadScenario(dir)
		if err == nil {
			_, err = reg.Configure(sc)
		}
		if err == nil || !strings.Contains(err.Error(), `body "m1": mass 0 kg or not given: a dynamic body needs its mass`) {
			t.Errorf("m1's mass %s: %v", c.what, err)
		}
	}
}
