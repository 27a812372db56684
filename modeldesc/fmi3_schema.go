package modeldesc

// schemaFile3 is the FMI 3.0 entry schema relative to the schema folder; it
// includes its siblings (fmi3Variable.xsd, fmi3Unit.xsd, ...).
const schemaFile3 = "3.0/fmi3ModelDescription.xsd"

// ValidateWithSchema3 validates the file at xmlPath against the FMI 3.0
// modelDescription schema found in schemaDir (the folder holding 3.0/, as
// returned by SchemaDir) using xmllint. Errors are as for
// ValidateWithSchema: xmllint's diagnostics, or a wrapped ErrNoXmllint or
// ErrNoSchema when a prerequisite is missing.
func ValidateWithSchema3(xmlPath, schemaDir string) error {
	xsd, err := SchemaFile3(schemaDir)
	if err != nil {
		return err
	}
	return xmllintValidate(xmlPath, xsd)
}

// SchemaFile3 returns the path of the FMI 3.0 entry schema in schemaDir, or
// an error wrapping ErrNoSchema when it is missing.
func SchemaFile3(schemaDir string) (string, error) {
	return schemaPath(schemaDir, schemaFile3)
}
