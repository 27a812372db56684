package fmu_test

import (
	"path/filepath"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins"
	"github.com/cablefmu/cablefmu/modeldesc"
)

// No output responds at once to an input: mid-run, with the trolley
// moving and the load swinging, every input of the examples set to
// another value (positions 1 m off, velocities 1 m/s off, the winch
// running) leaves every output as it was, bitwise, until the next step —
// the inputs act over it, along the driven point's smooth path — and the
// model descriptions say so (no output dependencies, no directional
// derivatives).
func TestNoOutputRespondsAtOnce(t *testing.T) {
	for _, ex := range []string{"massless", "rigid-cable", "wire-hoist"} {
		in := instantiate(t, ex)
		initialize(t, in)
		before := drive(t, in, 0, 30)
		vars := in.Variables()
		var inputs []uint32
		var moved []float64
		for i, v := range vars {
			if v.Causality == modeldesc.CausalityInput {
				inputs = append(inputs, uint32(i))
				if v.Kind() == modeldesc.TypeBoolean {
					moved = append(moved, 1-before[i])
				} else {
					moved = append(moved, before[i]+1)
				}
			}
		}
		if st := in.Write(inputs, moved); st != fmu.OK {
			t.Fatalf("%s: SetReal: %v", ex, st)
		}
		for i, v := range vars {
			if v.Causality != modeldesc.CausalityOutput {
				continue
			}
			got := []float64{0}
			in.Read([]uint32{uint32(i)}, got)
			if got[0] != before[i] {
				t.Errorf("%s: %s = %.9g after the inputs were set, %.9g before: it responded at once", ex, v.Name, got[0], before[i])
			}
		}
		sc, err := fmu.ReadScenario(filepath.Join("../examples", ex))
		if err != nil {
			t.Fatal(err)
		}
		reg, _ := plugins.Builtin()
		model, err := reg.Configure(sc)
		if err != nil {
			t.Fatal(err)
		}
		md, err := fmu.Describe(sc, model)
		if err != nil {
			t.Fatal(err)
		}
		if md.CoSimulation.ProvidesDirectionalDerivative {
			t.Errorf("%s: providesDirectionalDerivative is true", ex)
		}
		for _, o := range md.Structure.Outputs {
			if o.Dependencies == nil || len(o.Dependencies) != 0 {
				t.Errorf("%s: output %d depends on %v (nil: on every input)", ex, o.Index, o.Dependencies)
			}
		}
	}
}
