package modeldesc

import (
	"reflect"
	"slices"
	"testing"
)

func indices(list []Unknown) []int {
	return keys(list, func(u Unknown) int { return u.Index })
}

func TestDeriveStructure(t *testing.T) {
	md := Representative()
	md.Structure = ModelStructure{}
	md.DeriveStructure()
	// See the index comments in Representative.
	if got, want := indices(md.Structure.Outputs), []int{11, 12, 13, 14}; !slices.Equal(got, want) {
		t.Errorf("Outputs = %v, want %v (every output, index order)", got, want)
	}
	if got, want := indices(md.Structure.Derivatives), []int{18}; !slices.Equal(got, want) {
		t.Errorf("Derivatives = %v, want %v", got, want)
	}
	// 8 calculatedParameter; 11 calculated output (and state); 13 approx
	// output; 14 output with omitted initial; 18 exposed derivative. Not 12
	// (exact output).
	if got, want := indices(md.Structure.InitialUnknowns), []int{8, 11, 13, 14, 18}; !slices.Equal(got, want) {
		t.Errorf("InitialUnknowns = %v, want %v", got, want)
	}
	if err := md.Check(); err != nil {
		t.Errorf("derived structure fails Check:\n%v", err)
	}
}

func TestDeriveStructureIncludesApproxState(t *testing.T) {
	md := Representative()
	// A state that is a plain local with initial approx becomes an initial
	// unknown because its derivative is exposed.
	st := v(md, "hook.acceleration")
	st.Initial, st.Start = InitialApprox, "0"
	md.Variables = append(md.Variables, Variable{Name: "der(hook.acceleration)", ValueReference: 20, Type: TypeReal, Variability: VariabilityContinuous, Derivative: 15, Initial: InitialExact, Start: "0"})
	md.DeriveStructure()
	if got, want := indices(md.Structure.InitialUnknowns), []int{8, 11, 13, 14, 15, 18}; !slices.Equal(got, want) {
		t.Errorf("InitialUnknowns = %v, want %v", got, want)
	}
	if err := md.Check(); err != nil {
		t.Errorf("Check: %v", err)
	}
}

func TestDeriveStructureKeepsDependencies(t *testing.T) {
	md := Representative()
	before := slices.Clone(md.Structure.Outputs)
	md.DeriveStructure()
	if !reflect.DeepEqual(before, md.Structure.Outputs) {
		t.Errorf("re-deriving dropped dependencies:\nbefore %+v\nafter  %+v", before, md.Structure.Outputs)
	}
	// A variable that stops being an output loses its entry.
	v(md, "solver.message").Causality = CausalityLocal
	md.DeriveStructure()
	if got := indices(md.Structure.Outputs); slices.Contains(got, 14) {
		t.Errorf("Outputs = %v still lists a local", got)
	}
}

func TestVariableLookup(t *testing.T) {
	md := Representative()
	p, ok := md.VariableByName("cable.EA")
	if !ok || p.ValueReference != 3 {
		t.Fatalf("VariableByName = %+v, %v", p, ok)
	}
	p.Start = "2e8"
	if md.Variables[3].Start != "2e8" {
		t.Error("VariableByName must return a pointer into Variables")
	}
	if _, ok := md.VariableByName("nope"); ok {
		t.Error("found a missing variable")
	}
	if i, ok := md.IndexOf("der(hook.position)"); !ok || i != 18 {
		t.Errorf("IndexOf = %d, %v; want 18", i, ok)
	}
}

func TestUnitNames(t *testing.T) {
	got := Representative().UnitNames()
	want := []string{"N", "N.s/m", "kg", "kg/m", "m", "m/s", "m/s2", "s"}
	if !slices.Equal(got, want) {
		t.Errorf("UnitNames = %v, want %v", got, want)
	}
}
