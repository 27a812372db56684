package modeldesc

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestRoundTrip3(t *testing.T) {
	md := Representative3()
	// Text that needs escaping, including line breaks XML readers would
	// normalize away if written literally.
	md.Description = "Cable <EA> & \"damping\" 'test'\nsecond line\ttab ü"
	v3(md, "solver.message").Description = "multi\r\nline"
	v3(md, "solver.label").StringStart = []string{"a <b> & \"c\"\nd", ""}
	v3(md, "cable.EA").Start = []float64{0.1 + 0.2} // 0.30000000000000004
	v3(md, "cable.EA").Min = Float(-math.MaxFloat64)
	v3(md, "nodes.initialPosition").Start[4] = math.SmallestNonzeroFloat64
	v3(md, "nodes.initialPosition").Start[5] = math.Inf(-1)
	v3(md, "solver.substeps").Min = Float(math.MinInt32)
	p := v3(md, "cable.segments")
	p.Start, p.Max = []float64{1 << 53}, nil
	md.Variables = append(md.Variables,
		Variable3{Name: "flags", ValueReference: 30, Causality: CausalityParameter, Type: TypeBoolean3, Start: []float64{1, 0, 1}, Dimensions: []Dimension3{Fixed(3)}},
		Variable3{Name: "offsets", ValueReference: 31, Causality: CausalityParameter, Type: TypeInt64, Start: []float64{-(1 << 53), 0}, Dimensions: []Dimension3{SizedBy(3)}},
		Variable3{Name: "counts", ValueReference: 32, Type: TypeUInt8, Variability: VariabilityDiscrete, Initial: InitialExact, Start: []float64{255}, Max: Float(255)},
		Variable3{Name: "none", ValueReference: 33, Causality: CausalityParameter, Type: TypeFloat64, Start: []float64{}},
	)
	md.Units = append(md.Units, Unit{Name: "degC", Base: BaseUnit{K: 1, Factor: 1, Offset: 273.15}})
	md.DefaultExperiment.Tolerance = 1e-6
	cs := md.CoSimulation
	cs.NeedsExecutionTool, cs.CanBeInstantiatedOnlyOncePerProcess = true, true
	cs.ProvidesDirectionalDerivatives, cs.ProvidesAdjointDerivatives, cs.ProvidesPerElementDependencies = true, true, true
	cs.MaxOutputDerivativeOrder, cs.RecommendedIntermediateInputSmoothness = 2, -1
	cs.ProvidesIntermediateUpdate, cs.MightReturnEarlyFromDoStep, cs.CanReturnEarlyAfterIntermediateUpdate = true, true, true
	cs.HasEventMode, cs.ProvidesEvaluateDiscreteStates = true, true
	md.Structure.EventIndicators = []Unknown3{{ValueReference: 14, Dependencies: []uint32{}}}
	unknown3(md.Structure.Outputs, 8).Dependencies = []uint32{6, 4294967295}

	assertRoundTrip(t, md, "Parse3", Parse3)
}

func TestRoundTrip3Minimal(t *testing.T) {
	md := &ModelDescription3{
		ModelName:          "m",
		InstantiationToken: "t",
		CoSimulation:       &CoSimulation3{ModelIdentifier: "m"},
		Variables:          []Variable3{IndependentTime(0)},
	}
	md.Variables[0].Unit = "" // implicitly s
	md.DeriveStructure()
	if err := md.Check(); err != nil {
		t.Fatalf("minimal description: %v", err)
	}
	data, err := md.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	for _, absent := range []string{"UnitDefinitions", "LogCategories", "DefaultExperiment", "<Output", "fixedInternalStepSize"} {
		if strings.Contains(string(data), absent) {
			t.Errorf("minimal description contains %s:\n%s", absent, data)
		}
	}
	if !strings.Contains(string(data), "<ModelStructure/>") {
		t.Errorf("ModelStructure must be written even when empty:\n%s", data)
	}
	back, err := Parse3(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(md, back) {
		t.Errorf("round trip: want %+v, got %+v", md, back)
	}
}

// TestMarshal3Text pins the FMI 3.0 spelling of what Marshal writes.
func TestMarshal3Text(t *testing.T) {
	data := string(must(Representative3().Marshal()))
	for _, want := range []string{
		`<?xml version="1.0" encoding="UTF-8"?>`,
		`<fmiModelDescription fmiVersion="3.0" modelName="HoistingCable" instantiationToken="{5c0e8a3e-3f7b-4f6e-9a51-0c7d2a1b9e42}"`,
		` canGetAndSetFMUState="true" canSerializeFMUState="true" providesDirectionalDerivatives="false"`,
		` fixedInternalStepSize="0.001" maxOutputDerivativeOrder="0"`,
		`<Float64 name="time" valueReference="0" description="Simulation time" causality="independent" variability="continuous" unit="s"/>`,
		`<UInt64 name="cable.segments" valueReference="3" causality="structuralParameter" variability="fixed" min="1" max="1000" start="20"/>`,
		`<Boolean name="winch.brake" valueReference="7" causality="input" variability="discrete" start="false"/>`,
		"<Float64 name=\"nodes.position\" valueReference=\"11\" description=\"Node positions (array [k][x, y, z], k = 1…21)\" causality=\"output\" variability=\"continuous\" unit=\"m\">\n" +
			"      <Dimension start=\"21\"/>\n      <Dimension start=\"3\"/>\n    </Float64>",
		"<Dimension valueReference=\"3\"/>",
		`start="0 0 0 0 0 -2.5 0 0 -5 `,
		`<Float64 name="der(hook.position)" valueReference="17" causality="local" variability="continuous" unit="m/s" derivative="8"/>`,
		"<String name=\"solver.label\" valueReference=\"20\" causality=\"parameter\" variability=\"fixed\">\n      <Start value=\"default\"/>\n    </String>",
		`<Float32 name="solver.relaxation" valueReference="19" causality="local" variability="tunable" initial="approx" start="1.5"/>`,
		"<ModelStructure>\n    <Output valueReference=\"8\"/>",
		`<Output valueReference="10" dependencies="6 8" dependenciesKind="dependent fixed"/>`,
		`<Output valueReference="13" dependencies=""/>`,
		`<ContinuousStateDerivative valueReference="17"/>`,
		`<InitialUnknown valueReference="5" dependencies="1 4" dependenciesKind="dependent dependent"/>`,
	} {
		if !strings.Contains(data, want) {
			t.Errorf("marshalled description lacks\n%s\n---\n%s", want, data)
		}
	}
	for _, unwanted := range []string{"guid", "ScalarVariable", "<Real", "<Unknown", "FMUstate", "providesDirectionalDerivative=", "-0 "} {
		if strings.Contains(data, unwanted) {
			t.Errorf("marshalled description contains %q", unwanted)
		}
	}
	if !strings.HasSuffix(data, "</fmiModelDescription>\n") || strings.HasSuffix(data, "\n\n") {
		t.Error("description must end with exactly one newline")
	}
}

func TestMarshal3RejectsUnrepresentable(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(md *ModelDescription3)
		want   string
	}{
		{"unknown type", func(md *ModelDescription3) { v3(md, "g").Type = "Real" }, `unsupported type "Real"`},
		{"unit on Int32", func(md *ModelDescription3) { v3(md, "solver.substeps").Unit = "m" }, "only Float32 and Float64 have units"},
		{"derivative on Boolean", func(md *ModelDescription3) { v3(md, "winch.brake").Derivative = VR(6) }, "only Float32 and Float64 have derivatives"},
		{"bounds on String", func(md *ModelDescription3) { v3(md, "solver.message").Min = Float(0) }, "only numeric types have bounds"},
		{"numeric start on String", func(md *ModelDescription3) { v3(md, "solver.label").Start = []float64{1} }, "use StringStart"},
		{"StringStart on Float64", func(md *ModelDescription3) { v3(md, "g").StringStart = []string{"9.81"} }, "use Start"},
		{"fractional Int32 start", func(md *ModelDescription3) { v3(md, "solver.substeps").Start = []float64{0.5} }, "not a Int32 value"},
		{"UInt64 bound beyond 2^53", func(md *ModelDescription3) { v3(md, "cable.segments").Max = Float(1 << 60) }, "max:"},
		{"Boolean start 2", func(md *ModelDescription3) { v3(md, "winch.brake").Start = []float64{2} }, "not a Boolean"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			md := Representative3()
			tc.mutate(md)
			_, err := md.Marshal()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Marshal error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// foreign3 is written the way other exporters write FMI 3.0: defaults
// omitted, ModelExchange, type definitions, aliases and annotations present.
const foreign3 = `<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription fmiVersion="3.0" modelName="Foreign" instantiationToken="{f}">
  <ModelExchange modelIdentifier="Foreign"/>
  <CoSimulation modelIdentifier="Foreign" canHandleVariableCommunicationStepSize="1" fixedInternalStepSize="1e-3"/>
  <UnitDefinitions>
    <Unit name="m"><BaseUnit m="1"/><DisplayUnit name="mm" factor="1000"/></Unit>
  </UnitDefinitions>
  <TypeDefinitions><Float64Type name="Length" unit="m"/></TypeDefinitions>
  <ModelVariables>
    <Float64 name="t" valueReference="0" causality="independent"/>
    <UInt32 name="n" valueReference="4294967295" causality="structuralParameter" start="4294967295"/>
    <Float64 name="x" valueReference="2" initial="exact" declaredType="Length" nominal="2" start="1 +2.5 -INF  3e0">
      <Annotations><Annotation type="com.example"/></Annotations>
      <Dimension start="4"/>
      <Alias name="xAlias"/>
    </Float64>
    <Int64 name="k" valueReference="3" causality="output" variability="discrete" min="-9007199254740992"/>
    <String name="s" valueReference="5" causality="parameter"><Start value="a"/><Start value="b"/></String>
  </ModelVariables>
  <ModelStructure>
    <Output valueReference="3"/>
    <InitialUnknown valueReference="3" dependencies="" dependenciesKind=""/>
  </ModelStructure>
</fmiModelDescription>`

func TestParse3DefaultsAndIgnoredContent(t *testing.T) {
	md, err := Parse3([]byte(foreign3))
	if err != nil {
		t.Fatal(err)
	}
	cs := md.CoSimulation
	if cs == nil || cs.ModelIdentifier != "Foreign" || !cs.CanHandleVariableCommunicationStepSize || cs.FixedInternalStepSize != 1e-3 || cs.HasEventMode {
		t.Errorf("CoSimulation = %+v", cs)
	}
	if len(md.Units) != 1 || md.Units[0].Base.M != 1 {
		t.Errorf("units = %+v", md.Units)
	}
	if len(md.Variables) != 5 {
		t.Fatalf("%d variables, want 5", len(md.Variables))
	}
	tm := md.Variables[0]
	if tm.Type != TypeFloat64 || tm.Variability != "" || tm.EffectiveVariability() != VariabilityContinuous || tm.Start != nil {
		t.Errorf("t = %+v", tm)
	}
	n := md.Variables[1]
	if n.Type != TypeUInt32 || n.ValueReference != math.MaxUint32 || !slices.Equal(n.Start, []float64{math.MaxUint32}) || n.EffectiveVariability() != VariabilityFixed {
		t.Errorf("n = %+v", n)
	}
	x := md.Variables[2]
	if x.Type != TypeFloat64 || x.Unit != "" || !slices.Equal(x.Start, []float64{1, 2.5, math.Inf(-1), 3}) ||
		!reflect.DeepEqual(x.Dimensions, []Dimension3{Fixed(4)}) || x.Derivative != nil {
		t.Errorf("x = %+v", x)
	}
	k := md.Variables[3]
	if k.Type != TypeInt64 || k.Min == nil || *k.Min != -(1<<53) || k.Start != nil {
		t.Errorf("k = %+v", k)
	}
	s := md.Variables[4]
	if !slices.Equal(s.StringStart, []string{"a", "b"}) || s.Start != nil {
		t.Errorf("s = %+v", s)
	}
	u := md.Structure.InitialUnknowns
	if len(md.Structure.Outputs) != 1 || len(u) != 1 || u[0].Dependencies == nil || len(u[0].Dependencies) != 0 || u[0].DependenciesKind == nil {
		t.Errorf("structure = %+v", md.Structure)
	}
	// The foreign file breaks a rule the schema cannot see: the scalar
	// String parameter has two start values. Check finds it.
	got := Violations(md.Check())
	if len(got) != 1 || got[0].Rule != RuleStart || !strings.Contains(got[0].Subject, `"s"`) {
		t.Errorf("Check of the foreign description = %v", got)
	}
}

func TestParse3Errors(t *testing.T) {
	valid := string(must(Representative3().Marshal()))
	tests := []parseErrorCase{
		{"not XML", "<fmiModelDescription", "parse model description"},
		{"wrong root", `<?xml version="1.0"?><modelDescription/>`, "root element is not fmiModelDescription"},
		{"FMI 2.0", strings.Replace(valid, `fmiVersion="3.0"`, `fmiVersion="2.0"`, 1), `fmiVersion "2.0" is not FMI 3.0`},
		{"pre-release", strings.Replace(valid, `fmiVersion="3.0"`, `fmiVersion="3.0-beta.4"`, 1), "is not FMI 3.0"},
		{"valueReference missing", strings.Replace(valid, `name="cable.EA" valueReference="2"`, `name="cable.EA"`, 1), `"cable.EA"`},
		{"valueReference too large", strings.Replace(valid, `valueReference="2"`, `valueReference="4294967296"`, 1), "valueReference"},
		{"bad boolean flag", strings.Replace(valid, `hasEventMode="false"`, `hasEventMode="no"`, 1), "hasEventMode"},
		{"bad Float64 start", strings.Replace(valid, `start="50"`, `start="fifty"`, 1), "start"},
		{"Go-only float", strings.Replace(valid, `start="50"`, `start="+Inf"`, 1), "start"},
		{"fractional Int32", strings.Replace(valid, `initial="exact" min="0" start="0"`, `initial="exact" min="0" start="0.5"`, 1), "Int32"},
		{"Int8 out of range", strings.Replace(valid, `<UInt64 name="cable.segments"`, `<Int8 name="cable.segments"`, 1), "Int8"},
		{"UInt64 beyond 2^53", strings.Replace(valid, `max="1000" start="20"`, `max="1000" start="9007199254740993"`, 1), "outside the UInt64 range"},
		{"bad Boolean start", strings.Replace(valid, `start="false"`, `start="no"`, 1), "start"},
		{"bad derivative", strings.Replace(valid, `derivative="8"`, `derivative="eight"`, 1), "derivative"},
		{"dimension start 0", strings.Replace(valid, `<Dimension start="3"/>`, `<Dimension start="0"/>`, 1), "must be positive"},
		{"dimension start negative", strings.Replace(valid, `<Dimension start="3"/>`, `<Dimension start="-3"/>`, 1), "dimension 2"},
		{"dimension bad valueReference", strings.Replace(valid, `<Dimension valueReference="3"/>`, `<Dimension valueReference="x"/>`, 1), "valueReference"},
		{"Clock variable", strings.Replace(valid, `<Boolean name="winch.brake" valueReference="7" causality="input" variability="discrete" start="false"/>`,
			`<Clock name="tick" valueReference="7" causality="input" intervalVariability="triggered"/>`, 1), "type Clock is not supported"},
		{"Enumeration variable", strings.Replace(valid, `<Boolean name="winch.brake"`, `<Enumeration declaredType="E" name="winch.brake"`, 1), "Enumeration"},
		{"unknown element", strings.Replace(valid, `<Boolean name="winch.brake"`, `<Real name="winch.brake"`, 1), "unknown variable element <Real>"},
		{"ClockedState", strings.Replace(valid, `<ContinuousStateDerivative valueReference="17"/>`, `<ClockedState valueReference="17"/>`, 1), "ClockedState"},
		{"unknown without valueReference", strings.Replace(valid, `<Output valueReference="9"/>`, `<Output/>`, 1), "ModelStructure/Output 2: missing valueReference"},
		{"bad dependency", strings.Replace(valid, `dependencies="6 8"`, `dependencies="6 x"`, 1), "dependencies"},
		{"bad exponent", strings.Replace(valid, `<BaseUnit kg="1"/>`, `<BaseUnit kg="one"/>`, 1), "kg"},
	}
	assertParseErrors(t, valid, tests, "Parse3", Parse3)
}

func vrs3(list []Unknown3) []uint32 {
	return keys(list, func(u Unknown3) uint32 { return u.ValueReference })
}

func TestDeriveStructure3(t *testing.T) {
	md := Representative3()
	md.Structure = ModelStructure3{EventIndicators: []Unknown3{{ValueReference: 14}}}
	md.DeriveStructure()
	// See the value reference comments in Representative3.
	if got, want := vrs3(md.Structure.Outputs), []uint32{8, 9, 10, 11, 12, 13}; !slices.Equal(got, want) {
		t.Errorf("Outputs = %v, want %v (every output, ModelVariables order)", got, want)
	}
	if got, want := vrs3(md.Structure.ContinuousStateDerivatives), []uint32{17}; !slices.Equal(got, want) {
		t.Errorf("ContinuousStateDerivatives = %v, want %v", got, want)
	}
	// Calculated parameter 5, outputs with initial calculated/approx (not
	// the exact 9), the state 8 (already an output) and its derivative 17;
	// never the independent variable 0.
	if got, want := vrs3(md.Structure.InitialUnknowns), []uint32{5, 8, 10, 11, 12, 13, 17}; !slices.Equal(got, want) {
		t.Errorf("InitialUnknowns = %v, want %v", got, want)
	}
	// An input declared the derivative of another input is no state
	// derivative.
	withInputDerivative := Representative3()
	withInputDerivative.Variables = append(withInputDerivative.Variables, Variable3{Name: "winch.acceleration", ValueReference: 40,
		Causality: CausalityInput, Type: TypeFloat64, Unit: "m/s2", Start: []float64{0}, Derivative: VR(6)})
	withInputDerivative.DeriveStructure()
	if got := vrs3(withInputDerivative.Structure.ContinuousStateDerivatives); !slices.Equal(got, []uint32{17}) {
		t.Errorf("ContinuousStateDerivatives with an input derivative = %v, want [17]", got)
	}
	if err := withInputDerivative.Check(); err != nil {
		t.Errorf("input derivative: %v", err)
	}
	if got := vrs3(md.Structure.EventIndicators); !slices.Equal(got, []uint32{14}) {
		t.Errorf("EventIndicators = %v, want them kept", got)
	}
	if err := md.Check(); err != nil {
		t.Errorf("derived structure fails Check: %v", err)
	}

	// Declared dependencies survive a second derivation; entries that
	// leave a list take theirs along.
	want := Representative3()
	got := Representative3()
	got.DeriveStructure()
	if !reflect.DeepEqual(want.Structure, got.Structure) {
		t.Errorf("DeriveStructure dropped dependencies:\nwant %+v\ngot  %+v", want.Structure, got.Structure)
	}
	p := v3(got, "cable.tension")
	p.Causality, p.Initial, p.Min = CausalityLocal, InitialUnset, nil
	p.Start = nil
	got.DeriveStructure()
	if slices.Contains(vrs3(got.Structure.Outputs), 10) || slices.Contains(vrs3(got.Structure.InitialUnknowns), 10) {
		t.Errorf("a former output stays listed: %+v", got.Structure)
	}

	// A state with initial approx is an initial unknown as well.
	st := v3(got, "hook.position")
	st.Causality, st.Initial, st.Start = CausalityLocal, InitialApprox, []float64{0}
	got.DeriveStructure()
	if !slices.Contains(vrs3(got.Structure.InitialUnknowns), 8) {
		t.Errorf("approx state missing from InitialUnknowns: %v", vrs3(got.Structure.InitialUnknowns))
	}
	st.Initial = InitialExact
	got.DeriveStructure()
	if slices.Contains(vrs3(got.Structure.InitialUnknowns), 8) {
		t.Errorf("exact state listed in InitialUnknowns: %v", vrs3(got.Structure.InitialUnknowns))
	}
}

func TestUnitNames3(t *testing.T) {
	got := Representative3().UnitNames()
	want := []string{"1", "N", "kg", "m", "m/s", "m/s2", "s"}
	if !slices.Equal(got, want) {
		t.Errorf("UnitNames = %v, want %v", got, want)
	}
}

func TestVariableLookup3(t *testing.T) {
	md := Representative3()
	if p, ok := md.VariableByValueReference(11); !ok || p.Name != "nodes.position" {
		t.Errorf("VariableByValueReference(11) = %v, %v", p, ok)
	}
	if _, ok := md.VariableByValueReference(99); ok {
		t.Error("VariableByValueReference(99) found a variable")
	}
	if _, ok := md.VariableByName("nope"); ok {
		t.Error(`VariableByName("nope") found a variable`)
	}
	p, _ := md.VariableByName("g")
	p.Description = "edited"
	if md.Variables[16].Description != "edited" {
		t.Error("VariableByName must return a pointer into Variables")
	}
}
