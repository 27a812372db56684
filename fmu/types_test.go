package fmu_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins"
)

// Counts are Integer and switches Boolean, read and written through the
// functions of their type: on the WireHoist, cable.massNodes through
// GetInteger (a whole number, between grid points the earlier one's, not
// interpolated) and winch.brake through SetBoolean; GetReal on a count
// and SetReal on a switch are refused naming the functions to use, and
// Write takes 0 or 1 for a Boolean, nothing between.
func TestCountsAndSwitchesHaveTheirTypes(t *testing.T) {
	in, rec := wireHoist(t)
	vr := vrOf(in)
	if st := in.SetBoolean([]uint32{vr["winch.brake"]}, []bool{true}); st != fmu.OK {
		t.Fatalf("SetBoolean(winch.brake): %v", st)
	}
	got := []bool{false}
	if st := in.GetBoolean([]uint32{vr["winch.brake"]}, got); st != fmu.OK || !got[0] {
		t.Errorf("GetBoolean(winch.brake) = %v (%v), want true", got[0], st)
	}
	if st := in.DoStep(0, 0.5); st != fmu.OK {
		t.Fatal(st)
	}
	n := []int32{0}
	if st := in.GetInteger([]uint32{vr["cable.massNodes"]}, n); st != fmu.OK || n[0] < 2 {
		t.Errorf("GetInteger(cable.massNodes) = %d (%v), want the wire's mass nodes", n[0], st)
	}
	// Between grid points (0.5 s is on the grid; 0.505 s is not).
	if st := in.DoStep(0.5, 0.005); st != fmu.OK {
		t.Fatal(st)
	}
	x := []float64{0}
	in.Read([]uint32{vr["cable.massNodes"]}, x)
	if x[0] != float64(int32(x[0])) {
		t.Errorf("cable.massNodes between grid points = %g, want a whole number", x[0])
	}
	for _, c := range []struct {
		call func() fmu.Status
		what string
	}{
		{func() fmu.Status { return in.GetReal([]uint32{vr["cable.massNodes"]}, x) }, "fmi2GetInteger"},
		{func() fmu.Status { return in.SetReal([]uint32{vr["winch.brake"]}, []float64{1}) }, "fmi2SetBoolean"},
		{func() fmu.Status { return in.GetInteger([]uint32{vr["cable.tension"]}, n) }, "fmi2GetReal"},
		{func() fmu.Status { return in.Write([]uint32{vr["winch.brake"]}, []float64{0.5}) }, "0 (false) or 1 (true)"},
	} {
		if st := c.call(); st != fmu.Error {
			t.Errorf("a call naming %q: %v, want Error", c.what, st)
		} else if msg := rec.last(); !strings.Contains(msg, c.what) {
			t.Errorf("refused with %q, want it to name %q", msg, c.what)
		}
	}
}

// A forged state whose Boolean is neither 0 nor 1, or whose Integer is not
// whole, is refused naming the variable (the model and the C API could
// read such a switch differently).
func TestForgedCountsAndSwitchesRefused(t *testing.T) {
	in, rec := wireHoist(t)
	if st := in.DoStep(0, 0.1); st != fmu.OK {
		t.Fatal(st)
	}
	vr := vrOf(in)
	snap, _ := in.GetState(nil)
	data := snap.Serialize()
	_, _, arrays := offsets(data)
	for _, c := range []struct {
		name  string
		x     float64
		named string
	}{
		{"winch.brake", 0.3, "winch.brake = 0.3 in the state: a Boolean is 0 or 1"},
		{"winch.brake", -1, "winch.brake = -1 in the state: a Boolean is 0 or 1"},
		{"cable.massNodes", 20.5, "cable.massNodes = 20.5 in the state: an Integer is a whole number"},
	} {
		refuses(t, in, rec, forged(data, arrays[0]+8*int(vr[c.name]), c.x), c.name, c.named)
	}
}

// Through the FMI 3.0 functions, a count reads as Int32 and a switch as
// Boolean, and time (a Float64) through neither.
func TestFMI3CountsAndSwitches(t *testing.T) {
	in := instantiate(t, "wire-hoist")
	in.UseFMI3()
	initialize(t, in)
	vr3 := map[string]uint32{}
	for _, v := range in.Layout() {
		vr3[v.Name] = v.VR
	}
	n := []int32{0}
	if st := in.GetInt32([]uint32{vr3["cable.massNodes"]}, n); st != fmu.OK || n[0] < 2 {
		t.Errorf("fmi3GetInt32(cable.massNodes) = %d (%v)", n[0], st)
	}
	if st := in.SetBoolean3([]uint32{vr3["winch.brake"]}, []bool{true}); st != fmu.OK {
		t.Errorf("fmi3SetBoolean(winch.brake): %v", st)
	}
	b := []bool{false}
	if st := in.GetBoolean3([]uint32{vr3["time"]}, b); st != fmu.Error {
		t.Errorf("fmi3GetBoolean(time): %v, want Error", st)
	}
	if st := in.GetInt32([]uint32{vr3["time"]}, n); st != fmu.Error {
		t.Errorf("fmi3GetInt32(time): %v, want Error", st)
	}
}

// wireHoist returns the WireHoist example's instance, initialized, and
// the recorder of its messages.
func wireHoist(t *testing.T) (*fmu.Instance, *recorder) {
	t.Helper()
	dir, _ := filepath.Abs("../examples/wire-hoist")
	sc, err := fmu.ReadScenario(dir)
	if err != nil {
		t.Fatal(err)
	}
	reg, _ := plugins.Builtin()
	rec := &recorder{}
	in, err := fmu.Instantiate(fmu.Config{InstanceName: "wire-hoist", GUID: sc.GUID(), ResourceLocation: dir, Logger: rec, Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	initialize(t, in)
	return in, rec
}
