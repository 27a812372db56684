package modeldesc

import (
	"math"
	"strings"
	"testing"
)

// A variable's display unit must be one its unit defines, and needs a
// unit; the fixtures' kN of N and quantities pass, in both standards.
func TestDisplayUnitChecked(t *testing.T) {
	if err := Representative().Check(); err != nil {
		t.Fatalf("the fixture: %v", err)
	}
	if err := Representative3().Check(); err != nil {
		t.Fatalf("the FMI 3.0 fixture: %v", err)
	}
	for _, c := range []struct {
		unit, display, want string
	}{
		{"N", "t", `displayUnit "t" is not a DisplayUnit of unit "N"`},
		{"", "kN", `displayUnit "kN" without a unit`},
	} {
		md := Representative()
		v := &md.Variables[12] // cable.tension
		v.Unit, v.DisplayUnit = c.unit, c.display
		if err := md.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("FMI 2.0, unit %q display %q: %v, want %q", c.unit, c.display, err, c.want)
		}
		md3 := Representative3()
		for i := range md3.Variables {
			if md3.Variables[i].Name == "cable.tension" {
				md3.Variables[i].Unit, md3.Variables[i].DisplayUnit = c.unit, c.display
			}
		}
		if err := md3.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("FMI 3.0, unit %q display %q: %v, want %q", c.unit, c.display, err, c.want)
		}
	}
}

// SIUnits gives each unit the display units engineers read: kN of N,
// rpm of rad/s (display = factor · value).
func TestSIUnitsDisplay(t *testing.T) {
	units := must(SIUnits("N", "rad/s", "m/s2"))
	if d := units[0].Display; len(d) != 1 || d[0].Name != "kN" || d[0].Factor != 1e-3 {
		t.Errorf("N: %+v", d)
	}
	if d := units[1].Display; len(d) == 0 || d[0].Name != "rpm" || math.Abs(d[0].Factor*2*math.Pi-60) > 1e-12 {
		t.Errorf("rad/s: %+v", d)
	}
	if d := units[2].Display; d != nil {
		t.Errorf("m/s2: %+v, want none", d)
	}
}
