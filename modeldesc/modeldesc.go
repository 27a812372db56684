package modeldesc

import (
	"math"
	"sort"
	"strconv"
)

// FMIVersion2 is the fmiVersion attribute of every FMI 2.0.x description;
// the standard fixes it to "2.0" for all 2.0.x revisions.
const FMIVersion2 = "2.0"

// Causality is the ScalarVariable causality attribute.
type Causality string

// Causalities defined by FMI 2.0. The empty value means the attribute is
// omitted, which the standard reads as CausalityLocal.
const (
	CausalityParameter           Causality = "parameter"
	CausalityCalculatedParameter Causality = "calculatedParameter"
	CausalityInput               Causality = "input"
	CausalityOutput              Causality = "output"
	CausalityLocal               Causality = "local"
	CausalityIndependent         Causality = "independent"
)

// Variability is the ScalarVariable variability attribute.
type Variability string

// Variabilities defined by FMI 2.0. The empty value means the attribute is
// omitted, which the standard reads as VariabilityContinuous.
const (
	VariabilityConstant   Variability = "constant"
	VariabilityFixed      Variability = "fixed"
	VariabilityTunable    Variability = "tunable"
	VariabilityDiscrete   Variability = "discrete"
	VariabilityContinuous Variability = "continuous"
)

// Initial is the ScalarVariable initial attribute.
type Initial string

// Initial values defined by FMI 2.0. InitialUnset omits the attribute; the
// standard then derives it from causality and variability (see
// Variable.EffectiveInitial).
const (
	InitialUnset      Initial = ""
	InitialExact      Initial = "exact"
	InitialApprox     Initial = "approx"
	InitialCalculated Initial = "calculated"
)

// Type is the element name of a ScalarVariable's type child.
type Type string

// Variable types supported by this package (FMI 2.0 Enumeration is not).
const (
	TypeReal    Type = "Real"
	TypeInteger Type = "Integer"
	TypeBoolean Type = "Boolean"
	TypeString  Type = "String"
)

// Variable is one ScalarVariable.
type Variable struct {
	Name           string
	Description    string
	ValueReference uint32
	Causality      Causality   // "" = omitted (local)
	Variability    Variability // "" = omitted (continuous)
	Initial        Initial     // "" = omitted (derived from the table)
	Type           Type

	// Unit names a UnitDefinitions entry; Real only, "" = no unit.
	Unit string
	// Quantity names the physical quantity ("Force", "Length"); Real and
	// Integer, "" = none.
	Quantity string
	// DisplayUnit names one of Unit's display units to show the value in;
	// Real only, "" = the unit itself.
	DisplayUnit string
	// Start is the start attribute exactly as written; "" = no start (so a
	// String variable cannot have the empty string as start value).
	// Use FormatReal, strconv.Itoa and strconv.FormatBool to produce it so
	// that values round-trip.
	Start string
	// Min and Max are optional bounds (Real, or Integer with integral values).
	Min, Max *float64
	// Derivative is the 1-based index of the state this Real variable is the
	// derivative of; 0 = not a derivative.
	Derivative int
}

// BaseUnit expresses a unit in SI base units:
// value_in_base_units = Factor*value + Offset.
type BaseUnit struct {
	Kg, M, S, A, K, Mol, Cd, Rad int
	// Factor 0 stands for the standard's default 1 and is not written; a
	// zero factor would make the unit meaningless, so no information is lost.
	Factor float64
	Offset float64
}

// EffectiveFactor returns Factor with the default applied.
func (b BaseUnit) EffectiveFactor() float64 {
	if b.Factor == 0 {
		return 1
	}
	return b.Factor
}

// Unit is one UnitDefinitions entry.
type Unit struct {
	Name string
	Base BaseUnit
	// NoBase marks a unit of a quantity the SI base units do not measure
	// (megabytes of memory): it has no BaseUnit element, so that no tool
	// converts it into anything.
	NoBase bool
	// Display lists the units a tool may show values in (kN for N).
	Display []DisplayUnit
}

// DisplayUnit is a unit to show a Unit's values in:
// display value = Factor·value + Offset.
type DisplayUnit struct {
	Name string
	// Factor 0 stands for the standard's default 1 and is not written.
	Factor float64
	Offset float64
}

// HasDisplay reports whether the unit defines the display unit name.
func (u Unit) HasDisplay(name string) bool {
	for _, d := range u.Display {
		if d.Name == name {
			return true
		}
	}
	return false
}

// unitNamed returns the unit of that name among units.
func unitNamed(units []Unit, name string) (Unit, bool) {
	for _, u := range units {
		if u.Name == name {
			return u, true
		}
	}
	return Unit{}, false
}

// CoSimulation holds the capability flags of the CoSimulation element.
type CoSimulation struct {
	ModelIdentifier                        string
	NeedsExecutionTool                     bool
	CanHandleVariableCommunicationStepSize bool
	CanInterpolateInputs                   bool
	MaxOutputDerivativeOrder               int
	// The misspelling is the standard's attribute name.
	CanRunAsynchronuously               bool
	CanBeInstantiatedOnlyOncePerProcess bool
	CanNotUseMemoryManagementFunctions  bool
	CanGetAndSetFMUstate                bool
	CanSerializeFMUstate                bool
	ProvidesDirectionalDerivative       bool
}

// DefaultExperiment holds the suggested simulation settings. StartTime is
// always written; the other fields are written only when non-zero, zero
// meaning "not specified".
type DefaultExperiment struct {
	StartTime, StopTime, Tolerance, StepSize float64
}

// LogCategory is one LogCategories/Category entry.
type LogCategory struct {
	Name, Description string
}

// Unknown is one entry of a ModelStructure list.
type Unknown struct {
	// Index is the 1-based position of the variable in Variables.
	Index int
	// Dependencies lists 1-based indices of the knowns the unknown depends
	// on. nil omits the attribute (depends on all knowns); an empty non-nil
	// slice writes dependencies="" (depends on none).
	Dependencies []int
	// DependenciesKind, when non-nil, has one entry per dependency:
	// "dependent", "constant", "fixed", "tunable" or "discrete".
	DependenciesKind []string
}

// ModelStructure holds the ordered lists of the ModelStructure element.
type ModelStructure struct {
	Outputs, Derivatives, InitialUnknowns []Unknown
}

// ModelDescription is the content of modelDescription.xml.
type ModelDescription struct {
	FMIVersion               string // FMIVersion2
	ModelName                string
	GUID                     string
	Description              string
	Author                   string
	Version                  string
	GenerationTool           string
	GenerationDateAndTime    string // xs:dateTime, e.g. time.RFC3339
	VariableNamingConvention string // "", "flat" or "structured"
	NumberOfEventIndicators  int
	CoSimulation             *CoSimulation
	Units                    []Unit
	LogCategories            []LogCategory
	DefaultExperiment        *DefaultExperiment
	Variables                []Variable
	Structure                ModelStructure
}

// EffectiveCausality returns the causality with the standard's default.
func (v *Variable) EffectiveCausality() Causality {
	if v.Causality == "" {
		return CausalityLocal
	}
	return v.Causality
}

// EffectiveVariability returns the variability with the standard's default.
func (v *Variable) EffectiveVariability() Variability {
	if v.Variability == "" {
		return VariabilityContinuous
	}
	return v.Variability
}

// EffectiveInitial returns Initial, or when it is unset the default the
// standard derives from causality and variability. It returns InitialUnset
// for inputs and the independent variable (which have no initial) and for
// combinations the standard does not allow.
func (v *Variable) EffectiveInitial() Initial {
	if v.Initial != InitialUnset {
		return v.Initial
	}
	k, _ := classify(v.EffectiveCausality(), v.EffectiveVariability())
	return k.dflt()
}

// VariableByName returns a pointer into md.Variables, so callers can edit
// the variable in place.
func (md *ModelDescription) VariableByName(name string) (*Variable, bool) {
	i, ok := md.IndexOf(name)
	if !ok {
		return nil, false
	}
	return &md.Variables[i-1], true
}

// IndexOf returns the 1-based ModelVariables index used by ModelStructure.
func (md *ModelDescription) IndexOf(name string) (int, bool) {
	for i := range md.Variables {
		if md.Variables[i].Name == name {
			return i + 1, true
		}
	}
	return 0, false
}

// UnitNames returns the distinct units used by Real variables, sorted, so a
// generator can write md.Units, err = SIUnits(md.UnitNames()...).
func (md *ModelDescription) UnitNames() []string {
	seen := map[string]bool{}
	var names []string
	for _, v := range md.Variables {
		if v.Type == TypeReal && v.Unit != "" && !seen[v.Unit] {
			seen[v.Unit] = true
			names = append(names, v.Unit)
		}
	}
	sort.Strings(names)
	return names
}

// DeriveStructure fills md.Structure from the variables as FMI 2.0 requires:
// Outputs lists every output in index order, Derivatives every Real variable
// with a Derivative attribute, and InitialUnknowns the outputs with initial
// approx or calculated, the calculated parameters and the exposed states and
// derivatives with initial approx or calculated, in index order.
// Dependencies already given for an index that stays in a list are kept, so
// a generator may declare them before or after deriving.
func (md *ModelDescription) DeriveStructure() {
	old := md.Structure
	var s ModelStructure
	for i := range md.Variables {
		v := &md.Variables[i]
		if v.EffectiveCausality() == CausalityOutput {
			s.Outputs = append(s.Outputs, keepDeps(old.Outputs, i+1))
		}
		if v.Type == TypeReal && v.Derivative != 0 {
			s.Derivatives = append(s.Derivatives, keepDeps(old.Derivatives, i+1))
		}
	}
	for _, idx := range md.requiredInitialUnknowns(s.Derivatives) {
		s.InitialUnknowns = append(s.InitialUnknowns, keepDeps(old.InitialUnknowns, idx))
	}
	md.Structure = s
}

func keepDeps(list []Unknown, idx int) Unknown {
	return keep(list, func(u Unknown) bool { return u.Index == idx }, Unknown{Index: idx})
}

// keep returns the first entry of list that matches, so that DeriveStructure
// keeps its dependencies, or else fresh.
func keep[U any](list []U, match func(U) bool, fresh U) U {
	for _, u := range list {
		if match(u) {
			return u
		}
	}
	return fresh
}

// requiredInitialUnknowns returns, ascending and without duplicates, the
// indices FMI 2.0 requires in InitialUnknowns given the exposed derivatives.
func (md *ModelDescription) requiredInitialUnknowns(derivatives []Unknown) []int {
	n := len(md.Variables)
	var positions []int
	for _, d := range derivatives {
		if d.Index >= 1 && d.Index <= n { // others are reported by Check
			positions = append(positions, d.Index-1)
		}
	}
	need := requiredInitial(md.Variables, positions, func(i int) (int, bool) {
		st := md.Variables[i].Derivative
		return st - 1, st >= 1 && st <= n
	})
	var out []int
	for i, x := range need {
		if x {
			out = append(out, i+1)
		}
	}
	return out
}

// effective is what requiredInitial needs of a variable of either version.
type effective interface {
	EffectiveCausality() Causality
	EffectiveInitial() Initial
}

// requiredInitial marks the positions in vars of the variables that must
// be initial unknowns: the outputs with initial approx or calculated, the
// calculated parameters, and of the state derivatives at the given
// positions and of their states (state returns a derivative's state
// position, if any) those with initial approx or calculated.
func requiredInitial[V any, P interface {
	*V
	effective
}](vars []V, derivatives []int, state func(i int) (int, bool)) []bool {
	need := make([]bool, len(vars))
	calculatedOrApprox := func(i int) bool {
		init := P(&vars[i]).EffectiveInitial()
		return init == InitialApprox || init == InitialCalculated
	}
	for i := range vars {
		switch P(&vars[i]).EffectiveCausality() {
		case CausalityOutput:
			need[i] = need[i] || calculatedOrApprox(i)
		case CausalityCalculatedParameter:
			need[i] = true
		}
	}
	for _, i := range derivatives {
		if calculatedOrApprox(i) {
			need[i] = true
		}
		if j, ok := state(i); ok && calculatedOrApprox(j) {
			need[j] = true
		}
	}
	return need
}

// FormatReal formats a Real value as xs:double with the shortest text that
// parses back to the same float64.
func FormatReal(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "INF"
	case math.IsInf(v, -1):
		return "-INF"
	case math.IsNaN(v):
		return "NaN"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// Float returns a pointer to v, for Variable.Min and Variable.Max literals.
func Float(v float64) *float64 { return &v }

// initialClass is a cell class of the FMI 2.0 causality × variability table
// (section 2.2.7): it says which initial values a combination admits and
// which applies when the attribute is omitted.
type initialClass int

const (
	classForbidden initialClass = iota // combination not allowed
	classA                             // initial exact only
	classB                             // approx or calculated; default calculated
	classC                             // exact, approx or calculated; default calculated
	classD                             // no initial (input); start required
	classE                             // no initial (independent); no start
)

// dflt is the initial value implied when the attribute is omitted.
func (k initialClass) dflt() Initial {
	switch k {
	case classA:
		return InitialExact
	case classB, classC:
		return InitialCalculated
	}
	return InitialUnset
}

// admits reports whether an explicit initial value is allowed.
func (k initialClass) admits(in Initial) bool {
	switch k {
	case classA:
		return in == InitialExact
	case classB:
		return in == InitialApprox || in == InitialCalculated
	case classC:
		return in == InitialExact || in == InitialApprox || in == InitialCalculated
	}
	return false
}

func (k initialClass) admitted() string {
	switch k {
	case classA:
		return "exact"
	case classB:
		return "approx or calculated"
	case classC:
		return "exact, approx or calculated"
	}
	return "none"
}

// classify returns the table class of a combination, or classForbidden with
// the table footnote's reason.
func classify(c Causality, v Variability) (initialClass, string) {
	switch c {
	case CausalityParameter, CausalityCalculatedParameter:
		switch v {
		case VariabilityFixed, VariabilityTunable:
			if c == CausalityParameter {
				return classA, ""
			}
			return classB, ""
		case VariabilityConstant:
			return classForbidden, "parameters are set by the environment or calculated, a constant never changes"
		case VariabilityDiscrete, VariabilityContinuous:
			return classForbidden, "parameters must be fixed or tunable"
		}
	case CausalityInput:
		switch v {
		case VariabilityDiscrete, VariabilityContinuous:
			return classD, ""
		case VariabilityConstant:
			return classForbidden, "an input is set by the environment, a constant never changes"
		case VariabilityFixed, VariabilityTunable:
			return classForbidden, "a fixed or tunable input is a parameter; use causality parameter"
		}
	case CausalityOutput:
		switch v {
		case VariabilityConstant:
			return classA, ""
		case VariabilityDiscrete, VariabilityContinuous:
			return classC, ""
		case VariabilityFixed, VariabilityTunable:
			return classForbidden, "a fixed or tunable output is a calculated parameter; use causality calculatedParameter"
		}
	case CausalityLocal:
		switch v {
		case VariabilityConstant:
			return classA, ""
		case VariabilityFixed, VariabilityTunable:
			return classB, ""
		case VariabilityDiscrete, VariabilityContinuous:
			return classC, ""
		}
	case CausalityIndependent:
		switch v {
		case VariabilityContinuous:
			return classE, ""
		case VariabilityConstant, VariabilityFixed, VariabilityTunable, VariabilityDiscrete:
			return classForbidden, "the independent variable must be continuous"
		}
	}
	return classForbidden, "unknown causality or variability"
}
