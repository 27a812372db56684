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

func writeTemp(t *testing.T, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "modelDescription.xml")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSchemaAcceptsMarshalOutput(t *testing.T) {
	schematest.Require(t)
	minimal := &modeldesc.ModelDescription{
		FMIVersion:   modeldesc.FMIVersion2,
		ModelName:    "Minimal",
		GUID:         "{0}",
		CoSimulation: &modeldesc.CoSimulation{ModelIdentifier: "Minimal"},
		Variables: []modeldesc.Variable{{
			Name: "k", Type: modeldesc.TypeReal, Causality: modeldesc.CausalityParameter,
			Variability: modeldesc.VariabilityFixed, Start: "1",
		}},
	}
	minimal.DeriveStructure() // all lists empty: containers must be left out
	assertSchemaAccepts(t, map[string]*modeldesc.ModelDescription{
		"representative": modeldesc.Representative(),
		"minimal":        minimal,
	}, schematest.Validate)
}

// assertSchemaAccepts requires each description to pass Check and its
// marshalled form to pass validate.
func assertSchemaAccepts[M interface {
	Check() error
	Marshal() ([]byte, error)
}](t *testing.T, mds map[string]M, validate func(testing.TB, string)) {
	t.Helper()
	for name, md := range mds {
		t.Run(name, func(t *testing.T) {
			if err := md.Check(); err != nil {
				t.Fatalf("Check: %v", err)
			}
			data, err := md.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			validate(t, writeTemp(t, data))
		})
	}
}

// validateBroken validates broken with validate and requires a rejection
// by xmllint itself, not a missing prerequisite; it returns the error.
func validateBroken(t *testing.T, broken string, dir string, validate func(string, string) error) error {
	t.Helper()
	err := validate(writeTemp(t, []byte(broken)), dir)
	if err == nil {
		t.Fatal("xmllint accepted a broken description")
	}
	if errors.Is(err, modeldesc.ErrNoXmllint) || errors.Is(err, modeldesc.ErrNoSchema) {
		t.Fatalf("validation did not run: %v", err)
	}
	return err
}

// TestSchemaRejectsBrokenDescriptions proves the validation is not
// vacuous: documents the schema forbids must fail.
func TestSchemaRejectsBrokenDescriptions(t *testing.T) {
	dir := schematest.Require(t)
	data, err := modeldesc.Representative().Marshal()
	if err != nil {
		t.Fatal(err)
	}
	valid := string(data)
	tests := []struct{ name, from, to string }{
		{"ScalarVariable without valueReference", `name="cable.EA" valueReference="3"`, `name="cable.EA"`},
		{"empty Outputs container", `<ModelStructure>`, `<ModelStructure><Outputs/>`},
		{"unknown causality", `causality="input"`, `causality="inlet"`},
		{"Integer start not an int", `<Integer min="1" max="1000" start="20"/>`, `<Integer start="20.5"/>`},
		{"wrong fmiVersion", `fmiVersion="2.0"`, `fmiVersion="2.0.4"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			broken := strings.Replace(valid, tc.from, tc.to, 1)
			if broken == valid {
				t.Fatalf("test text %q not found in the marshalled description", tc.from)
			}
			validateBroken(t, broken, dir, modeldesc.ValidateWithSchema)
		})
	}
}

func TestSchemaDirEnvOverride(t *testing.T) {
	t.Setenv(modeldesc.SchemaEnv, t.TempDir())
	if _, err := modeldesc.SchemaDir(); !errors.Is(err, modeldesc.ErrNoSchema) {
		t.Errorf("SchemaDir with an empty override folder: err = %v, want ErrNoSchema", err)
	}
	if err := modeldesc.ValidateWithSchema("x.xml", t.TempDir()); !errors.Is(err, modeldesc.ErrNoSchema) {
		t.Errorf("ValidateWithSchema without schema: err = %v, want ErrNoSchema", err)
	}
}
