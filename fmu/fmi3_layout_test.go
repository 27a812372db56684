package fmu_test

import (
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
)

// The FMI 3.0 layout of RigidHoist: time first, the scalar ports in their
// order, and cable.node as one 21×3 array whose values are the node
// coordinates row by row.
func TestLayout3GathersNodeArray(t *testing.T) {
	in := instantiate(t, "rigid-cable")
	in.UseFMI3()
	layout := in.Layout()
	if layout[0].Name != "time" || !layout[0].Independent {
		t.Fatalf("first FMI 3.0 variable %q, want the independent time", layout[0].Name)
	}
	var node *fmu.Var3
	for i := range layout {
		if layout[i].Name == "cable.node" {
			node = &layout[i]
		}
	}
	if node == nil || len(node.Dims) != 2 || node.Dims[0] != 21 || node.Dims[1] != 3 {
		t.Fatalf("cable.node: %+v, want a 21×3 array", node)
	}
	initialize(t, in)
	all := make([]float64, 63)
	if st := in.GetFloat64([]uint32{node.VR}, all); st != fmu.OK {
		t.Fatal(st)
	}
	vr := vrOf(in)
	one := []float64{0}
	in.GetReal([]uint32{vr["cable.node[7].z"]}, one)
	if all[6*3+2] != one[0] {
		t.Errorf("cable.node[7].z is %g in the array, %g as a scalar", all[6*3+2], one[0])
	}
	if st := in.GetFloat64([]uint32{node.VR}, all[:10]); st != fmu.Error {
		t.Errorf("reading 63 elements into 10 values: %v, want Error", st)
	}
	if st := in.SetFloat64([]uint32{0}, []float64{1}); st != fmu.Error {
		t.Errorf("setting time: %v, want Error", st)
	}
}

// time is readable where every other variable is: not while Instantiated,
// from initialization mode on.
func TestTimeReadableWithTheOtherVariables(t *testing.T) {
	in := instantiate(t, "massless")
	in.UseFMI3()
	out := []float64{0}
	if st := in.GetFloat64([]uint32{0}, out); st != fmu.Error {
		t.Errorf("fmi3GetFloat64(time) while Instantiated: %v, want Error", st)
	}
	initialize(t, in)
	if st := in.GetFloat64([]uint32{0}, out); st != fmu.OK || out[0] != 0 {
		t.Errorf("fmi3GetFloat64(time) after initialization: %v, %g", st, out[0])
	}
}
