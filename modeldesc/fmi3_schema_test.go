package modeldesc_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/modeldesc"
	"github.com/cablefmu/cablefmu/modeldesc/schematest"
)

func TestSchema3AcceptsMarshalOutput(t *testing.T) {
	schematest.Require3(t)
	minimal := &modeldesc.ModelDescription3{
		ModelName:          "Minimal",
		InstantiationToken: "{0}",
		CoSimulation:       &modeldesc.CoSimulation3{ModelIdentifier: "Minimal"},
		Variables:          []modeldesc.Variable3{modeldesc.IndependentTime(0)},
	}
	minimal.Units, _ = modeldesc.SIUnits(minimal.UnitNames()...)
	minimal.DeriveStructure() // all lists empty: ModelStructure stays, empty
	assertSchemaAccepts(t, map[string]*modeldesc.ModelDescription3{
		"representative": modeldesc.Representative3(),
		"minimal":        minimal,
	}, schematest.Validate3)
}

// TestSchema3RejectsBrokenDescriptions proves the FMI 3.0 validation is not
// vacuous: documents the schema forbids must fail, and the representative
// one, checked first, must pass.
func TestSchema3RejectsBrokenDescriptions(t *testing.T) {
	dir := schematest.Require3(t)
	data, err := modeldesc.Representative3().Marshal()
	if err != nil {
		t.Fatal(err)
	}
	valid := string(data)
	if err := modeldesc.ValidateWithSchema3(writeTemp(t, data), dir); err != nil {
		t.Fatalf("the unbroken description must validate: %v", err)
	}
	// why is part of xmllint's diagnostic, so a case cannot pass because
	// of some other, accidental error.
	tests := []struct{ name, from, to, why string }{
		{"guid instead of instantiationToken", `instantiationToken=`, `guid=`, "'instantiationToken' is required"},
		{"FMI 2.0 version", `fmiVersion="3.0"`, `fmiVersion="2.0"`, "'fmiVersion'"},
		{"FMI 2.0 ScalarVariable", `<Float64 name="g" valueReference="16" causality="local" variability="constant" unit="m/s2" start="9.81"/>`,
			`<ScalarVariable name="g" valueReference="16"><Real start="9.81"/></ScalarVariable>`, "'ScalarVariable': This element is not expected"},
		{"variable without valueReference", `name="cable.EA" valueReference="2"`, `name="cable.EA"`, "'valueReference' is required"},
		{"unknown causality", `causality="input"`, `causality="inlet"`, "'inlet'"},
		{"array start not all doubles", `start="0 0 0 0 0 -2.5`, `start="0 0 zero 0 0 -2.5`, "'zero' is not a valid value of the atomic type 'xs:double'"},
		{"Dimension size not an integer", `<Dimension start="21"/>`, `<Dimension start="21.5"/>`, "'xs:unsignedLong'"},
		{"Int32 start not an int", `initial="exact" min="0" start="0"`, `initial="exact" min="0" start="0.5"`, "'xs:int'"},
		{"Boolean start not a boolean", `start="false"`, `start="no"`, "'xs:boolean'"},
		{"Output after InitialUnknown", `<Output valueReference="8"/>`, ``, "'Output': This element is not expected"},
		{"FMI 2.0 ModelStructure", `<Output valueReference="8"/>`, `<Outputs><Unknown index="9"/></Outputs>`, "'Outputs': This element is not expected"},
		{"unknown dependenciesKind", `dependenciesKind="dependent fixed"`, `dependenciesKind="dependent linear"`, "'linear'"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			broken := strings.Replace(valid, tc.from, tc.to, 1)
			if broken == valid {
				t.Fatalf("test text %q not found in the marshalled description", tc.from)
			}
			if tc.name == "Output after InitialUnknown" {
				broken = strings.Replace(broken, `<InitialUnknown valueReference="17"/>`,
					`<InitialUnknown valueReference="17"/>`+"\n    "+`<Output valueReference="8"/>`, 1)
			}
			err := validateBroken(t, broken, dir, modeldesc.ValidateWithSchema3)
			if !strings.Contains(err.Error(), tc.why) {
				t.Fatalf("xmllint rejected the document, but not for %s:\n%v", tc.why, err)
			}
		})
	}
}

// TestSchemaVersionsDiffer makes sure each version validates against its
// own schema: an FMI 2.0 description fails the FMI 3.0 schema and vice
// versa.
func TestSchemaVersionsDiffer(t *testing.T) {
	dir := schematest.Require3(t)
	md2, err := modeldesc.Representative().Marshal()
	if err != nil {
		t.Fatal(err)
	}
	md3, err := modeldesc.Representative3().Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if err := modeldesc.ValidateWithSchema3(writeTemp(t, md2), dir); err == nil {
		t.Error("the FMI 3.0 schema accepted an FMI 2.0 description")
	}
	if err := modeldesc.ValidateWithSchema(writeTemp(t, md3), dir); err == nil {
		t.Error("the FMI 2.0 schema accepted an FMI 3.0 description")
	}
}

func TestSchema3Missing(t *testing.T) {
	empty := t.TempDir()
	if _, err := modeldesc.SchemaFile3(empty); !errors.Is(err, modeldesc.ErrNoSchema) {
		t.Errorf("SchemaFile3 of an empty folder: err = %v, want ErrNoSchema", err)
	}
	if err := modeldesc.ValidateWithSchema3("x.xml", empty); !errors.Is(err, modeldesc.ErrNoSchema) {
		t.Errorf("ValidateWithSchema3 without schema: err = %v, want ErrNoSchema", err)
	}
	// A folder with only the FMI 2.0 schema has no FMI 3.0 schema.
	only2 := t.TempDir()
	if err := os.MkdirAll(filepath.Join(only2, "2.0"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(only2, "2.0", "fmi2ModelDescription.xsd"), []byte("<x/>"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := modeldesc.ValidateWithSchema3("x.xml", only2); !errors.Is(err, modeldesc.ErrNoSchema) {
		t.Errorf("ValidateWithSchema3 with only 2.0/: err = %v, want ErrNoSchema", err)
	}
}
