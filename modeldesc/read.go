package modeldesc

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/beevik/etree"
)

// Parse reads a modelDescription.xml. It reads back everything Marshal
// writes, so Parse(Marshal(md)) equals md. It checks only that values are
// well formed (numbers are numbers, booleans are booleans); the FMI rules are
// Check's job, so a parsed description should be checked before it is used.
//
// Content this package does not model (ModelExchange, TypeDefinitions,
// VendorAnnotations, DisplayUnit, declaredType, quantity, nominal, ...) is
// ignored. An Enumeration variable is an error because dropping it would
// shift the indices ModelStructure refers to.
func Parse(data []byte) (*ModelDescription, error) {
	doc := etree.NewDocument()
	if err := doc.ReadFromBytes(data); err != nil {
		return nil, fmt.Errorf("parse model description: %w", err)
	}
	root := doc.Root()
	if root == nil || root.Tag != "fmiModelDescription" {
		return nil, errors.New("parse model description: root element is not fmiModelDescription")
	}
	md, err := parseRoot(root)
	if err != nil {
		return nil, fmt.Errorf("parse model description: %w", err)
	}
	return md, nil
}

// attrs reads the attributes of one element and remembers the first
// malformed one, so parsers stay linear instead of checking every call.
type attrs struct {
	el  *etree.Element
	err error
}

func (a *attrs) fail(key string, err error) {
	if a.err == nil {
		a.err = fmt.Errorf("<%s> attribute %s: %w", a.el.Tag, key, err)
	}
}

func (a *attrs) str(key string) string { return a.el.SelectAttrValue(key, "") }

func (a *attrs) has(key string) bool { return a.el.SelectAttr(key) != nil }

func (a *attrs) integer(key string) int {
	s, ok := a.lookup(key)
	if !ok {
		return 0
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		a.fail(key, err)
	}
	return int(n)
}

func (a *attrs) uint32(key string) uint32 {
	s, ok := a.lookup(key)
	if !ok {
		a.fail(key, errors.New("missing"))
		return 0
	}
	n, err := strconv.ParseUint(s, 10, 32)
	if err != nil {
		a.fail(key, err)
	}
	return uint32(n)
}

func (a *attrs) real(key string) float64 {
	s, ok := a.lookup(key)
	if !ok {
		return 0
	}
	v, err := parseDouble(s)
	if err != nil {
		a.fail(key, err)
	}
	return v
}

func (a *attrs) realPtr(key string) *float64 {
	if !a.has(key) {
		return nil
	}
	v := a.real(key)
	return &v
}

func (a *attrs) boolean(key string) bool {
	s, ok := a.lookup(key)
	if !ok {
		return false
	}
	b, err := parseXSBool(s)
	if err != nil {
		a.fail(key, err)
	}
	return b
}

func (a *attrs) ints(key string) []int {
	s, ok := a.lookup(key)
	if !ok {
		return nil
	}
	fields := strings.Fields(s)
	out := make([]int, 0, len(fields))
	for _, f := range fields {
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			a.fail(key, err)
			return nil
		}
		out = append(out, int(n))
	}
	return out
}

func (a *attrs) words(key string) []string {
	s, ok := a.lookup(key)
	if !ok {
		return nil
	}
	// Non-nil even when empty, so an explicit empty list round-trips.
	return append([]string{}, strings.Fields(s)...)
}

func (a *attrs) lookup(key string) (string, bool) {
	at := a.el.SelectAttr(key)
	if at == nil {
		return "", false
	}
	return strings.TrimSpace(at.Value), true
}

func parseXSBool(s string) (bool, error) {
	switch s {
	case "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	}
	return false, fmt.Errorf("%q is not an xs:boolean", s)
}

// parseDouble accepts the xs:double lexical space, which differs from Go's
// (INF instead of Inf, no hexadecimal floats or underscores).
func parseDouble(s string) (float64, error) {
	if !isXSDouble(s) {
		return 0, fmt.Errorf("%q is not an xs:double", s)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("%q is not an xs:double: %w", s, err)
	}
	// Out-of-range values become ±Inf or 0 as xs:double prescribes.
	return v, nil
}

func parseRoot(root *etree.Element) (*ModelDescription, error) {
	a := attrs{el: root}
	md := &ModelDescription{
		FMIVersion:              a.str("fmiVersion"),
		NumberOfEventIndicators: a.integer("numberOfEventIndicators"),
	}
	cm := md.common()
	cm.readHeader(&a)
	if a.err != nil {
		return nil, a.err
	}

	var err error
	if md.CoSimulation, err = parseChild(root, "CoSimulation", parseCoSimulation); err != nil {
		return nil, err
	}
	if err := cm.readElements(root); err != nil {
		return nil, err
	}
	if el := root.SelectElement("ModelVariables"); el != nil {
		for i, ve := range el.SelectElements("ScalarVariable") {
			v, err := parseVariable(ve)
			if err != nil {
				return nil, fmt.Errorf("ScalarVariable %d (%q): %w", i+1, ve.SelectAttrValue("name", ""), err)
			}
			md.Variables = append(md.Variables, v)
		}
	}
	if el := root.SelectElement("ModelStructure"); el != nil {
		var err error
		s := &md.Structure
		if s.Outputs, err = parseUnknowns(el, "Outputs"); err != nil {
			return nil, err
		}
		if s.Derivatives, err = parseUnknowns(el, "Derivatives"); err != nil {
			return nil, err
		}
		if s.InitialUnknowns, err = parseUnknowns(el, "InitialUnknowns"); err != nil {
			return nil, err
		}
	}
	return md, nil
}

// parseChild parses the child element tag of parent with parse; nil when
// there is none.
func parseChild[T any](parent *etree.Element, tag string, parse func(*etree.Element) (*T, error)) (*T, error) {
	el := parent.SelectElement(tag)
	if el == nil {
		return nil, nil
	}
	return parse(el)
}

// readHeader reads the root attributes both versions share.
func (cm common) readHeader(a *attrs) {
	*cm.modelName = a.str("modelName")
	*cm.token = a.str(cm.tokenAttr)
	*cm.description = a.str("description")
	*cm.author = a.str("author")
	*cm.version = a.str("version")
	*cm.generationTool = a.str("generationTool")
	*cm.generationDateAndTime = a.str("generationDateAndTime")
	*cm.variableNamingConvention = a.str("variableNamingConvention")
}

// readElements reads UnitDefinitions, LogCategories and DefaultExperiment.
func (cm common) readElements(root *etree.Element) error {
	if el := root.SelectElement("UnitDefinitions"); el != nil {
		for i, ue := range el.SelectElements("Unit") {
			u, err := parseUnit(ue)
			if err != nil {
				return fmt.Errorf("unit %d: %w", i+1, err)
			}
			*cm.units = append(*cm.units, u)
		}
	}
	if el := root.SelectElement("LogCategories"); el != nil {
		for _, ce := range el.SelectElements("Category") {
			*cm.logCategories = append(*cm.logCategories, LogCategory{
				Name:        ce.SelectAttrValue("name", ""),
				Description: ce.SelectAttrValue("description", ""),
			})
		}
	}
	if el := root.SelectElement("DefaultExperiment"); el != nil {
		ea := attrs{el: el}
		*cm.defaultExperiment = &DefaultExperiment{
			StartTime: ea.real("startTime"),
			StopTime:  ea.real("stopTime"),
			Tolerance: ea.real("tolerance"),
			StepSize:  ea.real("stepSize"),
		}
		if ea.err != nil {
			return ea.err
		}
	}
	return nil
}

// read reads the attributes every variable has.
func (cv commonVar) read(a *attrs) {
	*cv.name = a.str("name")
	*cv.description = a.str("description")
	*cv.valueReference = a.uint32("valueReference")
	*cv.causality = Causality(a.str("causality"))
	*cv.variability = Variability(a.str("variability"))
	*cv.initial = Initial(a.str("initial"))
}

func parseCoSimulation(el *etree.Element) (*CoSimulation, error) {
	a := attrs{el: el}
	cs := &CoSimulation{
		ModelIdentifier:                        a.str("modelIdentifier"),
		NeedsExecutionTool:                     a.boolean("needsExecutionTool"),
		CanHandleVariableCommunicationStepSize: a.boolean("canHandleVariableCommunicationStepSize"),
		CanInterpolateInputs:                   a.boolean("canInterpolateInputs"),
		MaxOutputDerivativeOrder:               a.integer("maxOutputDerivativeOrder"),
		CanRunAsynchronuously:                  a.boolean("canRunAsynchronuously"),
		CanBeInstantiatedOnlyOncePerProcess:    a.boolean("canBeInstantiatedOnlyOncePerProcess"),
		CanNotUseMemoryManagementFunctions:     a.boolean("canNotUseMemoryManagementFunctions"),
		CanGetAndSetFMUstate:                   a.boolean("canGetAndSetFMUstate"),
		CanSerializeFMUstate:                   a.boolean("canSerializeFMUstate"),
		ProvidesDirectionalDerivative:          a.boolean("providesDirectionalDerivative"),
	}
	return cs, a.err
}

func parseUnit(el *etree.Element) (Unit, error) {
	u := Unit{Name: el.SelectAttrValue("name", "")}
	var err error
	for _, de := range el.SelectElements("DisplayUnit") {
		a := attrs{el: de}
		u.Display = append(u.Display, DisplayUnit{Name: a.str("name"), Factor: a.real("factor"), Offset: a.real("offset")})
		err = errors.Join(err, a.err)
	}
	if err != nil {
		return u, err
	}
	be := el.SelectElement("BaseUnit")
	if be == nil {
		u.NoBase = true
		return u, nil
	}
	a := attrs{el: be}
	u.Base = BaseUnit{
		Kg:     a.integer("kg"),
		M:      a.integer("m"),
		S:      a.integer("s"),
		A:      a.integer("A"),
		K:      a.integer("K"),
		Mol:    a.integer("mol"),
		Cd:     a.integer("cd"),
		Rad:    a.integer("rad"),
		Factor: a.real("factor"),
		Offset: a.real("offset"),
	}
	return u, a.err
}

func parseVariable(el *etree.Element) (Variable, error) {
	a := attrs{el: el}
	var v Variable
	v.common().read(&a)
	if a.err != nil {
		return v, a.err
	}
	var te *etree.Element
	for _, c := range el.ChildElements() {
		switch c.Tag {
		case string(TypeReal), string(TypeInteger), string(TypeBoolean), string(TypeString):
			te = c
		case "Enumeration":
			return v, errors.New("type Enumeration is not supported")
		}
	}
	if te == nil {
		return v, errors.New("no type element (Real, Integer, Boolean or String)")
	}
	v.Type = Type(te.Tag)
	ta := attrs{el: te}
	// Start stays verbatim so that the written text round-trips exactly.
	v.Start = te.SelectAttrValue("start", "")
	switch v.Type {
	case TypeReal:
		v.Quantity = ta.str("quantity")
		v.Unit = ta.str("unit")
		v.DisplayUnit = ta.str("displayUnit")
		v.Min = ta.realPtr("min")
		v.Max = ta.realPtr("max")
		v.Derivative = ta.integer("derivative")
	case TypeInteger:
		v.Quantity = ta.str("quantity")
		v.Min = ta.realPtr("min")
		v.Max = ta.realPtr("max")
	}
	return v, ta.err
}

func parseUnknowns(ms *etree.Element, tag string) ([]Unknown, error) {
	el := ms.SelectElement(tag)
	if el == nil {
		return nil, nil
	}
	var list []Unknown
	for i, ue := range el.SelectElements("Unknown") {
		a := attrs{el: ue}
		if !a.has("index") {
			return nil, fmt.Errorf("ModelStructure/%s unknown %d: missing index", tag, i+1)
		}
		u := Unknown{
			Index:            a.integer("index"),
			Dependencies:     a.ints("dependencies"),
			DependenciesKind: a.words("dependenciesKind"),
		}
		if a.err != nil {
			return nil, fmt.Errorf("ModelStructure/%s unknown %d: %w", tag, i+1, a.err)
		}
		list = append(list, u)
	}
	return list, nil
}
