package multibody

import (
	"math"
	"reflect"
	"testing"
)

// Reset leaves a row as a fresh unbounded rigid holonomic row, whatever
// its fields held (set here through reflection, so that a field added to
// Row and forgotten in Reset fails), with its Jacobian kept and cleared.
func TestRowResetClearsEveryField(t *testing.T) {
	j := make([]Jacobian, 2)
	j[1].Ang.Y = 1
	r := Row{J: j}
	dirty(t, &r, false)
	r.Reset()
	got := r
	got.J = nil
	if want := (Row{Holonomic: true, Lo: math.Inf(-1), Hi: math.Inf(1)}); !reflect.DeepEqual(got, want) {
		t.Errorf("reset row %+v, want %+v", got, want)
	}
	if len(r.J) != 2 || &r.J[0] != &j[0] || j[1] != (Jacobian{}) {
		t.Errorf("reset row's Jacobian %v, want the same two blocks cleared", r.J)
	}
}

// SetHolonomic sets every field but J, whatever the fields held (set here
// through reflection, bools both ways, so that a field added to Row and
// forgotten in SetHolonomic fails): what Reset and the fields give, as an
// Overwriting constraint's Update relies on.
func TestRowSetHolonomicSetsEveryField(t *testing.T) {
	for _, set := range []bool{false, true} {
		j := make([]Jacobian, 2)
		j[1].Ang.Y = 1
		r := Row{J: j}
		dirty(t, &r, set)
		r.SetHolonomic(1, 2, 3, 4, 5, 6)
		if len(r.J) != 2 || &r.J[0] != &j[0] || j[1].Ang.Y != 1 {
			t.Errorf("bools held %v: J changed to %v", set, r.J)
		}
		got := r
		got.J = nil
		var want Row
		want.Reset()
		want.Violation, want.Compliance, want.Damping, want.Geometric = 1, 2, 3, 4
		want.Speed, want.SpeedBefore = 5, 6
		if !reflect.DeepEqual(got, want) {
			t.Errorf("bools held %v: set row %+v, want %+v", set, got, want)
		}
	}
}

// dirty sets every field of r but J through reflection (bools to b), so
// that a test of a method that must set them all fails on a field added
// to Row and forgotten there.
func dirty(t *testing.T, r *Row, b bool) {
	t.Helper()
	v := reflect.ValueOf(r).Elem()
	for i := 0; i < v.NumField(); i++ {
		switch f := v.Field(i); f.Kind() {
		case reflect.Float64:
			f.SetFloat(7)
		case reflect.Bool:
			f.SetBool(b)
		case reflect.Int8:
			f.SetInt(1)
		case reflect.Slice:
		default:
			t.Fatalf("field %s of kind %v: extend this test", v.Type().Field(i).Name, f.Kind())
		}
	}
}
