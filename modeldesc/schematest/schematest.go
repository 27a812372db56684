// Package schematest applies the project's policy for schema validation in
// tests: validate with xmllint against the official FMI schemas when they
// are available, fail when CI=true but they are missing (CI must provide
// them), and skip otherwise (a developer's clone may lack them; the rule
// checks of modeldesc.Check run regardless).
package schematest

import (
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/cablefmu/cablefmu/modeldesc"
)

// Require returns the schema folder, or skips the test (fails it under
// CI=true) when the schemas or xmllint are missing.
func Require(tb testing.TB) string {
	tb.Helper()
	dir, err := modeldesc.SchemaDir()
	if err == nil {
		if _, lerr := exec.LookPath("xmllint"); lerr != nil {
			err = fmt.Errorf("%w: %v", modeldesc.ErrNoXmllint, lerr)
		}
	}
	if err != nil {
		unavailable(tb, err, "skipping schema validation: %v (install xmllint and the FMI schemas, or set %s; Check() rules still ran)",
			err, modeldesc.SchemaEnv)
	}
	return dir
}

// unavailable fails the test under CI=true because of err, and otherwise
// skips it with the message skipFormat and args.
func unavailable(tb testing.TB, err error, skipFormat string, args ...any) {
	tb.Helper()
	if os.Getenv("CI") == "true" {
		tb.Fatalf("schema validation is mandatory in CI: %v", err)
	}
	tb.Skipf(skipFormat, args...)
}

// Validate validates the modelDescription.xml at xmlPath, applying the
// policy of Require.
func Validate(tb testing.TB, xmlPath string) {
	tb.Helper()
	dir := Require(tb)
	if err := modeldesc.ValidateWithSchema(xmlPath, dir); err != nil {
		tb.Fatalf("schema validation: %v", err)
	}
}

// Require3 is Require for the FMI 3.0 schema: it returns the schema folder,
// or skips the test (fails it under CI=true) when the FMI 3.0 schema or
// xmllint is missing.
func Require3(tb testing.TB) string {
	tb.Helper()
	dir := Require(tb)
	if _, err := modeldesc.SchemaFile3(dir); err != nil {
		unavailable(tb, err, "skipping FMI 3.0 schema validation: %v (install the FMI 3.0 schemas under %s/3.0, or set %s)",
			err, dir, modeldesc.SchemaEnv)
	}
	return dir
}

// Validate3 validates the FMI 3.0 modelDescription.xml at xmlPath,
// applying the policy of Require3.
func Validate3(tb testing.TB, xmlPath string) {
	tb.Helper()
	dir := Require3(tb)
	if err := modeldesc.ValidateWithSchema3(xmlPath, dir); err != nil {
		tb.Fatalf("FMI 3.0 schema validation: %v", err)
	}
}
