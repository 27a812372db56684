package modeldesc

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Rule identifies an FMI 2.0 rule checked by Check, so callers and tests can
// tell violations apart without matching message text.
type Rule string

// Rules checked by Check.
const (
	RuleFMIVersion        Rule = "fmi-version"        // fmiVersion is "2.0"
	RuleModelName         Rule = "model-name"         // modelName non-empty
	RuleGUID              Rule = "guid"               // guid non-empty
	RuleAttribute         Rule = "attribute"          // top-level attribute values well formed
	RuleCoSimulation      Rule = "co-simulation"      // CoSimulation present, modelIdentifier a C identifier
	RuleUnitDefinition    Rule = "unit-definition"    // unit names unique, factors sane
	RuleLogCategory       Rule = "log-category"       // category names unique and non-empty
	RuleDefaultExperiment Rule = "default-experiment" // stopTime > startTime, stepSize >= 0, ...
	RuleVariables         Rule = "variables"          // at least one variable
	RuleName              Rule = "variable-name"      // names non-empty, unique, well formed
	RuleValueReference    Rule = "value-reference"    // unique per type (no aliases)
	RuleType              Rule = "type"               // Real, Integer, Boolean or String
	RuleCausality         Rule = "causality"          // known causality
	RuleVariability       Rule = "variability"        // known variability; continuous only for Real
	RuleCombination       Rule = "causality-variability"
	RuleInitial           Rule = "initial"     // allowed initial for the combination
	RuleStart             Rule = "start"       // start required / forbidden / well formed
	RuleBounds            Rule = "bounds"      // min <= start <= max
	RuleUnit              Rule = "unit"        // unit defined, Real only
	RuleIndependent       Rule = "independent" // at most one, Real
	RuleDerivative        Rule = "derivative"  // derivative attribute refers to a Real state
	RuleOutputs           Rule = "model-structure-outputs"
	RuleDerivatives       Rule = "model-structure-derivatives"
	RuleInitialUnknowns   Rule = "model-structure-initial-unknowns"
	RuleDependencies      Rule = "model-structure-dependencies"
	RuleXMLText           Rule = "xml-text" // text XML 1.0 cannot carry
)

// Violation is one broken rule. Check joins all violations with errors.Join;
// Violations recovers them.
type Violation struct {
	Rule Rule
	// Subject names what is wrong, e.g. `variable "cable.length" (index 3)`.
	Subject string
	Detail  string
}

func (v *Violation) Error() string {
	return fmt.Sprintf("%s: %s [%s]", v.Subject, v.Detail, v.Rule)
}

// Violations returns the violations contained in an error returned by Check.
func Violations(err error) []*Violation {
	var out []*Violation
	var walk func(error)
	walk = func(e error) {
		if e == nil {
			return
		}
		if v, ok := e.(*Violation); ok {
			out = append(out, v)
			return
		}
		switch u := e.(type) {
		case interface{ Unwrap() []error }:
			for _, x := range u.Unwrap() {
				walk(x)
			}
		case interface{ Unwrap() error }:
			walk(u.Unwrap())
		}
	}
	walk(err)
	return out
}

// report collects violations; one per Check call, so Check is reentrant.
// It holds the checks FMI 2.0 and 3.0 share; checker and checker3 add the
// version-specific ones.
type report struct {
	errs []error
}

// checker checks one ModelDescription.
type checker struct {
	report
	md *ModelDescription
}

func (c *report) add(rule Rule, subject, format string, args ...any) {
	c.errs = append(c.errs, &Violation{Rule: rule, Subject: subject, Detail: fmt.Sprintf(format, args...)})
}

func varSubject(v *Variable, idx int) string {
	return fmt.Sprintf("variable %q (index %d)", v.Name, idx)
}

// Check verifies the FMI 2.0 rules that the XML schema cannot express and
// returns the errors.Join of one *Violation per problem found (nil if none).
// See the Rule constants for what is covered.
func (md *ModelDescription) Check() error {
	c := &checker{md: md}
	c.header()
	c.coSimulation()
	c.elements(md.common())
	c.variables()
	c.structure()
	return errors.Join(c.errs...)
}

func (c *checker) header() {
	md := c.md
	const s = headerSubject
	if md.FMIVersion != FMIVersion2 {
		c.add(RuleFMIVersion, s, "fmiVersion is %q, want %q", md.FMIVersion, FMIVersion2)
	}
	cm := md.common()
	c.headerValues(cm, RuleGUID)
	if md.NumberOfEventIndicators < 0 {
		c.add(RuleAttribute, s, "numberOfEventIndicators %d is negative", md.NumberOfEventIndicators)
	}
	c.headerText(cm)
}

// headerSubject is the subject of violations of root attributes.
const headerSubject = "fmiModelDescription"

// headerValues checks the values of the root attributes both versions
// share; tokenRule is the rule of the token attribute.
func (c *report) headerValues(cm common, tokenRule Rule) {
	const s = headerSubject
	if strings.TrimSpace(*cm.modelName) == "" {
		c.add(RuleModelName, s, "modelName is empty")
	}
	// The token is what binds the XML to the binary; fmi2Instantiate and
	// fmi3Instantiate* compare it.
	if strings.TrimSpace(*cm.token) == "" {
		c.add(tokenRule, s, "%s is empty", cm.tokenAttr)
	}
	switch *cm.variableNamingConvention {
	case "", "flat", "structured":
	default:
		c.add(RuleAttribute, s, "variableNamingConvention %q is neither flat nor structured", *cm.variableNamingConvention)
	}
	if d := *cm.generationDateAndTime; d != "" && !xsDateTime.MatchString(d) {
		c.add(RuleAttribute, s, "generationDateAndTime %q is not an xs:dateTime", d)
	}
}

// headerText checks that XML can carry the shared root attributes.
func (c *report) headerText(cm common) {
	const s = headerSubject
	c.text(s, cm.tokenAttr, *cm.token, true)
	c.text(s, "modelName", *cm.modelName, false)
	c.text(s, "description", *cm.description, false)
	c.text(s, "author", *cm.author, false)
	c.text(s, "version", *cm.version, true)
	c.text(s, "generationTool", *cm.generationTool, true)
}

// text reports strings XML cannot carry (they would be silently replaced)
// and, for xs:normalizedString attributes, tabs and line breaks (a validating
// reader turns them into spaces, so the value would change).
func (c *report) text(subject, what, s string, normalized bool) {
	if !validXMLText(s) {
		c.add(RuleXMLText, subject, "%s contains characters not allowed in XML 1.0", what)
	}
	if normalized && strings.ContainsAny(s, "\t\r\n") {
		c.add(RuleXMLText, subject, "%s contains a tab or line break, which xs:normalizedString replaces by spaces", what)
	}
}

func (c *checker) coSimulation() {
	cs := c.md.CoSimulation
	const s = coSimulationSubject
	if !coSimulationElement(&c.report, cs, func(cs *CoSimulation) string { return cs.ModelIdentifier }) {
		return
	}
	if cs.MaxOutputDerivativeOrder < 0 {
		c.add(RuleCoSimulation, s, "maxOutputDerivativeOrder %d is negative", cs.MaxOutputDerivativeOrder)
	}
}

// elements checks UnitDefinitions, LogCategories and DefaultExperiment.
func (c *report) elements(cm common) {
	c.units(*cm.units)
	c.logCategories(*cm.logCategories)
	c.defaultExperiment(*cm.defaultExperiment)
}

const coSimulationSubject = "CoSimulation"

// coSimulationElement checks what both versions demand of the CoSimulation
// element: that it is there and that its modelIdentifier is a C identifier.
// It returns false when the element is missing.
func coSimulationElement[C any](c *report, cs *C, modelIdentifier func(*C) string) bool {
	const s = coSimulationSubject
	if cs == nil {
		// This package describes Co-Simulation FMUs only, and the schema
		// demands ModelExchange or CoSimulation.
		c.add(RuleCoSimulation, s, "element missing")
		return false
	}
	// modelIdentifier prefixes the C function names and names the shared
	// library, hence the C-identifier rule.
	if id := modelIdentifier(cs); !isCIdentifier(id) {
		c.add(RuleCoSimulation, s, "modelIdentifier %q is not a valid C identifier", id)
	}
	return true
}

func (c *report) units(units []Unit) {
	seen := map[string]bool{}
	for i, u := range units {
		s := fmt.Sprintf("unit %q (UnitDefinitions entry %d)", u.Name, i+1)
		switch {
		case strings.TrimSpace(u.Name) == "":
			c.add(RuleUnitDefinition, s, "name is empty")
		case seen[u.Name]:
			c.add(RuleUnitDefinition, s, "name defined twice")
		}
		seen[u.Name] = true
		c.text(s, "name", u.Name, true)
		if !isFinite(u.Base.Factor) || !isFinite(u.Base.Offset) {
			c.add(RuleUnitDefinition, s, "factor and offset must be finite")
		}
		shown := map[string]bool{}
		for _, d := range u.Display {
			switch {
			case strings.TrimSpace(d.Name) == "":
				c.add(RuleUnitDefinition, s, "a DisplayUnit without a name")
			case shown[d.Name]:
				c.add(RuleUnitDefinition, s, "DisplayUnit %q defined twice", d.Name)
			}
			shown[d.Name] = true
			c.text(s, "DisplayUnit name", d.Name, true)
			if !isFinite(d.Factor) || !isFinite(d.Offset) {
				c.add(RuleUnitDefinition, s, "DisplayUnit %q: factor and offset must be finite", d.Name)
			}
		}
	}
}

func (c *report) logCategories(cats []LogCategory) {
	seen := map[string]bool{}
	for i, lc := range cats {
		s := fmt.Sprintf("log category %q (entry %d)", lc.Name, i+1)
		switch {
		case strings.TrimSpace(lc.Name) == "":
			c.add(RuleLogCategory, s, "name is empty")
		case seen[lc.Name]:
			c.add(RuleLogCategory, s, "name defined twice")
		}
		seen[lc.Name] = true
		c.text(s, "name", lc.Name, true)
		c.text(s, "description", lc.Description, false)
	}
}

func (c *report) defaultExperiment(de *DefaultExperiment) {
	if de == nil {
		return
	}
	const s = "DefaultExperiment"
	for _, f := range []struct {
		name string
		v    float64
	}{{"startTime", de.StartTime}, {"stopTime", de.StopTime}, {"tolerance", de.Tolerance}, {"stepSize", de.StepSize}} {
		if !isFinite(f.v) {
			c.add(RuleDefaultExperiment, s, "%s %v is not finite", f.name, f.v)
		}
	}
	if de.StopTime != 0 && !(de.StopTime > de.StartTime) {
		c.add(RuleDefaultExperiment, s, "stopTime %v is not after startTime %v", de.StopTime, de.StartTime)
	}
	if de.StepSize < 0 {
		c.add(RuleDefaultExperiment, s, "stepSize %v is negative", de.StepSize)
	}
	if de.Tolerance < 0 {
		c.add(RuleDefaultExperiment, s, "tolerance %v is negative", de.Tolerance)
	}
}

func (c *checker) variables() {
	md := c.md
	if len(md.Variables) == 0 {
		c.add(RuleVariables, "ModelVariables", "no variables; the schema requires at least one ScalarVariable")
	}
	units := unitSet(md.Units)
	names := map[string]string{}
	type typedVR struct {
		t  Type
		vr uint32
	}
	vrs := map[typedVR]int{}
	independent := 0
	for i := range md.Variables {
		v := &md.Variables[i]
		idx := i + 1
		s := varSubject(v, idx)

		c.varName(s, v.common(), fmt.Sprintf("index %d", idx), names, md.VariableNamingConvention)

		switch v.Type {
		case TypeReal, TypeInteger, TypeBoolean, TypeString:
			// Variables of different types live in different value-reference
			// spaces (fmi2GetReal vs fmi2GetInteger ...). A shared reference
			// within a type makes an alias; aliases are not supported here.
			key := typedVR{v.Type, v.ValueReference}
			if prev, ok := vrs[key]; ok {
				c.add(RuleValueReference, s, "valueReference %d already used by %s variable %q (index %d); aliases are not supported",
					v.ValueReference, v.Type, md.Variables[prev-1].Name, prev)
			} else {
				vrs[key] = idx
			}
		default:
			c.add(RuleType, s, "type %q is not Real, Integer, Boolean or String", v.Type)
		}

		if v.EffectiveCausality() == CausalityIndependent {
			independent++
			if independent > 1 {
				c.add(RuleIndependent, s, "a second independent variable; at most one is allowed")
			}
			if v.Type != TypeReal {
				c.add(RuleIndependent, s, "the independent variable must be Real, not %s", v.Type)
			}
		}
		c.variable(v, idx, units)
	}
}

// display checks a variable's display unit: one its unit defines.
func (c *report) display(s, unit, display string, units []Unit) {
	if display == "" {
		return
	}
	u, ok := unitNamed(units, unit)
	switch {
	case unit == "":
		c.add(RuleUnit, s, "displayUnit %q without a unit", display)
	case ok && !u.HasDisplay(display):
		c.add(RuleUnit, s, "displayUnit %q is not a DisplayUnit of unit %q", display, unit)
	}
}

// unitSet returns the names of the defined units.
func unitSet(units []Unit) map[string]bool {
	set := map[string]bool{}
	for _, u := range units {
		set[u.Name] = true
	}
	return set
}

// varName checks a variable's name and the text of its name and description;
// s is the variable's subject, ref how a later variable with the same name
// refers to it, and names maps each name seen so far to its ref.
func (c *report) varName(s string, cv commonVar, ref string, names map[string]string, namingConvention string) {
	name := *cv.name
	prev, used := names[name]
	switch {
	case strings.TrimSpace(name) == "":
		c.add(RuleName, s, "name is empty")
	case used:
		c.add(RuleName, s, "name already used by %s", prev)
	default:
		names[name] = ref
	}
	if namingConvention == "structured" && name != "" && !isStructuredName(name) {
		c.add(RuleName, s, "name does not follow the structured naming convention")
	}
	c.text(s, "name", name, true)
	c.text(s, "description", *cv.description, false)
}

// variable checks one variable's causality, variability, initial, start,
// bounds, unit and derivative.
func (c *checker) variable(v *Variable, idx int, units map[string]bool) {
	s := varSubject(v, idx)
	typed := v.Type == TypeReal || v.Type == TypeInteger || v.Type == TypeBoolean || v.Type == TypeString
	okEnums := true
	switch v.EffectiveCausality() {
	case CausalityParameter, CausalityCalculatedParameter, CausalityInput,
		CausalityOutput, CausalityLocal, CausalityIndependent:
	default:
		c.add(RuleCausality, s, "unknown causality %q", v.Causality)
		okEnums = false
	}
	switch v.EffectiveVariability() {
	case VariabilityConstant, VariabilityFixed, VariabilityTunable, VariabilityDiscrete:
	case VariabilityContinuous:
		// Only Reals can change continuously; an Integer/Boolean/String must
		// say discrete (or slower) explicitly.
		if typed && v.Type != TypeReal {
			c.add(RuleVariability, s, "variability continuous (the default when omitted) is allowed only for Real, this is %s", v.Type)
		}
	default:
		c.add(RuleVariability, s, "unknown variability %q", v.Variability)
		okEnums = false
	}
	okEnums = c.initialKnown(s, v.Initial) && okEnums

	if okEnums {
		c.initialAndStart(s, v.EffectiveCausality(), v.EffectiveVariability(), v.Initial, v.Start != "", classify)
	}
	if typed {
		c.startValue(v, s)
		c.bounds(v, s)
	}
	if v.Unit != "" {
		switch {
		case v.Type != TypeReal:
			c.add(RuleUnit, s, "unit %q on a %s variable; only Real has units", v.Unit, v.Type)
		case !units[v.Unit]:
			c.add(RuleUnit, s, "unit %q is not defined in UnitDefinitions", v.Unit)
		}
	}
	c.display(s, v.Unit, v.DisplayUnit, c.md.Units)
	c.text(s, "quantity", v.Quantity, false)
	if v.Derivative != 0 {
		c.derivative(v, idx, s)
	}
}

// initialKnown reports an unknown initial value.
func (c *report) initialKnown(s string, initial Initial) bool {
	switch initial {
	case InitialUnset, InitialExact, InitialApprox, InitialCalculated:
		return true
	}
	c.add(RuleInitial, s, "unknown initial %q", initial)
	return false
}

// initialAndStart checks a variable's causality × variability combination,
// its initial value and whether it has a start value against the table
// cell classify (classify or classify3) finds for the combination.
func (c *report) initialAndStart(s string, cz Causality, va Variability, initial Initial, hasStart bool,
	classify func(Causality, Variability) (initialClass, string)) {
	class, why := classify(cz, va)
	if class == classForbidden {
		c.add(RuleCombination, s, "causality %s with variability %s is not allowed: %s", cz, va, why)
		return // initial and start have no defined meaning then
	}
	switch class {
	case classD: // FMI 2.0 inputs
		if initial != InitialUnset {
			c.add(RuleInitial, s, "initial must not be given for an input")
		}
		if !hasStart {
			c.add(RuleStart, s, "an input needs a start value (used until the environment sets it)")
		}
		return
	case classE: // independent
		if initial != InitialUnset {
			c.add(RuleInitial, s, "initial must not be given for the independent variable")
		}
		if hasStart {
			c.add(RuleStart, s, "the independent variable must not have a start value (it is set by the start time)")
		}
		return
	}
	if initial != InitialUnset && !class.admits(initial) {
		c.add(RuleInitial, s, "initial %s is not allowed for causality %s with variability %s (allowed: %s)",
			initial, cz, va, class.admitted())
		return
	}
	effective := initial
	if effective == InitialUnset {
		effective = class.dflt()
	}
	switch effective {
	case InitialExact, InitialApprox:
		if !hasStart {
			c.add(RuleStart, s, "initial %s (causality %s) requires a start value", effective, cz)
		}
	case InitialCalculated:
		if hasStart {
			c.add(RuleStart, s, "initial calculated forbids a start value")
		}
	}
}

// startValue checks that a start value is in the lexical space of its type,
// which the schema checks too but only after the file is written.
func (c *checker) startValue(v *Variable, s string) {
	if v.Start == "" {
		return
	}
	var ok bool
	switch v.Type {
	case TypeReal:
		ok = isXSDouble(v.Start)
	case TypeInteger:
		_, err := strconv.ParseInt(v.Start, 10, 32)
		ok = err == nil
	case TypeBoolean:
		_, err := parseXSBool(v.Start)
		ok = err == nil
	case TypeString:
		ok = true
		c.text(s, "start", v.Start, false)
	}
	if !ok {
		c.add(RuleStart, s, "start %q is not a valid %s value", v.Start, v.Type)
	}
}

func (c *checker) bounds(v *Variable, s string) {
	if v.Min == nil && v.Max == nil {
		return
	}
	if v.Type != TypeReal && v.Type != TypeInteger {
		c.add(RuleBounds, s, "min/max on a %s variable; only Real and Integer have bounds", v.Type)
		return
	}
	fits := func(x float64) error {
		_, err := formatBound(v.Type, x)
		return err
	}
	if !c.boundsValid(s, v.Min, v.Max, fits) {
		return
	}
	start, err := strconv.ParseFloat(v.Start, 64)
	if v.Start == "" || err != nil || math.IsNaN(start) {
		return // no start, or a malformed one reported by startValue
	}
	if v.Min != nil && start < *v.Min {
		c.add(RuleBounds, s, "start %s is below min %v", v.Start, *v.Min)
	}
	if v.Max != nil && start > *v.Max {
		c.add(RuleBounds, s, "start %s is above max %v", v.Start, *v.Max)
	}
}

// boundsValid checks min and max themselves: not NaN, values of the type
// (fits), max not below min. It reports false after a violation, when
// comparing start values with the bounds would make no sense.
func (c *report) boundsValid(s string, minV, maxV *float64, fits func(float64) error) bool {
	for _, b := range []struct {
		name string
		p    *float64
	}{{"min", minV}, {"max", maxV}} {
		if b.p == nil {
			continue
		}
		if math.IsNaN(*b.p) {
			c.add(RuleBounds, s, "%s is NaN", b.name)
			return false
		}
		if err := fits(*b.p); err != nil {
			c.add(RuleBounds, s, "%s: %v", b.name, err)
			return false
		}
	}
	if minV != nil && maxV != nil && *maxV < *minV {
		c.add(RuleBounds, s, "max %v is below min %v", *maxV, *minV)
		return false
	}
	return true
}

func (c *checker) derivative(v *Variable, idx int, s string) {
	n := len(c.md.Variables)
	switch {
	case v.Type != TypeReal:
		c.add(RuleDerivative, s, "derivative on a %s variable; only Real has derivatives", v.Type)
	case v.Derivative < 1 || v.Derivative > n:
		c.add(RuleDerivative, s, "derivative refers to index %d, outside 1..%d", v.Derivative, n)
	case v.Derivative == idx:
		c.add(RuleDerivative, s, "derivative refers to the variable itself")
	case c.md.Variables[v.Derivative-1].Type != TypeReal:
		c.add(RuleDerivative, s, "derivative refers to %s variable %q; states must be Real",
			c.md.Variables[v.Derivative-1].Type, c.md.Variables[v.Derivative-1].Name)
	}
}

func (c *checker) structure() {
	md := c.md
	n := len(md.Variables)
	st := md.Structure

	var outputs []int
	for i := range md.Variables {
		if md.Variables[i].EffectiveCausality() == CausalityOutput {
			outputs = append(outputs, i+1)
		}
	}
	c.exactList(RuleOutputs, "ModelStructure/Outputs", st.Outputs, outputs, "an output")

	seen := map[int]bool{}
	for _, u := range st.Derivatives {
		const s = "ModelStructure/Derivatives"
		if c.entry(RuleDerivatives, s, u.Index, seen) && md.Variables[u.Index-1].Derivative == 0 {
			c.add(RuleDerivatives, s, "%s has no derivative attribute", c.name(u.Index))
		}
	}

	c.exactList(RuleInitialUnknowns, "ModelStructure/InitialUnknowns", st.InitialUnknowns,
		md.requiredInitialUnknowns(st.Derivatives),
		"an initial unknown (output or state/derivative with initial approx or calculated, or calculatedParameter)")

	states := map[int]bool{}
	for i := range md.Variables {
		if d := md.Variables[i].Derivative; d >= 1 && d <= n {
			states[d] = true
		}
	}
	// Knowns at communication points: inputs, states and the independent variable.
	runKnown := func(idx int) bool {
		cz := md.Variables[idx-1].EffectiveCausality()
		return cz == CausalityInput || cz == CausalityIndependent || states[idx]
	}
	// Knowns in Initialization Mode: inputs, initial=exact and independent.
	initKnown := func(idx int) bool {
		v := &md.Variables[idx-1]
		cz := v.EffectiveCausality()
		return cz == CausalityInput || cz == CausalityIndependent || v.EffectiveInitial() == InitialExact
	}
	c.dependencies("ModelStructure/Outputs", st.Outputs, runKnown, "an input, a state or the independent variable", false)
	c.dependencies("ModelStructure/Derivatives", st.Derivatives, runKnown, "an input, a state or the independent variable", false)
	c.dependencies("ModelStructure/InitialUnknowns", st.InitialUnknowns, initKnown, "an input, a variable with initial exact or the independent variable", true)
}

func (c *checker) name(idx int) string {
	return varSubject(&c.md.Variables[idx-1], idx)
}

// entry reports a ModelStructure entry whose index is out of range or
// already in seen, and adds it to seen. It reports true for a first entry
// with a valid index.
func (c *checker) entry(rule Rule, subject string, idx int, seen map[int]bool) bool {
	n := len(c.md.Variables)
	switch {
	case idx < 1 || idx > n:
		c.add(rule, subject, "index %d outside 1..%d", idx, n)
		return false
	case seen[idx]:
		c.add(rule, subject, "%s listed twice", c.name(idx))
		return false
	}
	seen[idx] = true
	return true
}

// exactList checks that list holds exactly the indices in want, each once,
// in ascending index order (the order DeriveStructure produces).
func (c *checker) exactList(rule Rule, subject string, list []Unknown, want []int, what string) {
	wanted := map[int]bool{}
	for _, w := range want {
		wanted[w] = true
	}
	seen := map[int]bool{}
	last := 0
	ordered := true
	for _, u := range list {
		if !c.entry(rule, subject, u.Index, seen) {
			continue
		}
		if !wanted[u.Index] {
			c.add(rule, subject, "%s is not %s", c.name(u.Index), what)
		}
		if u.Index < last {
			ordered = false
		}
		last = u.Index
	}
	for _, w := range want {
		if !seen[w] {
			c.add(rule, subject, "%s is missing", c.name(w))
		}
	}
	if !ordered {
		c.add(rule, subject, "entries are not in ascending index order")
	}
}

func (c *checker) dependencies(subject string, list []Unknown, known func(int) bool, knownWhat string, initial bool) {
	n := len(c.md.Variables)
	for _, u := range list {
		if u.Index < 1 || u.Index > n {
			continue // reported by the list checks
		}
		s := fmt.Sprintf("%s entry for %s", subject, c.name(u.Index))
		var initialList string
		if initial {
			initialList = "InitialUnknowns"
		}
		dependenciesKind(&c.report, s, u.Dependencies, u.DependenciesKind, initialList, "Real", c.md.Variables[u.Index-1].Type == TypeReal)
		prev := 0
		for _, d := range u.Dependencies {
			switch {
			case d < 1 || d > n:
				c.add(RuleDependencies, s, "dependency index %d outside 1..%d", d, n)
				continue
			case d <= prev:
				c.add(RuleDependencies, s, "dependencies are not strictly ascending at index %d", d)
			case !known(d):
				c.add(RuleDependencies, s, "dependency %s is not %s", c.name(d), knownWhat)
			}
			prev = d
		}
	}
}

// dependenciesKind checks the dependenciesKind of the unknown with subject
// s against its dependencies. initialList names the list when the unknown
// is an initial unknown; float names the types that take factor kinds and
// isFloat says whether the unknown has one of them.
func dependenciesKind[D int | uint32](c *report, s string, deps []D, kinds []string, initialList, float string, isFloat bool) {
	if kinds == nil {
		return
	}
	if deps == nil {
		c.add(RuleDependencies, s, "dependenciesKind given without dependencies")
	} else if len(kinds) != len(deps) {
		c.add(RuleDependencies, s, "%d dependenciesKind for %d dependencies", len(kinds), len(deps))
	}
	for _, k := range kinds {
		switch k {
		case "dependent":
		case "constant", "fixed", "tunable", "discrete":
			// Factors only make sense for Real (Float) unknowns, and in
			// Initialization Mode everything but constants is still being
			// computed.
			if initialList != "" && k != "constant" {
				c.add(RuleDependencies, s, "dependenciesKind %q is not allowed in %s (only dependent or constant)", k, initialList)
			} else if !isFloat {
				c.add(RuleDependencies, s, "dependenciesKind %q needs a %s unknown", k, float)
			}
		default:
			c.add(RuleDependencies, s, "unknown dependenciesKind %q", k)
		}
	}
}

// xs:double and xs:dateTime lexical forms. Compiled regexps are immutable
// and safe for concurrent use.
var (
	xsDoubleRE = regexp.MustCompile(`^(?:[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[+-]?INF|NaN)$`)
	xsDateTime = regexp.MustCompile(`^-?[0-9]{4,}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?(?:Z|[+-][0-9]{2}:[0-9]{2})?$`)
)

func isXSDouble(s string) bool { return xsDoubleRE.MatchString(s) }

func isFinite(f float64) bool { return !math.IsInf(f, 0) && !math.IsNaN(f) }

// validXMLText reports whether s is UTF-8 made only of XML 1.0 characters.
func validXMLText(s string) bool {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, w := utf8.DecodeRuneInString(s[i:]); w == 1 {
				return false
			}
		}
		switch {
		case r == 0x9 || r == 0xA || r == 0xD:
		case r >= 0x20 && r <= 0xD7FF:
		case r >= 0xE000 && r <= 0xFFFD:
		case r >= 0x10000 && r <= 0x10FFFF:
		default:
			return false
		}
	}
	return true
}

func isCIdentifier(s string) bool {
	if s == "" || cKeyword(s) {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'):
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// cKeyword reports C11 keywords, which cannot be identifiers.
func cKeyword(s string) bool {
	switch s {
	case "auto", "break", "case", "char", "const", "continue", "default", "do",
		"double", "else", "enum", "extern", "float", "for", "goto", "if",
		"inline", "int", "long", "register", "restrict", "return", "short",
		"signed", "sizeof", "static", "struct", "switch", "typedef", "union",
		"unsigned", "void", "volatile", "while", "_Alignas", "_Alignof",
		"_Atomic", "_Bool", "_Complex", "_Generic", "_Imaginary", "_Noreturn",
		"_Static_assert", "_Thread_local":
		return true
	}
	return false
}

// isStructuredName checks the FMI 2.0 EBNF for
// variableNamingConvention="structured":
//
//	name       = identifier | "der(" identifier ["," unsignedInteger] ")"
//	identifier = B-name [arrayIndices] {"." B-name [arrayIndices]}
//	B-name     = nondigit {digit | nondigit} | Q-name
//	arrayIndices = "[" unsignedInteger {"," unsignedInteger} "]"
func isStructuredName(s string) bool {
	p := nameParser{s: s}
	if strings.HasPrefix(s, "der(") {
		p.pos = len("der(")
		if !p.identifier() {
			return false
		}
		if p.eat(',') && !p.unsigned() {
			return false
		}
		return p.eat(')') && p.pos == len(s)
	}
	return p.identifier() && p.pos == len(s)
}

type nameParser struct {
	s   string
	pos int
}

func (p *nameParser) peek() byte {
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

func (p *nameParser) eat(b byte) bool {
	if p.peek() == b && p.pos < len(p.s) {
		p.pos++
		return true
	}
	return false
}

func (p *nameParser) identifier() bool {
	for {
		if !p.bname() {
			return false
		}
		if p.peek() == '[' && !p.arrayIndices() {
			return false
		}
		if !p.eat('.') {
			return true
		}
	}
}

func isNondigit(b byte) bool { return b == '_' || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') }
func isDigit(b byte) bool    { return b >= '0' && b <= '9' }

func (p *nameParser) bname() bool {
	if p.eat('\'') {
		return p.qname()
	}
	if !isNondigit(p.peek()) {
		return false
	}
	p.pos++
	for p.pos < len(p.s) && (isNondigit(p.s[p.pos]) || isDigit(p.s[p.pos])) {
		p.pos++
	}
	return true
}

// qname reads the rest of a quoted name after the opening quote.
func (p *nameParser) qname() bool {
	n := 0
	for p.pos < len(p.s) {
		b := p.s[p.pos]
		switch {
		case b == '\'':
			p.pos++
			return n > 0
		case b == '\\':
			if p.pos+1 >= len(p.s) || !strings.ContainsRune(`'"?\abfnrtv`, rune(p.s[p.pos+1])) {
				return false
			}
			p.pos += 2
		case isNondigit(b) || isDigit(b) || strings.IndexByte("!#$%&()*+,-./:;<>=?@[]^{}|~ ", b) >= 0:
			p.pos++
		default:
			return false
		}
		n++
	}
	return false
}

func (p *nameParser) arrayIndices() bool {
	if !p.eat('[') {
		return false
	}
	for {
		if !p.unsigned() {
			return false
		}
		if p.eat(']') {
			return true
		}
		if !p.eat(',') {
			return false
		}
	}
}

func (p *nameParser) unsigned() bool {
	start := p.pos
	for p.pos < len(p.s) && isDigit(p.s[p.pos]) {
		p.pos++
	}
	return p.pos > start
}
