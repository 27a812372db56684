package modeldesc

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// dims derives base exponents from a unit name with an independent little
// parser of the Modelica unit syntax, so the hand-written table in units.go
// is cross-checked rather than restated.
func dims(t *testing.T, name string) BaseUnit {
	t.Helper()
	symbols := map[string]BaseUnit{
		"m": {M: 1}, "s": {S: 1}, "kg": {Kg: 1}, "K": {K: 1}, "rad": {Rad: 1},
		"N":  {Kg: 1, M: 1, S: -2},
		"Pa": {Kg: 1, M: -1, S: -2},
		"J":  {Kg: 1, M: 2, S: -2},
		"W":  {Kg: 1, M: 2, S: -3},
		"Hz": {S: -1},
	}
	var out BaseUnit
	add := func(term string, sign int) {
		if term == "1" {
			return
		}
		exp := 1
		sym := strings.TrimRight(term, "0123456789")
		if sym != term {
			exp, _ = strconv.Atoi(term[len(sym):])
		}
		b, ok := symbols[sym]
		if !ok {
			t.Fatalf("test parser: unknown symbol %q in %q", sym, name)
		}
		e := sign * exp
		out.Kg += e * b.Kg
		out.M += e * b.M
		out.S += e * b.S
		out.K += e * b.K
		out.Rad += e * b.Rad
	}
	num, den, _ := strings.Cut(name, "/")
	for _, term := range strings.Split(num, ".") {
		add(term, 1)
	}
	if den != "" {
		for _, term := range strings.Split(den, ".") {
			add(term, -1)
		}
	}
	return out
}

func TestSIUnitsExponents(t *testing.T) {
	scaled := map[string]float64{"deg": math.Pi / 180, "kN": 1000}
	for _, name := range KnownSIUnits() {
		units, err := SIUnits(name)
		if err != nil {
			t.Fatalf("SIUnits(%q): %v", name, err)
		}
		got := units[0].Base
		var want BaseUnit
		switch name {
		case "deg":
			want = BaseUnit{Rad: 1}
		case "kN":
			want = dims(t, "N")
		default:
			want = dims(t, name)
		}
		want.Factor = scaled[name]
		if got != want {
			t.Errorf("%s: got %+v, want %+v", name, got, want)
		}
	}
}

func TestSIUnitsRequestedByTheSimulator(t *testing.T) {
	names := []string{"m", "m/s", "m/s2", "s", "kg", "N", "N.m", "Pa", "kg/m3", "rad", "rad/s", "N/m", "N.m/rad", "N.s/m", "1/s"}
	units, err := SIUnits(append(names, "m", "N")...) // duplicates are dropped
	if err != nil {
		t.Fatal(err)
	}
	if len(units) != len(names) {
		t.Fatalf("got %d units, want %d", len(units), len(names))
	}
	for i, u := range units {
		if u.Name != names[i] {
			t.Errorf("unit %d = %q, want %q (order must be kept)", i, u.Name, names[i])
		}
		if u.Base.EffectiveFactor() != 1 || u.Base.Offset != 0 {
			t.Errorf("%s: coherent SI unit must have factor 1, offset 0", u.Name)
		}
	}
	if got := units[8].Base; got != (BaseUnit{Kg: 1, M: -3}) {
		t.Errorf("kg/m3 = %+v", got)
	}
}

func TestSIUnitsUnknown(t *testing.T) {
	_, err := SIUnits("m", "furlong", "N.m", "mph")
	if err == nil {
		t.Fatal("unknown units must be an error")
	}
	for _, s := range []string{`"furlong"`, `"mph"`} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not name %s", err, s)
		}
	}
}
