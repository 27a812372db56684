package modeldesc

import (
	"errors"
	"fmt"
	"math"
)

// Rules added for FMI 3.0; the other Rule constants apply to both versions
// (RuleDerivatives covers <ContinuousStateDerivative>).
const (
	RuleInstantiationToken Rule = "instantiation-token"              // instantiationToken non-empty
	RuleDimension          Rule = "dimension"                        // array dimensions well formed and resolvable
	RuleEventIndicators    Rule = "model-structure-event-indicators" // event indicators are continuous Float locals/outputs
	// RuleStructureOrder: the ModelStructure lists follow ModelVariables
	// order. FMI 3.0 leaves the order of the lists to the exporter; this
	// package fixes it (as FMI 2.0 did for InitialUnknowns) so that a
	// re-exported FMU keeps its output and state vectors. Filter this rule
	// out when checking descriptions written by other tools.
	RuleStructureOrder Rule = "model-structure-order"
)

// checker3 collects the violations of one ModelDescription3.Check call.
type checker3 struct {
	report
	md    *ModelDescription3
	index map[uint32]int // value reference → position of its first variable
}

func varSubject3(v *Variable3) string {
	return fmt.Sprintf("variable %q (valueReference %d)", v.Name, v.ValueReference)
}

// Check verifies the FMI 3.0 rules that the XML schema cannot express and
// returns the errors.Join of one *Violation per problem found (nil if
// none):
//
//   - header: modelName and instantiationToken non-empty, naming
//     convention, xs:dateTime, text XML can carry;
//   - CoSimulation present, modelIdentifier a C identifier, flags
//     consistent (canSerializeFMUState needs canGetAndSetFMUState), a
//     positive fixedInternalStepSize;
//   - units, log categories and default experiment as in FMI 2.0;
//   - variables: names unique (and structured when declared so), value
//     references unique across all types, the FMI 3.0 causality ×
//     variability × initial table including structuralParameter, start
//     required or forbidden, start values valid for the type and as many
//     as the array has elements, bounds, units defined, derivatives
//     referring to Float variables, exactly one independent variable;
//   - dimensions: exactly one of start (> 0) or valueReference, which must
//     name a scalar UInt64 structural parameter or constant with a
//     positive start value;
//   - ModelStructure: Outputs lists exactly the outputs,
//     ContinuousStateDerivatives only derivatives, InitialUnknowns exactly
//     the required unknowns, each once and in ModelVariables order;
//     dependencies name existing knowns with a valid dependenciesKind.
func (md *ModelDescription3) Check() error {
	c := &checker3{md: md, index: md.indexByVR()}
	cm := md.common()
	c.headerValues(cm, RuleInstantiationToken)
	c.headerText(cm)
	c.coSimulation3()
	c.elements(cm)
	c.variables3()
	c.structure3()
	return errors.Join(c.errs...)
}

func (c *checker3) coSimulation3() {
	cs := c.md.CoSimulation
	const s = coSimulationSubject
	if !coSimulationElement(&c.report, cs, func(cs *CoSimulation3) string { return cs.ModelIdentifier }) {
		return
	}
	if cs.MaxOutputDerivativeOrder < 0 || cs.MaxOutputDerivativeOrder > math.MaxUint32 {
		c.add(RuleCoSimulation, s, "maxOutputDerivativeOrder %d is not an xs:unsignedInt", cs.MaxOutputDerivativeOrder)
	}
	if cs.RecommendedIntermediateInputSmoothness < math.MinInt32 || cs.RecommendedIntermediateInputSmoothness > math.MaxInt32 {
		c.add(RuleCoSimulation, s, "recommendedIntermediateInputSmoothness %d is not an xs:int", cs.RecommendedIntermediateInputSmoothness)
	}
	if cs.CanSerializeFMUState && !cs.CanGetAndSetFMUState {
		c.add(RuleCoSimulation, s, "canSerializeFMUState requires canGetAndSetFMUState")
	}
	if f := cs.FixedInternalStepSize; f < 0 || !isFinite(f) {
		c.add(RuleCoSimulation, s, "fixedInternalStepSize %v is not a positive step", f)
	}
}

func (c *checker3) variables3() {
	md := c.md
	if len(md.Variables) == 0 {
		c.add(RuleVariables, "ModelVariables", "no variables; the schema requires at least one and FMI 3.0 an independent variable")
	}
	units := unitSet(md.Units)
	names := map[string]string{}
	vrs := map[uint32]*Variable3{}
	var independent []*Variable3
	for i := range md.Variables {
		v := &md.Variables[i]
		s := varSubject3(v)
		c.varName(s, v.common(), fmt.Sprintf("the variable with valueReference %d", v.ValueReference), names, md.VariableNamingConvention)
		// FMI 3.0 has one value-reference space for all types (aliases are
		// <Alias> elements, not shared references).
		if prev := vrs[v.ValueReference]; prev != nil {
			c.add(RuleValueReference, s, "valueReference %d already used by %s variable %q", v.ValueReference, prev.Type, prev.Name)
		} else {
			vrs[v.ValueReference] = v
		}
		if !v.Type.known() {
			c.add(RuleType, s, "type %q is not a supported FMI 3.0 variable type (Float32, Float64, [U]Int8..64, Boolean, String)", v.Type)
		}
		if v.EffectiveCausality() == CausalityIndependent {
			independent = append(independent, v)
		}
		c.variable3(v, s, units)
	}
	switch len(independent) {
	case 0:
		if len(md.Variables) > 0 {
			c.add(RuleIndependent, "ModelVariables", "no independent variable; FMI 3.0 requires exactly one (see IndependentTime)")
		}
	case 1:
	default:
		for _, v := range independent[1:] {
			c.add(RuleIndependent, varSubject3(v), "a second independent variable; FMI 3.0 requires exactly one")
		}
	}
	for _, v := range independent {
		if !v.Type.IsFloat() {
			c.add(RuleIndependent, varSubject3(v), "the independent variable must be Float32 or Float64, not %s", v.Type)
		}
		if v.IsArray() {
			c.add(RuleIndependent, varSubject3(v), "the independent variable must be a scalar")
		}
	}
}

// variable3 checks one variable's enumerations, initial and start,
// values, bounds, unit, derivative and dimensions.
func (c *checker3) variable3(v *Variable3, s string, units map[string]bool) {
	okEnums := true
	switch v.EffectiveCausality() {
	case CausalityParameter, CausalityCalculatedParameter, CausalityInput, CausalityOutput,
		CausalityLocal, CausalityIndependent, CausalityStructuralParameter:
	default:
		c.add(RuleCausality, s, "unknown causality %q", v.Causality)
		okEnums = false
	}
	switch v.EffectiveVariability() {
	case VariabilityConstant, VariabilityFixed, VariabilityTunable, VariabilityDiscrete:
	case VariabilityContinuous:
		if v.Type.known() && !v.Type.IsFloat() {
			c.add(RuleVariability, s, "variability continuous is allowed only for Float32 and Float64, this is %s", v.Type)
		}
	default:
		c.add(RuleVariability, s, "unknown variability %q", v.Variability)
		okEnums = false
	}
	okEnums = c.initialKnown(s, v.Initial) && okEnums
	if okEnums {
		hasStart := v.Start != nil || len(v.StringStart) > 0
		c.initialAndStart(s, v.EffectiveCausality(), v.EffectiveVariability(), v.Initial, hasStart, classify3)
	}
	if v.Type.known() {
		c.startValues3(v, s)
		c.bounds3(v, s)
	}
	if v.Unit != "" {
		switch {
		case v.Type.known() && !v.Type.IsFloat():
			c.add(RuleUnit, s, "unit %q on a %s variable; only Float32 and Float64 have units", v.Unit, v.Type)
		case !units[v.Unit]:
			c.add(RuleUnit, s, "unit %q is not defined in UnitDefinitions", v.Unit)
		}
		c.text(s, "unit", v.Unit, true)
	}
	c.display(s, v.Unit, v.DisplayUnit, c.md.Units)
	c.text(s, "quantity", v.Quantity, false)
	if v.Derivative != nil {
		c.derivative3(v, s)
	}
	c.dimensions3(v, s)
}

// startValues3 checks the start values against the type and their number
// against the array size.
func (c *checker3) startValues3(v *Variable3, s string) {
	if v.Type == TypeString3 {
		if v.Start != nil {
			c.add(RuleStart, s, "numeric start on a String variable; String start values go in StringStart")
		}
		for _, x := range v.StringStart {
			c.text(s, "start", x, false)
		}
	} else {
		if len(v.StringStart) > 0 {
			c.add(RuleStart, s, "StringStart on a %s variable; use Start", v.Type)
		}
		for i, x := range v.Start {
			if err := valueFits3(v.Type, x); err != nil {
				c.add(RuleStart, s, "start value %d: %v", i+1, err)
			}
		}
	}
	n := len(v.Start)
	if v.Type == TypeString3 {
		n = len(v.StringStart)
	}
	if n == 0 && v.Start == nil {
		return // no start; whether one is required is initialAndStart3's job
	}
	if !v.IsArray() {
		if n != 1 {
			c.add(RuleStart, s, "a scalar needs exactly one start value, has %d", n)
		}
		return
	}
	size, ok := c.md.Elements(v)
	switch {
	case n == 1:
	case n == 0:
		c.add(RuleStart, s, "start attribute without values")
	case ok && uint64(n) != size:
		c.add(RuleStart, s, "%d start values for an array of %d elements (give 1 or %d)", n, size, size)
	}
}

// valueFits3 reports a start or bound value the type cannot hold.
func valueFits3(t Type3, x float64) error {
	switch {
	case t == TypeFloat32:
		if isFinite(x) && math.Abs(x) > math.MaxFloat32 {
			return fmt.Errorf("%v is outside the Float32 range", x)
		}
		return nil
	case t.IsFloat():
		return nil
	}
	_, err := formatValue3(t, x)
	return err
}

func (c *checker3) bounds3(v *Variable3, s string) {
	if v.Min == nil && v.Max == nil {
		return
	}
	if v.Type == TypeBoolean3 || v.Type == TypeString3 {
		c.add(RuleBounds, s, "min/max on a %s variable; only numeric types have bounds", v.Type)
		return
	}
	if !c.boundsValid(s, v.Min, v.Max, func(x float64) error { return valueFits3(v.Type, x) }) {
		return
	}
	// One violation per bound, naming the first offending value, so that a
	// wrong bound on a large array does not flood the report.
	for _, b := range []struct {
		what  string
		bound *float64
		out   func(x, b float64) bool
	}{
		{"below min", v.Min, func(x, b float64) bool { return x < b }},
		{"above max", v.Max, func(x, b float64) bool { return x > b }},
	} {
		if b.bound == nil {
			continue
		}
		first, n := -1, 0
		for i, x := range v.Start {
			if b.out(x, *b.bound) { // false for NaN
				if first < 0 {
					first = i
				}
				n++
			}
		}
		switch {
		case n == 1:
			c.add(RuleBounds, s, "start value %d (%v) is %s %v", first+1, v.Start[first], b.what, *b.bound)
		case n > 1:
			c.add(RuleBounds, s, "start value %d (%v) is %s %v, and %d more of %d values", first+1, v.Start[first], b.what, *b.bound, n-1, len(v.Start))
		}
	}
}

func (c *checker3) derivative3(v *Variable3, s string) {
	if v.Type.known() && !v.Type.IsFloat() {
		c.add(RuleDerivative, s, "derivative on a %s variable; only Float32 and Float64 have derivatives", v.Type)
		return
	}
	i, ok := c.index[*v.Derivative]
	switch {
	case !ok:
		c.add(RuleDerivative, s, "derivative refers to valueReference %d, which no variable has", *v.Derivative)
	case *v.Derivative == v.ValueReference:
		c.add(RuleDerivative, s, "derivative refers to the variable itself")
	case !c.md.Variables[i].Type.IsFloat():
		st := &c.md.Variables[i]
		c.add(RuleDerivative, s, "derivative refers to %s variable %q; only Float32 and Float64 variables have derivatives", st.Type, st.Name)
	}
}

func (c *checker3) dimensions3(v *Variable3, s string) {
	for k, d := range v.Dimensions {
		ds := fmt.Sprintf("%s Dimension %d", s, k+1)
		switch {
		case d.Start == 0 && d.ValueReference == nil:
			c.add(RuleDimension, ds, "neither start nor valueReference given")
			continue
		case d.Start != 0 && d.ValueReference != nil:
			c.add(RuleDimension, ds, "start and valueReference are mutually exclusive")
			continue
		case d.ValueReference == nil:
			continue // a fixed positive size
		}
		vr := *d.ValueReference
		i, ok := c.index[vr]
		if !ok {
			c.add(RuleDimension, ds, "valueReference %d names no variable", vr)
			continue
		}
		p := &c.md.Variables[i]
		switch {
		case p.Type != TypeUInt64:
			c.add(RuleDimension, ds, "size variable %q is %s; it must be UInt64", p.Name, p.Type)
		case p.EffectiveCausality() != CausalityStructuralParameter && p.EffectiveVariability() != VariabilityConstant:
			c.add(RuleDimension, ds, "size variable %q must be a structural parameter or a constant, is causality %s, variability %s",
				p.Name, p.EffectiveCausality(), p.EffectiveVariability())
		case p.IsArray():
			c.add(RuleDimension, ds, "size variable %q must be a scalar", p.Name)
		case len(p.Start) != 1 || !(p.Start[0] > 0):
			c.add(RuleDimension, ds, "size variable %q needs a positive start value (initial sizes must not vanish)", p.Name)
		}
	}
}

func (c *checker3) name3(vr uint32) string {
	if i, ok := c.index[vr]; ok {
		return varSubject3(&c.md.Variables[i])
	}
	return fmt.Sprintf("valueReference %d", vr)
}

func (c *checker3) structure3() {
	md := c.md
	st := &md.Structure

	var outputs []uint32
	for i := range md.Variables {
		if md.Variables[i].EffectiveCausality() == CausalityOutput {
			outputs = append(outputs, md.Variables[i].ValueReference)
		}
	}
	c.exactList3(RuleOutputs, "ModelStructure/Output", st.Outputs, outputs, "an output")

	// Derivatives need not all be exposed by a Co-Simulation FMU, but every
	// one listed must be the derivative of a Float variable.
	seen := map[uint32]bool{}
	for _, u := range st.ContinuousStateDerivatives {
		const s = "ModelStructure/ContinuousStateDerivative"
		i, ok := c.entry3(RuleDerivatives, s, u.ValueReference, seen)
		if !ok {
			continue
		}
		switch {
		case md.Variables[i].Derivative == nil:
			c.add(RuleDerivatives, s, "%s has no derivative attribute", c.name3(u.ValueReference))
		case !md.Variables[i].Type.IsFloat() || md.Variables[i].EffectiveVariability() != VariabilityContinuous:
			c.add(RuleDerivatives, s, "%s is not a continuous Float variable", c.name3(u.ValueReference))
		default:
			// The derivative attribute names the continuous-time state,
			// which must be a continuous local or output.
			if j, ok := c.index[*md.Variables[i].Derivative]; ok {
				x := &md.Variables[j]
				if x.Type.IsFloat() && !isContinuousState3(x) { // non-Float: see RuleDerivative
					c.add(RuleDerivatives, s, "%s is the derivative of %s, which as a continuous-time state must be a continuous local or output, not %s %s",
						c.name3(u.ValueReference), c.name3(x.ValueReference), x.EffectiveVariability(), x.EffectiveCausality())
				}
			}
		}
	}
	c.order3("ModelStructure/ContinuousStateDerivative", st.ContinuousStateDerivatives)

	c.exactList3(RuleInitialUnknowns, "ModelStructure/InitialUnknown", st.InitialUnknowns,
		md.requiredInitialUnknowns3(st.ContinuousStateDerivatives),
		"an initial unknown (output or state/derivative with initial approx or calculated, or calculatedParameter)")

	seen = map[uint32]bool{}
	for _, u := range st.EventIndicators {
		const s = "ModelStructure/EventIndicator"
		if i, ok := c.entry3(RuleEventIndicators, s, u.ValueReference, seen); ok {
			v := &md.Variables[i]
			cz := v.EffectiveCausality()
			if !v.Type.IsFloat() || v.EffectiveVariability() != VariabilityContinuous || (cz != CausalityLocal && cz != CausalityOutput) {
				c.add(RuleEventIndicators, s, "%s must be a continuous Float variable with causality local or output", c.name3(u.ValueReference))
			}
		}
	}

	states := map[uint32]bool{}
	for _, u := range st.ContinuousStateDerivatives {
		if i, ok := c.index[u.ValueReference]; ok && md.Variables[i].Derivative != nil {
			states[*md.Variables[i].Derivative] = true
		}
	}
	// Knowns at communication points: inputs, continuous-time states, the
	// independent variable and, as FMI 3.0.2 clarifies, parameters.
	runKnown := func(v *Variable3) bool {
		switch v.EffectiveCausality() {
		case CausalityInput, CausalityIndependent, CausalityParameter, CausalityStructuralParameter:
			return true
		}
		return states[v.ValueReference]
	}
	// Knowns in Initialization Mode: inputs, the independent variable and
	// variables with initial exact (parameters, initial states, ...).
	initKnown := func(v *Variable3) bool {
		cz := v.EffectiveCausality()
		return cz == CausalityInput || cz == CausalityIndependent || v.EffectiveInitial() == InitialExact
	}
	const runWhat = "an input, a continuous-time state, a parameter or the independent variable"
	c.dependencies3("ModelStructure/Output", st.Outputs, runKnown, runWhat, false)
	c.dependencies3("ModelStructure/ContinuousStateDerivative", st.ContinuousStateDerivatives, runKnown, runWhat, false)
	c.dependencies3("ModelStructure/InitialUnknown", st.InitialUnknowns, initKnown,
		"an input, a variable with initial exact or the independent variable", true)
}

// entry3 reports a ModelStructure entry whose value reference names no
// variable or is already in seen, and adds it to seen. For a first entry
// naming a variable it returns the variable's position and true.
func (c *checker3) entry3(rule Rule, subject string, vr uint32, seen map[uint32]bool) (int, bool) {
	i, ok := c.index[vr]
	first := !seen[vr]
	seen[vr] = true
	switch {
	case !ok:
		c.add(rule, subject, "valueReference %d names no variable", vr)
		return 0, false
	case !first:
		c.add(rule, subject, "%s listed twice", c.name3(vr))
		return 0, false
	}
	return i, true
}

// exactList3 checks that list holds exactly the value references in want
// (given in ModelVariables order), each once, in ModelVariables order.
func (c *checker3) exactList3(rule Rule, subject string, list []Unknown3, want []uint32, what string) {
	wanted := map[uint32]bool{}
	for _, w := range want {
		wanted[w] = true
	}
	seen := map[uint32]bool{}
	for _, u := range list {
		if _, ok := c.entry3(rule, subject, u.ValueReference, seen); ok && !wanted[u.ValueReference] {
			c.add(rule, subject, "%s is not %s", c.name3(u.ValueReference), what)
		}
	}
	for _, w := range want {
		if !seen[w] {
			c.add(rule, subject, "%s is missing", c.name3(w))
		}
	}
	c.order3(subject, list)
}

// order3 reports a list whose known entries are not in ModelVariables
// order (RuleStructureOrder).
func (c *checker3) order3(subject string, list []Unknown3) {
	last := -1
	for _, u := range list {
		i, ok := c.index[u.ValueReference]
		if !ok {
			continue
		}
		if i < last {
			c.add(RuleStructureOrder, subject, "%s comes after a variable declared later; list entries in ModelVariables order", c.name3(u.ValueReference))
			return
		}
		last = i
	}
}

func (c *checker3) dependencies3(subject string, list []Unknown3, known func(*Variable3) bool, knownWhat string, initial bool) {
	for _, u := range list {
		i, ok := c.index[u.ValueReference]
		if !ok {
			continue // reported by the list checks
		}
		unknown := &c.md.Variables[i]
		s := fmt.Sprintf("%s entry for %s", subject, varSubject3(unknown))
		var initialList string
		if initial {
			initialList = "InitialUnknown"
		}
		dependenciesKind(&c.report, s, u.Dependencies, u.DependenciesKind, initialList, "Float", unknown.Type.IsFloat())
		dup := map[uint32]bool{}
		for _, d := range u.Dependencies {
			j, ok := c.index[d]
			switch {
			case !ok:
				c.add(RuleDependencies, s, "dependency valueReference %d names no variable", d)
			case dup[d]:
				c.add(RuleDependencies, s, "dependency %s listed twice", c.name3(d))
			case !known(&c.md.Variables[j]):
				c.add(RuleDependencies, s, "dependency %s is not %s", c.name3(d), knownWhat)
			}
			dup[d] = true
		}
	}
}
