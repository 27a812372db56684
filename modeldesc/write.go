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
	doc := etree.NewDocument()
	// Canonical attribute escaping writes tab, CR and LF as character
	// references, so descriptions with line breaks survive a round trip
	// instead of being normalized to spaces by the reader.
	doc.WriteSettings.CanonicalAttrVal = true
	doc.CreateProcInst("xml", `version="1.0" encoding="UTF-8"`)

	root := doc.CreateElement("fmiModelDescription")
	root.CreateAttr("fmiVersion", md.FMIVersion)
	root.CreateAttr("modelName", md.ModelName)
	root.CreateAttr("guid", md.GUID)
	optAttr(root, "description", md.Description)
	optAttr(root, "author", md.Author)
	optAttr(root, "version", md.Version)
	optAttr(root, "generationTool", md.GenerationTool)
	optAttr(root, "generationDateAndTime", md.GenerationDateAndTime)
	optAttr(root, "variableNamingConvention", md.VariableNamingConvention)
	if md.NumberOfEventIndicators != 0 {
		root.CreateAttr("numberOfEventIndicators", strconv.Itoa(md.NumberOfEventIndicators))
	}

	if cs := md.CoSimulation; cs != nil {
		writeCoSimulation(root.CreateElement("CoSimulation"), cs)
	}
	if len(md.Units) > 0 {
		defs := root.CreateElement("UnitDefinitions")
		for _, u := range md.Units {
			writeUnit(defs.CreateElement("Unit"), u)
		}
	}
	if len(md.LogCategories) > 0 {
		cats := root.CreateElement("LogCategories")
		for _, c := range md.LogCategories {
			el := cats.CreateElement("Category")
			el.CreateAttr("name", c.Name)
			optAttr(el, "description", c.Description)
		}
	}
	if de := md.DefaultExperiment; de != nil {
		el := root.CreateElement("DefaultExperiment")
		el.CreateAttr("startTime", FormatReal(de.StartTime))
		optReal(el, "stopTime", de.StopTime)
		optReal(el, "tolerance", de.Tolerance)
		optReal(el, "stepSize", de.StepSize)
	}

	vars := root.CreateElement("ModelVariables")
	var errs []error
	for i := range md.Variables {
		if err := writeVariable(vars.CreateElement("ScalarVariable"), &md.Variables[i]); err != nil {
			errs = append(errs, fmt.Errorf("variable %d (%q): %w", i+1, md.Variables[i].Name, err))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("marshal model description: %w", err)
	}

	ms := root.CreateElement("ModelStructure")
	writeUnknowns(ms, "Outputs", md.Structure.Outputs)
	writeUnknowns(ms, "Derivatives", md.Structure.Derivatives)
	writeUnknowns(ms, "InitialUnknowns", md.Structure.InitialUnknowns)

	doc.Indent(2)
	b, err := doc.WriteToBytes()
	if err != nil {
		return nil, fmt.Errorf("marshal model description: %w", err)
	}
	// A final newline keeps the file friendly to text tools and diffs.
	return append(b, '\n'), nil
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
}

func writeVariable(el *etree.Element, v *Variable) error {
	el.CreateAttr("name", v.Name)
	el.CreateAttr("valueReference", strconv.FormatUint(uint64(v.ValueReference), 10))
	optAttr(el, "description", v.Description)
	optAttr(el, "causality", string(v.Causality))
	optAttr(el, "variability", string(v.Variability))
	optAttr(el, "initial", string(v.Initial))

	switch v.Type {
	case TypeReal, TypeInteger, TypeBoolean, TypeString:
	default:
		return fmt.Errorf("unsupported type %q", v.Type)
	}
	var errs []error
	if v.Type != TypeReal {
		if v.Unit != "" {
			errs = append(errs, fmt.Errorf("unit %q on a %s variable: only Real has units", v.Unit, v.Type))
		}
		if v.Derivative != 0 {
			errs = append(errs, fmt.Errorf("derivative on a %s variable: only Real has derivatives", v.Type))
		}
	}
	if (v.Min != nil || v.Max != nil) && v.Type != TypeReal && v.Type != TypeInteger {
		errs = append(errs, fmt.Errorf("min/max on a %s variable: only Real and Integer have bounds", v.Type))
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}

	t := el.CreateElement(string(v.Type))
	// Attribute order follows the schema's declaration order.
	optAttr(t, "unit", v.Unit)
	for _, b := range []struct {
		key string
		val *float64
	}{{"min", v.Min}, {"max", v.Max}} {
		if b.val == nil {
			continue
		}
		s, err := formatBound(v.Type, *b.val)
		if err != nil {
			return fmt.Errorf("%s: %w", b.key, err)
		}
		t.CreateAttr(b.key, s)
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
		if u.Dependencies != nil {
			ue.CreateAttr("dependencies", joinInts(u.Dependencies))
		}
		if u.DependenciesKind != nil {
			ue.CreateAttr("dependenciesKind", strings.Join(u.DependenciesKind, " "))
		}
	}
}

func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, " ")
}
