// Package modeldesc models the FMI 2.0 and FMI 3.0 modelDescription.xml of a
// Co-Simulation FMU: it writes it (Marshal), reads it back (Parse, Parse3),
// derives the ModelStructure from the variables (DeriveStructure) and checks
// the rules of the standard that the XML schema cannot express (Check).
//
// The FMI 2.0 model covers what the cable simulator exports: scalar Real,
// Integer, Boolean and String variables, SI unit definitions, log
// categories, a default experiment and the ModelStructure lists.
// Enumerations, type definitions, display units and Model Exchange are not
// modelled.
//
// Attributes that the standard gives a default for (causality, variability,
// initial) are kept as written: an empty value means "attribute omitted", and
// the Effective* methods apply the standard's defaults. This keeps
// Marshal/Parse an exact round trip while Check and DeriveStructure still
// reason with the values an importer would see.
//
// FMI 3.0 descriptions have their own types (ModelDescription3, Variable3,
// CoSimulation3, ModelStructure3) with the same operations: Marshal,
// Parse3, DeriveStructure and Check, which shares Rule, Violation and
// Violations with FMI 2.0. They add arrays (Dimension3), structural
// parameters, more numeric types, value references unique across all
// types, ModelStructure entries named by value reference, and the
// independent variable FMI 3.0 requires (IndependentTime).
//
// Schema validation with xmllint against the official XSD files is offered
// by ValidateWithSchema (FMI 2.0), ValidateWithSchema3 (FMI 3.0) and
// SchemaDir so that tests of other packages can validate the descriptions
// they generate; the subpackage schematest wraps them with the skip-or-fail
// policy tests should use (Validate, Validate3).
package modeldesc
