package modeldesc

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/beevik/etree"
)

// fmiVersion3RE accepts the fmiVersion values of released FMI 3.0
// descriptions: "3.0" (what the standard prescribes for every 3.0.x) and,
// leniently, "3.0.x".
var fmiVersion3RE = regexp.MustCompile(`^3\.0(?:\.(?:0|[1-9][0-9]*))?$`)

// Parse3 reads an FMI 3.0 modelDescription.xml. It reads back everything
// Marshal writes, so Parse3(md.Marshal()) equals md. Like Parse it checks
// only that values are well formed; the FMI rules are Check's job.
//
// Content this package does not model (ModelExchange, ScheduledExecution,
// TypeDefinitions, Annotations, Alias, DisplayUnit, declaredType, quantity,
// nominal, ...) is ignored. Binary, Enumeration and Clock variables and
// <ClockedState> entries are errors rather than being dropped, because the
// ModelStructure and dimensions may refer to them. An Int64 or UInt64 value
// beyond ±2^53 is an error because Variable3 keeps values as float64.
func Parse3(data []byte) (*ModelDescription3, error) {
	doc := etree.NewDocument()
	if err := doc.ReadFromBytes(data); err != nil {
		return nil, fmt.Errorf("parse model description: %w", err)
	}
	root := doc.Root()
	if root == nil || root.Tag != "fmiModelDescription" {
		return nil, errors.New("parse model description: root element is not fmiModelDescription")
	}
	if v := root.SelectAttrValue("fmiVersion", ""); !fmiVersion3RE.MatchString(v) {
		return nil, fmt.Errorf("parse model description: fmiVersion %q is not FMI 3.0", v)
	}
	md, err := parseRoot3(root)
	if err != nil {
		return nil, fmt.Errorf("parse model description: %w", err)
	}
	return md, nil
}

func parseRoot3(root *etree.Element) (*ModelDescription3, error) {
	a := attrs{el: root}
	md := &ModelDescription3{}
	cm := md.common()
	cm.readHeader(&a)
	var err error
	if md.CoSimulation, err = parseChild(root, "CoSimulation", parseCoSimulation3); err != nil {
		return nil, err
	}
	if err := cm.readElements(root); err != nil {
		return nil, err
	}
	if el := root.SelectElement("ModelVariables"); el != nil {
		for i, ve := range el.ChildElements() {
			if ve.Tag == "Annotations" {
				continue
			}
			v, err := parseVariable3(ve)
			if err != nil {
				return nil, fmt.Errorf("variable %d (<%s name=%q>): %w", i+1, ve.Tag, ve.SelectAttrValue("name", ""), err)
			}
			md.Variables = append(md.Variables, v)
		}
	}
	if el := root.SelectElement("ModelStructure"); el != nil {
		s := &md.Structure
		for _, ue := range el.ChildElements() {
			var list *[]Unknown3
			switch ue.Tag {
			case "Output":
				list = &s.Outputs
			case "ContinuousStateDerivative":
				list = &s.ContinuousStateDerivatives
			case "InitialUnknown":
				list = &s.InitialUnknowns
			case "EventIndicator":
				list = &s.EventIndicators
			case "ClockedState":
				return nil, errors.New("ModelStructure: <ClockedState> is not supported (clocks are not modelled)")
			default:
				continue
			}
			u, err := parseUnknown3(ue)
			if err != nil {
				return nil, fmt.Errorf("ModelStructure/%s %d: %w", ue.Tag, len(*list)+1, err)
			}
			*list = append(*list, u)
		}
	}
	return md, a.err
}

func parseCoSimulation3(el *etree.Element) (*CoSimulation3, error) {
	a := attrs{el: el}
	cs := &CoSimulation3{
		ModelIdentifier:                        a.str("modelIdentifier"),
		NeedsExecutionTool:                     a.boolean("needsExecutionTool"),
		CanBeInstantiatedOnlyOncePerProcess:    a.boolean("canBeInstantiatedOnlyOncePerProcess"),
		CanGetAndSetFMUState:                   a.boolean("canGetAndSetFMUState"),
		CanSerializeFMUState:                   a.boolean("canSerializeFMUState"),
		ProvidesDirectionalDerivatives:         a.boolean("providesDirectionalDerivatives"),
		ProvidesAdjointDerivatives:             a.boolean("providesAdjointDerivatives"),
		ProvidesPerElementDependencies:         a.boolean("providesPerElementDependencies"),
		CanHandleVariableCommunicationStepSize: a.boolean("canHandleVariableCommunicationStepSize"),
		FixedInternalStepSize:                  a.real("fixedInternalStepSize"),
		MaxOutputDerivativeOrder:               a.integer("maxOutputDerivativeOrder"),
		RecommendedIntermediateInputSmoothness: a.integer("recommendedIntermediateInputSmoothness"),
		ProvidesIntermediateUpdate:             a.boolean("providesIntermediateUpdate"),
		MightReturnEarlyFromDoStep:             a.boolean("mightReturnEarlyFromDoStep"),
		CanReturnEarlyAfterIntermediateUpdate:  a.boolean("canReturnEarlyAfterIntermediateUpdate"),
		HasEventMode:                           a.boolean("hasEventMode"),
		ProvidesEvaluateDiscreteStates:         a.boolean("providesEvaluateDiscreteStates"),
	}
	return cs, a.err
}

func parseVariable3(el *etree.Element) (Variable3, error) {
	t := Type3(el.Tag)
	if !t.known() {
		switch el.Tag {
		case "Binary", "Enumeration", "Clock":
			return Variable3{}, fmt.Errorf("type %s is not supported", el.Tag)
		}
		return Variable3{}, fmt.Errorf("unknown variable element <%s>", el.Tag)
	}
	a := attrs{el: el}
	v := Variable3{Type: t}
	v.common().read(&a)
	if t != TypeBoolean3 && t != TypeString3 {
		v.Quantity = a.str("quantity")
	}
	if t.IsFloat() {
		v.Unit = a.str("unit")
		v.DisplayUnit = a.str("displayUnit")
		if a.has("derivative") {
			d := a.uint32("derivative")
			v.Derivative = &d
		}
	}
	if t != TypeBoolean3 && t != TypeString3 {
		v.Min = a.value3Ptr("min", t)
		v.Max = a.value3Ptr("max", t)
	}
	if t != TypeString3 {
		v.Start = a.values3("start", t)
	}
	if a.err != nil {
		return v, a.err
	}
	for _, c := range el.ChildElements() {
		switch c.Tag {
		case "Dimension":
			d, err := parseDimension3(c)
			if err != nil {
				return v, fmt.Errorf("dimension %d: %w", len(v.Dimensions)+1, err)
			}
			v.Dimensions = append(v.Dimensions, d)
		case "Start":
			if t == TypeString3 {
				v.StringStart = append(v.StringStart, c.SelectAttrValue("value", ""))
			}
		}
	}
	return v, nil
}

func parseDimension3(el *etree.Element) (Dimension3, error) {
	a := attrs{el: el}
	var d Dimension3
	if s, ok := a.lookup("start"); ok {
		n, err := strconv.ParseUint(s, 10, 64)
		switch {
		case err != nil:
			return d, fmt.Errorf("start: %w", err)
		case n == 0:
			// Dimension3 uses 0 for "no start"; initial sizes must be
			// positive anyway.
			return d, errors.New("start 0: initial dimension sizes must be positive")
		}
		d.Start = n
	}
	if a.has("valueReference") {
		vr := a.uint32("valueReference")
		d.ValueReference = &vr
	}
	return d, a.err
}

func parseUnknown3(el *etree.Element) (Unknown3, error) {
	a := attrs{el: el}
	if !a.has("valueReference") {
		return Unknown3{}, errors.New("missing valueReference")
	}
	u := Unknown3{
		ValueReference:   a.uint32("valueReference"),
		DependenciesKind: a.words("dependenciesKind"),
	}
	if s, ok := a.lookup("dependencies"); ok {
		fields := strings.Fields(s)
		u.Dependencies = make([]uint32, 0, len(fields))
		for _, f := range fields {
			n, err := strconv.ParseUint(f, 10, 32)
			if err != nil {
				return u, fmt.Errorf("dependencies: %w", err)
			}
			u.Dependencies = append(u.Dependencies, uint32(n))
		}
	}
	return u, a.err
}

// value3Ptr reads an optional bound in the lexical form of type t.
func (a *attrs) value3Ptr(key string, t Type3) *float64 {
	s, ok := a.lookup(key)
	if !ok {
		return nil
	}
	v, err := parseValue3(t, s)
	if err != nil {
		a.fail(key, err)
		return nil
	}
	return &v
}

// values3 reads a space-separated list of values of type t; nil when the
// attribute is absent, non-nil (possibly empty) when present.
func (a *attrs) values3(key string, t Type3) []float64 {
	s, ok := a.lookup(key)
	if !ok {
		return nil
	}
	fields := strings.Fields(s)
	out := make([]float64, 0, len(fields))
	for _, f := range fields {
		v, err := parseValue3(t, f)
		if err != nil {
			a.fail(key, err)
			return nil
		}
		out = append(out, v)
	}
	return out
}

// parseValue3 parses one value in the lexical space of type t.
func parseValue3(t Type3, s string) (float64, error) {
	switch {
	case t.IsFloat():
		return parseDouble(s)
	case t == TypeBoolean3:
		b, err := parseXSBool(s)
		if b {
			return 1, err
		}
		return 0, err
	}
	lo, hi, ok := intRange(t)
	if !ok {
		return 0, fmt.Errorf("type %s has no numeric values", t)
	}
	// xs:integer types allow a leading '+'; strconv does too.
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		// Unsigned 64-bit values above MaxInt64 are beyond 2^53 anyway.
		return 0, fmt.Errorf("%q is not a %s value: %w", s, t, err)
	}
	// Compare as integers: float64(n) rounds above 2^53.
	if n < int64(lo) || n > int64(hi) {
		return 0, fmt.Errorf("%q is outside the %s range supported here [%s, %s]", s, t, FormatReal(lo), FormatReal(hi))
	}
	return float64(n), nil
}
