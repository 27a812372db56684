package modeldesc

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/beevik/etree"
)

// Marshal renders md as an indented FMI 3.0 modelDescription.xml with an
// UTF-8 XML declaration. Like ModelDescription.Marshal it does not run
// Check; it fails only on values the XML cannot represent, such as a unit
// on an integer variable or a fractional start value of an Int32.
// UnitDefinitions and LogCategories are left out when empty because the
// schema demands at least one child; ModelStructure is always written.
func (md *ModelDescription3) Marshal() ([]byte, error) {
	doc, root := newDocument(FMIVersion3)
	cm := md.common()
	cm.writeHeader(root)

	if cs := md.CoSimulation; cs != nil {
		writeCoSimulation3(root.CreateElement("CoSimulation"), cs)
	}
	cm.writeElements(root)

	vars := root.CreateElement("ModelVariables")
	if err := writeVariables(md.Variables, func(v *Variable3) error { return writeVariable3(vars, v) }); err != nil {
		return nil, err
	}

	ms := root.CreateElement("ModelStructure")
	st := &md.Structure
	writeUnknowns3(ms, "Output", st.Outputs)
	writeUnknowns3(ms, "ContinuousStateDerivative", st.ContinuousStateDerivatives)
	writeUnknowns3(ms, "InitialUnknown", st.InitialUnknowns)
	writeUnknowns3(ms, "EventIndicator", st.EventIndicators)

	b, err := indented(doc)
	if err != nil {
		return nil, err
	}
	// Exactly one final newline (etree's indentation already ends the
	// document with one).
	return append(bytes.TrimRight(b, "\n"), '\n'), nil
}

func writeCoSimulation3(el *etree.Element, cs *CoSimulation3) {
	el.CreateAttr("modelIdentifier", cs.ModelIdentifier)
	flag := func(key string, v bool) { el.CreateAttr(key, strconv.FormatBool(v)) }
	flag("needsExecutionTool", cs.NeedsExecutionTool)
	flag("canBeInstantiatedOnlyOncePerProcess", cs.CanBeInstantiatedOnlyOncePerProcess)
	flag("canGetAndSetFMUState", cs.CanGetAndSetFMUState)
	flag("canSerializeFMUState", cs.CanSerializeFMUState)
	flag("providesDirectionalDerivatives", cs.ProvidesDirectionalDerivatives)
	flag("providesAdjointDerivatives", cs.ProvidesAdjointDerivatives)
	flag("providesPerElementDependencies", cs.ProvidesPerElementDependencies)
	flag("canHandleVariableCommunicationStepSize", cs.CanHandleVariableCommunicationStepSize)
	optReal(el, "fixedInternalStepSize", cs.FixedInternalStepSize)
	el.CreateAttr("maxOutputDerivativeOrder", strconv.Itoa(cs.MaxOutputDerivativeOrder))
	el.CreateAttr("recommendedIntermediateInputSmoothness", strconv.Itoa(cs.RecommendedIntermediateInputSmoothness))
	flag("providesIntermediateUpdate", cs.ProvidesIntermediateUpdate)
	flag("mightReturnEarlyFromDoStep", cs.MightReturnEarlyFromDoStep)
	flag("canReturnEarlyAfterIntermediateUpdate", cs.CanReturnEarlyAfterIntermediateUpdate)
	flag("hasEventMode", cs.HasEventMode)
	flag("providesEvaluateDiscreteStates", cs.ProvidesEvaluateDiscreteStates)
}

// representable3 reports what the XML of a variable cannot carry; Check
// reports the same problems as rule violations.
func representable3(v *Variable3) error {
	if !v.Type.known() {
		return fmt.Errorf("unsupported type %q", v.Type)
	}
	var errs []error
	if !v.Type.IsFloat() {
		if v.Unit != "" || v.DisplayUnit != "" {
			errs = append(errs, fmt.Errorf("unit %q, display unit %q on a %s variable: only Float32 and Float64 have units", v.Unit, v.DisplayUnit, v.Type))
		}
		if v.Derivative != nil {
			errs = append(errs, fmt.Errorf("derivative on a %s variable: only Float32 and Float64 have derivatives", v.Type))
		}
	}
	if (v.Min != nil || v.Max != nil) && (v.Type == TypeBoolean3 || v.Type == TypeString3) {
		errs = append(errs, fmt.Errorf("min/max on a %s variable: only numeric types have bounds", v.Type))
	}
	if v.Type == TypeString3 && v.Start != nil {
		errs = append(errs, errors.New("numeric start on a String variable: use StringStart"))
	}
	if v.Type != TypeString3 && len(v.StringStart) > 0 {
		errs = append(errs, fmt.Errorf("StringStart on a %s variable: use Start", v.Type))
	}
	return errors.Join(errs...)
}

func writeVariable3(parent *etree.Element, v *Variable3) error {
	if err := representable3(v); err != nil {
		return err
	}
	el := parent.CreateElement(string(v.Type))
	v.common().write(el)
	optAttr(el, "quantity", v.Quantity)
	optAttr(el, "unit", v.Unit)
	optAttr(el, "displayUnit", v.DisplayUnit)
	if err := writeBounds(el, v.Min, v.Max, func(x float64) (string, error) { return formatValue3(v.Type, x) }); err != nil {
		return err
	}
	if v.Start != nil {
		parts := make([]string, len(v.Start))
		for i, x := range v.Start {
			s, err := formatValue3(v.Type, x)
			if err != nil {
				return fmt.Errorf("start value %d: %w", i+1, err)
			}
			parts[i] = s
		}
		el.CreateAttr("start", strings.Join(parts, " "))
	}
	if v.Derivative != nil {
		el.CreateAttr("derivative", strconv.FormatUint(uint64(*v.Derivative), 10))
	}
	// Child order follows the schema: Dimension before Start.
	for _, d := range v.Dimensions {
		de := el.CreateElement("Dimension")
		if d.Start != 0 {
			de.CreateAttr("start", strconv.FormatUint(d.Start, 10))
		}
		if d.ValueReference != nil {
			de.CreateAttr("valueReference", strconv.FormatUint(uint64(*d.ValueReference), 10))
		}
	}
	for _, s := range v.StringStart {
		el.CreateElement("Start").CreateAttr("value", s)
	}
	return nil
}

// formatValue3 writes a start or bound value in the lexical form of the
// variable's type: shortest round-trip decimal for floats, plain integers
// for the integer types (where "1e3" or "2.0" would be invalid), true/false
// for Boolean.
func formatValue3(t Type3, v float64) (string, error) {
	switch {
	case t.IsFloat():
		return FormatReal(v), nil
	case t == TypeBoolean3:
		switch v {
		case 0:
			return "false", nil
		case 1:
			return "true", nil
		}
		return "", fmt.Errorf("%v is not a Boolean (0 or 1)", v)
	}
	lo, hi, ok := intRange(t)
	if !ok {
		return "", fmt.Errorf("type %s has no numeric values", t)
	}
	if v != math.Trunc(v) || v < lo || v > hi {
		return "", fmt.Errorf("%v is not a %s value (integer in [%s, %s])", v, t, FormatReal(lo), FormatReal(hi))
	}
	return strconv.FormatInt(int64(v), 10), nil
}

func writeUnknowns3(parent *etree.Element, tag string, list []Unknown3) {
	for _, u := range list {
		el := parent.CreateElement(tag)
		el.CreateAttr("valueReference", strconv.FormatUint(uint64(u.ValueReference), 10))
		writeDependencies(el, u.Dependencies, u.DependenciesKind)
	}
}
