package modeldesc

import (
	"math"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	md := Representative()
	// Text that needs escaping, including line breaks XML readers would
	// normalize away if written literally.
	md.Description = "Cable <EA> & \"damping\" 'test'\nsecond line\ttab ü"
	v(md, "solver.message").Description = "multi\r\nline"
	v(md, "cable.EA").Start = FormatReal(0.1 + 0.2) // 0.30000000000000004
	v(md, "cable.damping").Min = Float(-math.MaxFloat64)
	md.Units = append(md.Units, Unit{Name: "degC", Base: BaseUnit{K: 1, Factor: 1, Offset: 273.15}})
	md.DefaultExperiment.Tolerance = 1e-6
	md.NumberOfEventIndicators = 2

	assertRoundTrip(t, md, "Parse", Parse)
}

func TestRoundTripMinimal(t *testing.T) {
	md := &ModelDescription{
		FMIVersion:   FMIVersion2,
		ModelName:    "m",
		GUID:         "g",
		CoSimulation: &CoSimulation{ModelIdentifier: "m"},
		Variables:    []Variable{{Name: "y", Type: TypeReal, Causality: CausalityOutput}},
	}
	md.DeriveStructure()
	data, err := md.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(md, back) {
		t.Errorf("round trip changed the description\nwant %+v\ngot  %+v", md, back)
	}
	for _, absent := range []string{"UnitDefinitions", "LogCategories", "DefaultExperiment", "<Derivatives", "dependencies", "description="} {
		if strings.Contains(string(data), absent) {
			t.Errorf("minimal description should omit %s:\n%s", absent, data)
		}
	}
}

func TestMarshalLayout(t *testing.T) {
	md := Representative()
	md.LogCategories = nil
	data, err := md.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	if !strings.HasPrefix(s, `<?xml version="1.0" encoding="UTF-8"?>`+"\n<fmiModelDescription fmiVersion=\"2.0\" modelName=\"HoistingCable\" guid=") {
		t.Errorf("unexpected header:\n%s", s[:min(len(s), 200)])
	}
	// Element order required by the schema.
	last := -1
	for _, el := range []string{"<CoSimulation ", "<UnitDefinitions>", "<DefaultExperiment ", "<ModelVariables>", "<ModelStructure>", "<Outputs>", "<Derivatives>", "<InitialUnknowns>"} {
		i := strings.Index(s, el)
		if i < 0 {
			t.Errorf("missing %s", el)
			continue
		}
		if i < last {
			t.Errorf("%s out of order", el)
		}
		last = i
	}
	if strings.Contains(s, "LogCategories") {
		t.Error("empty LogCategories must be omitted (the schema needs at least one Category)")
	}
	for _, want := range []string{
		`<ScalarVariable name="cable.length" valueReference="1" description="Unstretched length" causality="parameter" variability="fixed">`,
		`<Real unit="m" min="0" start="50"/>`,
		`<ScalarVariable name="cable.linearDensity" valueReference="2" causality="parameter" variability="fixed" initial="exact">`,
		`<Integer min="1" max="1000" start="20"/>`,
		`<Boolean start="false"/>`,
		`<Real unit="m/s" derivative="11"/>`,
		`<DefaultExperiment startTime="0" stopTime="20" stepSize="0.001"/>`,
		`canHandleVariableCommunicationStepSize="true" canInterpolateInputs="false" maxOutputDerivativeOrder="0"`,
		`<Unit name="N.s/m">` + "\n" + `      <BaseUnit kg="1" s="-1"/>`,
		`<Unknown index="13" dependencies="9 11" dependenciesKind="dependent fixed"/>`,
		`<Unknown index="14" dependencies=""/>`,
		`<Unknown index="11"/>`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %s\n%s", want, s)
		}
	}
	// Two-space indentation, one element per line.
	if !regexp.MustCompile(`\n  <ModelVariables>\n    <ScalarVariable `).MatchString(s) {
		t.Error("output is not indented by two spaces per level")
	}
}

func TestMarshalDefaultExperimentAlwaysHasStartTime(t *testing.T) {
	md := Representative()
	md.DefaultExperiment = &DefaultExperiment{}
	data, err := md.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `<DefaultExperiment startTime="0"/>`) {
		t.Errorf("want bare startTime, got:\n%s", data)
	}
}

func TestMarshalRejectsUnrepresentable(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(md *ModelDescription)
		want   string
	}{
		{"unknown type", func(md *ModelDescription) { v(md, "cable.segments").Type = "Enumeration" }, `unsupported type "Enumeration"`},
		{"unit on Boolean", func(md *ModelDescription) { v(md, "winch.brake").Unit = "m" }, "only Real has units"},
		{"derivative on Integer", func(md *ModelDescription) { v(md, "cable.segments").Derivative = 2 }, "only Real has derivatives"},
		{"bounds on String", func(md *ModelDescription) { v(md, "solver.message").Min = Float(0) }, "only Real and Integer have bounds"},
		{"fractional Integer bound", func(md *ModelDescription) { v(md, "cable.segments").Max = Float(10.5) }, "not a 32-bit integer"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			md := Representative()
			tc.mutate(md)
			_, err := md.Marshal()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Marshal error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestFormatRealRoundTrips(t *testing.T) {
	for _, x := range []float64{0, 0.1, 1.0 / 3, -2.5e-300, 5e-324, math.MaxFloat64, 1e21, 123456789012345678, math.Inf(1), math.Inf(-1)} {
		s := FormatReal(x)
		if !isXSDouble(s) {
			t.Errorf("FormatReal(%v) = %q is not an xs:double", x, s)
		}
		y, err := parseDouble(s)
		if err != nil || math.Float64bits(x) != math.Float64bits(y) {
			t.Errorf("FormatReal(%v) = %q parses back to %v (%v)", x, s, y, err)
		}
	}
	if s := FormatReal(math.NaN()); s != "NaN" {
		t.Errorf("FormatReal(NaN) = %q", s)
	}
}
