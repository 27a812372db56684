package modeldesc

import (
	"math"
	"sort"
)

// FMIVersion3 is the fmiVersion attribute of an FMI 3.0 description. The
// standard writes "3.0" for every 3.0.x revision; Marshal always writes it.
const FMIVersion3 = "3.0"

// CausalityStructuralParameter is the FMI 3.0 causality of a parameter that
// may change array sizes (it is referenced by <Dimension valueReference>).
// It is not valid in FMI 2.0 descriptions.
const CausalityStructuralParameter Causality = "structuralParameter"

// Type3 is the element name of an FMI 3.0 variable (the variables are typed
// elements directly under <ModelVariables>).
type Type3 string

// Variable types supported for FMI 3.0. Binary, Enumeration and Clock are not
// modelled. The Boolean and String constants carry a 3 because the FMI 2.0
// names are taken by Type.
const (
	TypeFloat32  Type3 = "Float32"
	TypeFloat64  Type3 = "Float64"
	TypeInt8     Type3 = "Int8"
	TypeUInt8    Type3 = "UInt8"
	TypeInt16    Type3 = "Int16"
	TypeUInt16   Type3 = "UInt16"
	TypeInt32    Type3 = "Int32"
	TypeUInt32   Type3 = "UInt32"
	TypeInt64    Type3 = "Int64"
	TypeUInt64   Type3 = "UInt64"
	TypeBoolean3 Type3 = "Boolean"
	TypeString3  Type3 = "String"
)

// IsFloat reports whether t is Float32 or Float64, the only types that can
// be continuous, have units or be derivatives.
func (t Type3) IsFloat() bool { return t == TypeFloat32 || t == TypeFloat64 }

// IsInteger reports whether t is one of the eight integer types.
func (t Type3) IsInteger() bool {
	_, _, ok := intRange(t)
	return ok
}

func (t Type3) known() bool {
	return t.IsFloat() || t.IsInteger() || t == TypeBoolean3 || t == TypeString3
}

// intRange returns the value range of an integer type. Int64 and UInt64
// are limited further by float64 (see Variable3.Start).
func intRange(t Type3) (lo, hi float64, ok bool) {
	switch t {
	case TypeInt8:
		return math.MinInt8, math.MaxInt8, true
	case TypeUInt8:
		return 0, math.MaxUint8, true
	case TypeInt16:
		return math.MinInt16, math.MaxInt16, true
	case TypeUInt16:
		return 0, math.MaxUint16, true
	case TypeInt32:
		return math.MinInt32, math.MaxInt32, true
	case TypeUInt32:
		return 0, math.MaxUint32, true
	case TypeInt64:
		return -maxExactInt, maxExactInt, true
	case TypeUInt64:
		return 0, maxExactInt, true
	}
	return 0, 0, false
}

// maxExactInt is 2^53, the largest magnitude up to which float64 holds
// every integer, so Int64/UInt64 values in Start, Min and Max are limited
// to ±2^53.
const maxExactInt = 1 << 53

// Dimension3 is one <Dimension> of an array variable: either a fixed size
// (Start > 0) or the size held by a structural parameter or constant of
// type UInt64 (ValueReference). Exactly one must be given. Start 0 means
// "not given", which loses nothing because initial sizes must be positive.
type Dimension3 struct {
	Start          uint64
	ValueReference *uint32
}

// Fixed returns a dimension of constant size n.
func Fixed(n uint64) Dimension3 { return Dimension3{Start: n} }

// SizedBy returns a dimension whose size is the value of the UInt64
// structural parameter (or constant) with value reference vr.
func SizedBy(vr uint32) Dimension3 { return Dimension3{ValueReference: &vr} }

// VR returns a pointer to vr, for Variable3.Derivative literals.
func VR(vr uint32) *uint32 { return &vr }

// Variable3 is one FMI 3.0 variable. As in Variable, causality,
// variability and initial are kept as written ("" = attribute omitted) and
// the Effective* methods apply the standard's defaults.
type Variable3 struct {
	Name           string
	Description    string
	ValueReference uint32
	Causality      Causality   // "" = omitted (local)
	Variability    Variability // "" = omitted (see EffectiveVariability)
	Initial        Initial     // "" = omitted (derived from the table)
	Type           Type3

	// Unit names a UnitDefinitions entry; Float32/Float64 only, "" = none.
	Unit string
	// Quantity names the physical quantity ("Force", "Length"); numeric
	// types, "" = none.
	Quantity string
	// DisplayUnit names one of Unit's display units to show the value in;
	// Float32/Float64 only, "" = the unit itself.
	DisplayUnit string
	// Start holds the start values of numeric and Boolean variables (false
	// = 0, true = 1): one value for a scalar; for an array one value (all
	// elements equal) or one per element in row-major order, written
	// space-separated. nil = no start attribute. Integer values must be
	// integral; Int64/UInt64 values are limited to ±2^53, where float64
	// stops holding every integer.
	Start []float64
	// StringStart holds the start values of a String variable, written as
	// <Start value="..."/> children; nil or empty = no start.
	StringStart []string
	// Min and Max are optional bounds of numeric variables.
	Min, Max *float64
	// Dimensions makes the variable an array, one entry per dimension;
	// nil = scalar.
	Dimensions []Dimension3
	// Derivative is the value reference of the variable this Float variable
	// is the time derivative of; nil = not a derivative.
	Derivative *uint32
}

// IsArray reports whether the variable has dimensions.
func (v *Variable3) IsArray() bool { return len(v.Dimensions) > 0 }

// EffectiveCausality returns the causality with the standard's default.
func (v *Variable3) EffectiveCausality() Causality {
	if v.Causality == "" {
		return CausalityLocal
	}
	return v.Causality
}

// EffectiveVariability returns the variability with the defaults of FMI
// 3.0 as clarified in 3.0.1: fixed for (structural and calculated)
// parameters, otherwise continuous for Float32/Float64 and discrete for the
// other types.
func (v *Variable3) EffectiveVariability() Variability {
	if v.Variability != "" {
		return v.Variability
	}
	switch v.EffectiveCausality() {
	case CausalityParameter, CausalityCalculatedParameter, CausalityStructuralParameter:
		return VariabilityFixed
	}
	if v.Type.IsFloat() {
		return VariabilityContinuous
	}
	return VariabilityDiscrete
}

// EffectiveInitial returns Initial, or when it is unset the default the FMI
// 3.0 table derives from causality and variability. It returns InitialUnset
// for the independent variable (which has no initial) and for combinations
// the standard does not allow. Unlike FMI 2.0, inputs are initial exact.
func (v *Variable3) EffectiveInitial() Initial {
	if v.Initial != InitialUnset {
		return v.Initial
	}
	k, _ := classify3(v.EffectiveCausality(), v.EffectiveVariability())
	return k.dflt()
}

// CoSimulation3 holds the capability flags of the FMI 3.0 CoSimulation
// element. Marshal writes every flag explicitly.
type CoSimulation3 struct {
	ModelIdentifier                     string
	NeedsExecutionTool                  bool
	CanBeInstantiatedOnlyOncePerProcess bool
	CanGetAndSetFMUState                bool
	// Requires CanGetAndSetFMUState.
	CanSerializeFMUState           bool
	ProvidesDirectionalDerivatives bool
	ProvidesAdjointDerivatives     bool
	ProvidesPerElementDependencies bool

	MaxOutputDerivativeOrder               int
	ProvidesIntermediateUpdate             bool
	MightReturnEarlyFromDoStep             bool
	CanReturnEarlyAfterIntermediateUpdate  bool
	HasEventMode                           bool
	ProvidesEvaluateDiscreteStates         bool
	CanHandleVariableCommunicationStepSize bool
	// FixedInternalStepSize is the FMU's internal step; 0 = not written.
	FixedInternalStepSize                  float64
	RecommendedIntermediateInputSmoothness int
}

// Unknown3 is one entry of an FMI 3.0 ModelStructure list. Unlike FMI 2.0,
// unknowns and their dependencies are named by value reference.
type Unknown3 struct {
	ValueReference uint32
	// Dependencies lists the value references of the knowns the unknown
	// depends on. nil omits the attribute (depends on all knowns); an
	// empty non-nil slice writes dependencies="" (depends on none).
	Dependencies []uint32
	// DependenciesKind, when non-nil, has one entry per dependency:
	// "dependent", "constant", "fixed", "tunable" or "discrete".
	DependenciesKind []string
}

// ModelStructure3 holds the ordered lists of the FMI 3.0 ModelStructure
// element (<ClockedState> is not modelled: clocks are not supported).
type ModelStructure3 struct {
	Outputs                    []Unknown3
	ContinuousStateDerivatives []Unknown3
	InitialUnknowns            []Unknown3
	// EventIndicators are kept as given; DeriveStructure does not touch
	// them (Co-Simulation ignores them).
	EventIndicators []Unknown3
}

// ModelDescription3 is the content of an FMI 3.0 modelDescription.xml for a
// Co-Simulation FMU. The fmiVersion is always FMIVersion3.
//
// FMI 3.0 requires exactly one independent variable (usually time, a
// Float64 without start value); add it with IndependentTime. Check reports
// a description without one.
type ModelDescription3 struct {
	ModelName string
	// InstantiationToken replaces the FMI 2.0 guid: the importer passes it
	// to fmi3Instantiate*, which compares it with the binary's.
	InstantiationToken       string
	Description              string
	Author                   string
	Version                  string
	GenerationTool           string
	GenerationDateAndTime    string // xs:dateTime, e.g. time.RFC3339
	VariableNamingConvention string // "", "flat" or "structured"
	CoSimulation             *CoSimulation3
	Units                    []Unit
	LogCategories            []LogCategory
	DefaultExperiment        *DefaultExperiment
	Variables                []Variable3
	Structure                ModelStructure3
}

// IndependentTime returns the independent variable FMI 3.0 requires: a
// continuous Float64 named "time" in seconds, without start value (its
// value comes from fmi3EnterInitializationMode and fmi3DoStep). Its unit
// "s" must be defined; UnitNames lists it.
func IndependentTime(vr uint32) Variable3 {
	return Variable3{
		Name:           "time",
		Description:    "Simulation time",
		ValueReference: vr,
		Causality:      CausalityIndependent,
		Variability:    VariabilityContinuous,
		Type:           TypeFloat64,
		Unit:           "s",
	}
}

// VariableByName returns a pointer into md.Variables, so callers can edit
// the variable in place.
func (md *ModelDescription3) VariableByName(name string) (*Variable3, bool) {
	for i := range md.Variables {
		if md.Variables[i].Name == name {
			return &md.Variables[i], true
		}
	}
	return nil, false
}

// VariableByValueReference returns a pointer into md.Variables to the
// first variable with value reference vr.
func (md *ModelDescription3) VariableByValueReference(vr uint32) (*Variable3, bool) {
	for i := range md.Variables {
		if md.Variables[i].ValueReference == vr {
			return &md.Variables[i], true
		}
	}
	return nil, false
}

// UnitNames returns the distinct units used by Float variables, sorted, so a
// generator can write md.Units, err = SIUnits(md.UnitNames()...).
func (md *ModelDescription3) UnitNames() []string {
	seen := map[string]bool{}
	var names []string
	for _, v := range md.Variables {
		if v.Type.IsFloat() && v.Unit != "" && !seen[v.Unit] {
			seen[v.Unit] = true
			names = append(names, v.Unit)
		}
	}
	sort.Strings(names)
	return names
}

// Elements returns the number of values of v (1 for a scalar), resolving
// dimensions given by value reference through the start value of the
// referenced structural parameter or constant. ok is false when a size
// cannot be resolved or overflows.
func (md *ModelDescription3) Elements(v *Variable3) (n uint64, ok bool) {
	n = 1
	for _, d := range v.Dimensions {
		size, ok := md.dimensionSize(d)
		if !ok {
			return 0, false
		}
		if size != 0 && n > math.MaxUint64/size {
			return 0, false
		}
		n *= size
	}
	return n, true
}

// dimensionSize returns the initial size of one dimension.
func (md *ModelDescription3) dimensionSize(d Dimension3) (uint64, bool) {
	switch {
	case d.ValueReference == nil && d.Start > 0:
		return d.Start, true
	case d.ValueReference != nil && d.Start == 0:
		p, ok := md.VariableByValueReference(*d.ValueReference)
		if !ok || p.Type != TypeUInt64 || p.IsArray() || len(p.Start) != 1 {
			return 0, false
		}
		s := p.Start[0]
		if s < 0 || s != math.Trunc(s) || s > maxExactInt {
			return 0, false
		}
		return uint64(s), true
	}
	return 0, false
}

// DeriveStructure fills md.Structure from the variables as FMI 3.0
// requires, every list in ModelVariables order:
//
//   - Outputs: every variable with causality output;
//   - ContinuousStateDerivatives: every continuous Float variable whose
//     Derivative names a continuous-time state (a continuous Float local
//     or output);
//   - InitialUnknowns: the outputs with initial approx or calculated, the
//     calculated parameters, and the states and state derivatives listed
//     above with initial approx or calculated.
//
// The independent variable is never an unknown; it must be among the
// variables all the same (see IndependentTime). EventIndicators are left
// as they are. Dependencies already given for a value reference that stays
// in a list are kept, so a generator may declare them before or after
// deriving.
func (md *ModelDescription3) DeriveStructure() {
	old := md.Structure
	s := ModelStructure3{EventIndicators: old.EventIndicators}
	for i := range md.Variables {
		v := &md.Variables[i]
		if v.EffectiveCausality() == CausalityOutput {
			s.Outputs = append(s.Outputs, keepDeps3(old.Outputs, v.ValueReference))
		}
		if md.isStateDerivative3(v) {
			s.ContinuousStateDerivatives = append(s.ContinuousStateDerivatives, keepDeps3(old.ContinuousStateDerivatives, v.ValueReference))
		}
	}
	for _, vr := range md.requiredInitialUnknowns3(s.ContinuousStateDerivatives) {
		s.InitialUnknowns = append(s.InitialUnknowns, keepDeps3(old.InitialUnknowns, vr))
	}
	md.Structure = s
}

// isStateDerivative3 reports whether DeriveStructure lists v as a
// continuous state derivative: a continuous Float variable whose derivative
// attribute names a continuous-time state. (An input may also declare
// itself the derivative of another input; that makes no state.)
func (md *ModelDescription3) isStateDerivative3(v *Variable3) bool {
	if !v.Type.IsFloat() || v.Derivative == nil || v.EffectiveVariability() != VariabilityContinuous {
		return false
	}
	st, ok := md.VariableByValueReference(*v.Derivative)
	return ok && st != v && st.Type.IsFloat() && isContinuousState3(st)
}

// isContinuousState3 reports whether x can be a continuous-time state: a
// continuous local or output.
func isContinuousState3(x *Variable3) bool {
	cz := x.EffectiveCausality()
	return (cz == CausalityLocal || cz == CausalityOutput) && x.EffectiveVariability() == VariabilityContinuous
}

func keepDeps3(list []Unknown3, vr uint32) Unknown3 {
	return keep(list, func(u Unknown3) bool { return u.ValueReference == vr }, Unknown3{ValueReference: vr})
}

// requiredInitialUnknowns3 returns, in ModelVariables order and without
// duplicates, the value references FMI 3.0 requires in InitialUnknowns
// given the listed state derivatives.
func (md *ModelDescription3) requiredInitialUnknowns3(derivatives []Unknown3) []uint32 {
	index := md.indexByVR()
	var positions []int
	for _, d := range derivatives {
		if i, ok := index[d.ValueReference]; ok { // others are reported by Check
			positions = append(positions, i)
		}
	}
	need := requiredInitial(md.Variables, positions, func(i int) (int, bool) {
		if st := md.Variables[i].Derivative; st != nil {
			j, ok := index[*st]
			return j, ok
		}
		return 0, false
	})
	var out []uint32
	for i, x := range need {
		if x {
			out = append(out, md.Variables[i].ValueReference)
		}
	}
	return out
}

// indexByVR maps value references to the position of their first variable.
func (md *ModelDescription3) indexByVR() map[uint32]int {
	m := make(map[uint32]int, len(md.Variables))
	for i := range md.Variables {
		if _, dup := m[md.Variables[i].ValueReference]; !dup {
			m[md.Variables[i].ValueReference] = i
		}
	}
	return m
}

// classify3 returns the FMI 3.0 table class of a combination, or
// classForbidden with the table footnote's reason. FMI 3.0 adds the
// structuralParameter column and makes inputs initial exact (class A, start
// required), so classD is not used.
func classify3(c Causality, v Variability) (initialClass, string) {
	switch v {
	case VariabilityConstant, VariabilityFixed, VariabilityTunable, VariabilityDiscrete, VariabilityContinuous:
	default:
		return classForbidden, "unknown causality or variability"
	}
	switch c {
	case CausalityStructuralParameter, CausalityParameter, CausalityCalculatedParameter:
		switch v {
		case VariabilityFixed, VariabilityTunable:
			if c == CausalityCalculatedParameter {
				return classB, ""
			}
			return classA, ""
		case VariabilityConstant:
			return classForbidden, "parameters are set by the environment or calculated, a constant never changes"
		default:
			return classForbidden, "parameters must be fixed or tunable"
		}
	case CausalityInput:
		switch v {
		case VariabilityDiscrete, VariabilityContinuous:
			return classA, ""
		case VariabilityConstant:
			return classForbidden, "an input is set by the environment, a constant never changes"
		default:
			return classForbidden, "a fixed or tunable input is a parameter; use causality parameter"
		}
	case CausalityOutput:
		switch v {
		case VariabilityConstant:
			return classA, ""
		case VariabilityDiscrete, VariabilityContinuous:
			return classC, ""
		default:
			return classForbidden, "a fixed or tunable output is a calculated parameter; use causality calculatedParameter"
		}
	case CausalityLocal:
		switch v {
		case VariabilityConstant:
			return classA, ""
		case VariabilityFixed, VariabilityTunable:
			return classB, ""
		default:
			return classC, ""
		}
	case CausalityIndependent:
		if v == VariabilityContinuous {
			return classE, ""
		}
		return classForbidden, "the independent variable must be continuous"
	}
	return classForbidden, "unknown causality or variability"
}
