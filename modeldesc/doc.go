// Package modeldesc models the FMI 2.0 modelDescription.xml of a
// Co-Simulation FMU: it writes it (Marshal), reads it back (Parse), derives
// the ModelStructure from the variables (DeriveStructure) and checks the rules
// of the FMI 2.0 standard that the XML schema cannot express (Check).
//
// The model covers what the cable simulator exports: scalar Real, Integer,
// Boolean and String variables, SI unit definitions, log categories, a
// default experiment and the ModelStructure lists. Enumerations, type
// definitions, display units and Model Exchange are not modelled.
//
// Attributes that the standard gives a default for (causality, variability,
// initial) are kept as written: an empty value means "attribute omitted", and
// the Effective* methods apply the standard's defaults. This keeps
// Marshal/Parse an exact round trip while Check and DeriveStructure still
// reason with the values an importer would see.
//
// Schema validation with xmllint against the official XSD files is offered
// by ValidateWithSchema and SchemaDir so that tests of other packages can
// validate the descriptions they generate; the subpackage schematest wraps
// them with the skip-or-fail policy tests should use.
package modeldesc
