package modeldesc

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// SchemaEnv names the environment variable that points at the folder holding
// the official FMI schemas (with subfolders 2.0/ and 3.0/).
const SchemaEnv = "CABLEFMU_FMI_SCHEMA"

// Sentinel errors for the validation prerequisites, so tests can tell "the
// tool is missing here" from "the description is invalid".
var (
	ErrNoSchema  = errors.New("FMI schema folder not found")
	ErrNoXmllint = errors.New("xmllint not found in PATH")
)

// schemaFile is the FMI 2.0 entry schema relative to the schema folder.
const schemaFile = "2.0/fmi2ModelDescription.xsd"

// SchemaDir locates the folder holding the FMI schemas: $CABLEFMU_FMI_SCHEMA
// if set, otherwise ../shared/fmi/schema relative to the repository root,
// found by walking up from the working directory to go.mod. The schemas are
// not part of the repository, so a clone may lack them; the error then wraps
// ErrNoSchema.
func SchemaDir() (string, error) {
	if dir := os.Getenv(SchemaEnv); dir != "" {
		if err := hasSchema(dir); err != nil {
			return "", fmt.Errorf("%s=%s: %w", SchemaEnv, dir, err)
		}
		return dir, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("locate FMI schema: %w", err)
	}
	root, err := moduleRoot(wd)
	if err != nil {
		return "", fmt.Errorf("locate FMI schema: %w", err)
	}
	dir := filepath.Join(root, "..", "shared", "fmi", "schema")
	if err := hasSchema(dir); err != nil {
		return "", fmt.Errorf("locate FMI schema (set %s to override): %w", SchemaEnv, err)
	}
	return filepath.Clean(dir), nil
}

func hasSchema(dir string) error {
	_, err := schemaPath(dir, schemaFile)
	return err
}

// schemaPath returns the path of the entry schema file (schemaFile or
// schemaFile3) in dir, or an error wrapping ErrNoSchema when it is missing.
func schemaPath(dir, file string) (string, error) {
	p := filepath.Join(dir, filepath.FromSlash(file))
	if _, err := os.Stat(p); err != nil {
		return "", fmt.Errorf("%w: %v", ErrNoSchema, err)
	}
	return p, nil
}

func moduleRoot(dir string) (string, error) {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("%w: no go.mod above %s", ErrNoSchema, dir)
		}
		d = parent
	}
}

// ValidateWithSchema validates the file at xmlPath against the FMI 2.0
// modelDescription schema found in schemaDir (the folder holding 2.0/) using
// xmllint. The returned error carries xmllint's diagnostics; it wraps
// ErrNoXmllint or ErrNoSchema when a prerequisite is missing.
func ValidateWithSchema(xmlPath, schemaDir string) error {
	xsd, err := schemaPath(schemaDir, schemaFile)
	if err != nil {
		return err
	}
	return xmllintValidate(xmlPath, xsd)
}

// xmllintValidate validates the file at xmlPath against the schema xsd.
func xmllintValidate(xmlPath, xsd string) error {
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNoXmllint, err)
	}
	out, err := exec.Command(xmllint, "--noout", "--nonet", "--schema", xsd, xmlPath).CombinedOutput()
	if err != nil {
		return fmt.Errorf("xmllint rejects %s: %w\n%s", xmlPath, err, strings.TrimSpace(string(out)))
	}
	return nil
}
