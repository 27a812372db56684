package modeldesc

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/beevik/etree"
)

// Marshal renders md as an indented modelDescription.xml with an UTF-8 XML
// declaration. It does not run Check, so deliberately broken descriptions
// can still be written (e.g. to test importers); it fails only on values
// the XML cannot represent, such as a unit on a non-Real variable.
// Elements whose schema type demands at least one child (UnitDefinitions,
// LogCategories, Outputs, Derivatives, InitialUnknowns) are left out when
// empty, because an empty container is invalid.
func (md *ModelDescription) Marshal() ([]byte, error) {
	doc, root := newDocument(md.FMIVersion)
	cm := md.common()
	cm.writeHeader(root)
	if md.NumberOfEventIndicators != 0 {
		root.CreateAttr("numberOfEventIndicators", strconv.Itoa(md.NumberOfEventIndicators))
	}

	if cs := md.CoSimulation; cs != nil {
		writeCoSimulation(root.CreateElement("CoSimulation"), cs)
	}
	cm.writeElements(root)

	vars := root.CreateElement("ModelVariables")
	if err := writeVariables(md.Variables, func(v *Variable) error {
		return writeVariable(vars.CreateElement("ScalarVariable"), v)
	}); err != nil {
		return nil, err
	}

	ms := root.CreateElement("ModelStructure")
	writeUnknowns(ms, "Outputs", md.Structure.Outputs)
	writeUnknowns(ms, "Derivatives", md.Structure.Derivatives)
	writeUnknowns(ms, "InitialUnknowns", md.Structure.InitialUnknowns)

	b, err := indented(doc)
	if err != nil {
		return nil, err
	}
	// A final newline keeps the file friendly to text tools and diffs.
	return append(b, '\n'), nil
}

// newDocument starts a modelDescription.xml: the UTF-8 XML declaration and
// the fmiModelDescription root with its fmiVersion.
func newDocument(fmiVersion string) (*etree.Document, *etree.Element) {
	doc := etree.NewDocument()
	// Canonical attribute escaping writes tab, CR and LF as character
	// references, so descriptions with line breaks survive a round trip
	// instead of being normalized to spaces by the reader.
	doc.WriteSettings.CanonicalAttrVal = true
	doc.CreateProcInst("xml", `version="1.0" encoding="UTF-8"`)
	root := doc.CreateElement("fmiModelDescription")
	root.CreateAttr("fmiVersion", fmiVersion)
	return doc, root
}

// writeHeader writes the root attributes both versions share, from
// modelName to variableNamingConvention.
func (cm common) writeHeader(root *etree.Element) {
	root.CreateAttr("modelName", *cm.modelName)
	root.CreateAttr(cm.tokenAttr, *cm.token)
	optAttr(root, "description", *cm.description)
	optAttr(root, "author", *cm.author)
	optAttr(root, "version", *cm.version)
	optAttr(root, "generationTool", *cm.generationTool)
	optAttr(root, "generationDateAndTime", *cm.generationDateAndTime)
	optAttr(root, "variableNamingConvention", *cm.variableNamingConvention)
}

// writeElements writes UnitDefinitions, LogCategories and
// DefaultExperiment. The two containers are left out when empty because
// the schemas demand at least one child.
func (cm common) writeElements(root *etree.Element) {
	if len(*cm.units) > 0 {
		defs := root.CreateElement("UnitDefinitions")
		for _, u := range *cm.units {
			writeUnit(defs.CreateElement("Unit"), u)
		}
	}
	if len(*cm.logCategories) > 0 {
		cats := root.CreateElement("LogCategories")
		for _, c := range *cm.logCategories {
			el := cats.CreateElement("Category")
			el.CreateAttr("name", c.Name)
			optAttr(el, "description", c.Description)
		}
	}
	if de := *cm.defaultExperiment; de != nil {
		el := root.CreateElement("DefaultExperiment")
		el.CreateAttr("startTime", FormatReal(de.StartTime))
		optReal(el, "stopTime", de.StopTime)
		optReal(el, "tolerance", de.Tolerance)
		optReal(el, "stepSize", de.StepSize)
	}
}

// writeVariables writes each variable with write and joins the errors,
// naming each failing variable by position and name.
func writeVariables[V any, P interface {
	*V
	common() commonVar
}](vars []V, write func(P) error) error {
	var errs []error
	for i := range vars {
		v := P(&vars[i])
		if err := write(v); err != nil {
			errs = append(errs, fmt.Errorf("variable %d (%q): %w", i+1, *v.common().name, err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("marshal model description: %w", err)
	}
	return nil
}

// write writes the attributes every variable has, in the schemas' order.
func (cv commonVar) write(el *etree.Element) {
	el.CreateAttr("name", *cv.name)
	el.CreateAttr("valueReference", strconv.FormatUint(uint64(*cv.valueReference), 10))
	optAttr(el, "description", *cv.description)
	optAttr(el, "causality", string(*cv.causality))
	optAttr(el, "variability", string(*cv.variability))
	optAttr(el, "initial", string(*cv.initial))
}

// writeBounds writes the min and max attributes that are set, in the form
// format gives them.
func writeBounds(el *etree.Element, minV, maxV *float64, format func(float64) (string, error)) error {
	for _, b := range []struct {
		key string
		val *float64
	}{{"min", minV}, {"max", maxV}} {
		if b.val == nil {
			continue
		}
		s, err := format(*b.val)
		if err != nil {
			return fmt.Errorf("%s: %w", b.key, err)
		}
		el.CreateAttr(b.key, s)
	}
	return nil
}

// indented renders doc with two-space indentation.
func indented(doc *etree.Document) ([]byte, error) {
	doc.Indent(2)
	b, err := doc.WriteToBytes()
	if err != nil {
		return nil, fmt.Errorf("marshal model description: %w", err)
	}
	return b, nil
}

// writeDependencies writes the dependencies and dependenciesKind attributes
// of an unknown; nil omits an attribute, empty writes it empty.
func writeDependencies[D int | uint32](el *etree.Element, deps []D, kinds []string) {
	if deps != nil {
		parts := make([]string, len(deps))
		for i, d := range deps {
			parts[i] = strconv.FormatInt(int64(d), 10)
		}
		el.CreateAttr("dependencies", strings.Join(parts, " "))
	}
	if kinds != nil {
		el.CreateAttr("dependenciesKind", strings.Join(kinds, " "))
	}
}

func optAttr(el *etree.Element, key, val string) {
	if val != "" {
		el.CreateAttr(key, val)
	}
}

func optReal(el *etree.Element, key string, val float64) {
	if val != 0 {
		el.CreateAttr(key, FormatReal(val))
	}
}

// writeCoSimulation writes every flag explicitly so the file documents the
// FMU's capabilities without the reader having to know the defaults.
func writeCoSimulation(el *etree.Element, cs *CoSimulation) {
	el.CreateAttr("modelIdentifier", cs.ModelIdentifier)
	flag := func(key string, v bool) { el.CreateAttr(key, strconv.FormatBool(v)) }
	flag("needsExecutionTool", cs.NeedsExecutionTool)
	flag("canHandleVariableCommunicationStepSize", cs.CanHandleVariableCommunicationStepSize)
	flag("canInterpolateInputs", cs.CanInterpolateInputs)
	el.CreateAttr("maxOutputDerivativeOrder", strconv.Itoa(cs.MaxOutputDerivativeOrder))
	flag("canRunAsynchronuously", cs.CanRunAsynchronuously)
	flag("canBeInstantiatedOnlyOncePerProcess", cs.CanBeInstantiatedOnlyOncePerProcess)
	flag("canNotUseMemoryManagementFunctions", cs.CanNotUseMemoryManagementFunctions)
	flag("canGetAndSetFMUstate", cs.CanGetAndSetFMUstate)
	flag("canSerializeFMUstate", cs.CanSerializeFMUstate)
	flag("providesDirectionalDerivative", cs.ProvidesDirectionalDerivative)
}

func writeUnit(el *etree.Element, u Unit) {
	el.CreateAttr("name", u.Name)
	if u.NoBase {
		writeDisplayUnits(el, u)
		return
	}
	base := el.CreateElement("BaseUnit")
	exp := func(key string, v int) {
		if v != 0 {
			base.CreateAttr(key, strconv.Itoa(v))
		}
	}
	exp("kg", u.Base.Kg)
	exp("m", u.Base.M)
	exp("s", u.Base.S)
	exp("A", u.Base.A)
	exp("K", u.Base.K)
	exp("mol", u.Base.Mol)
	exp("cd", u.Base.Cd)
	exp("rad", u.Base.Rad)
	optReal(base, "factor", u.Base.Factor)
	optReal(base, "offset", u.Base.Offset)
	writeDisplayUnits(el, u)
}

// writeDisplayUnits writes a unit's DisplayUnit elements (after its
// BaseUnit, as both standards' schemas order them).
func writeDisplayUnits(el *etree.Element, u Unit) {
	for _, d := range u.Display {
		de := el.CreateElement("DisplayUnit")
		de.CreateAttr("name", d.Name)
		optReal(de, "factor", d.Factor)
		optReal(de, "offset", d.Offset)
	}
}

func writeVariable(el *etree.Element, v *Variable) error {
	v.common().write(el)

	switch v.Type {
	case TypeReal, TypeInteger, TypeBoolean, TypeString:
	default:
		return fmt.Errorf("unsupported type %q", v.Type)
	}
	var errs []error
	if v.Type != TypeReal {
		if v.Unit != "" || v.DisplayUnit != "" {
			errs = append(errs, fmt.Errorf("unit %q, display unit %q on a %s variable: only Real has units", v.Unit, v.DisplayUnit, v.Type))
		}
		if v.Derivative != 0 {
			errs = append(errs, fmt.Errorf("derivative on a %s variable: only Real has derivatives", v.Type))
		}
	}
	if v.Quantity != "" && v.Type != TypeReal && v.Type != TypeInteger {
		errs = append(errs, fmt.Errorf("quantity %q on a %s variable: only Real and Integer have a quantity", v.Quantity, v.Type))
	}
	if (v.Min != nil || v.Max != nil) && v.Type != TypeReal && v.Type != TypeInteger {
		errs = append(errs, fmt.Errorf("min/max on a %s variable: only Real and Integer have bounds", v.Type))
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}

	t := el.CreateElement(string(v.Type))
	// Attribute order follows the schema's declaration order.
	optAttr(t, "quantity", v.Quantity)
	optAttr(t, "unit", v.Unit)
	optAttr(t, "displayUnit", v.DisplayUnit)
	if err := writeBounds(t, v.Min, v.Max, func(x float64) (string, error) { return formatBound(v.Type, x) }); err != nil {
		return err
	}
	optAttr(t, "start", v.Start)
	if v.Derivative != 0 {
		t.CreateAttr("derivative", strconv.Itoa(v.Derivative))
	}
	return nil
}

// formatBound writes Integer bounds as integers because the schema types
// them xs:int, where "1e3" or "2.0" would be invalid.
func formatBound(t Type, v float64) (string, error) {
	if t != TypeInteger {
		return FormatReal(v), nil
	}
	if v != math.Trunc(v) || v < math.MinInt32 || v > math.MaxInt32 {
		return "", fmt.Errorf("%v is not a 32-bit integer", v)
	}
	return strconv.FormatInt(int64(v), 10), nil
}

func writeUnknowns(parent *etree.Element, tag string, list []Unknown) {
	if len(list) == 0 {
		return
	}
	el := parent.CreateElement(tag)
	for _, u := range list {
		ue := el.CreateElement("Unknown")
		ue.CreateAttr("index", strconv.Itoa(u.Index))
		writeDependencies(ue, u.Dependencies, u.DependenciesKind)
	}
}
