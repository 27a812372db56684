package modeldesc

import (
	"math"
	"strings"
	"testing"
)

func TestRepresentative3IsValid(t *testing.T) {
	if err := Representative3().Check(); err != nil {
		t.Fatalf("fixture must pass Check:\n%v", err)
	}
}

// v3 returns the named variable of md for in-place edits.
func v3(md *ModelDescription3, name string) *Variable3 {
	p, ok := md.VariableByName(name)
	if !ok {
		panic("no variable " + name)
	}
	return p
}

// unknown3 returns the entry for vr in list for in-place edits.
func unknown3(list []Unknown3, vr uint32) *Unknown3 {
	for i := range list {
		if list[i].ValueReference == vr {
			return &list[i]
		}
	}
	panic("no unknown for the value reference")
}

func repeat(x float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = x
	}
	return out
}

func TestCheck3Rules(t *testing.T) {
	tests := []struct {
		name    string
		mutate  func(md *ModelDescription3)
		want    []Rule // exactly these rules must fire
		subject string // the text of some wanted violation must contain this
	}{
		// Top level.
		{"empty modelName", func(md *ModelDescription3) { md.ModelName = " " }, []Rule{RuleModelName}, "fmiModelDescription"},
		{"empty instantiationToken", func(md *ModelDescription3) { md.InstantiationToken = "" }, []Rule{RuleInstantiationToken}, "fmiModelDescription"},
		{"instantiationToken with line break", func(md *ModelDescription3) { md.InstantiationToken = "{a}\n" }, []Rule{RuleXMLText}, "fmiModelDescription"},
		{"naming convention", func(md *ModelDescription3) { md.VariableNamingConvention = "dotted" }, []Rule{RuleAttribute}, "fmiModelDescription"},
		{"generation date", func(md *ModelDescription3) { md.GenerationDateAndTime = "2024-05-01 12:00" }, []Rule{RuleAttribute}, "fmiModelDescription"},
		{"control character in author", func(md *ModelDescription3) { md.Author = "bell\x07" }, []Rule{RuleXMLText}, "fmiModelDescription"},

		// CoSimulation.
		{"no CoSimulation", func(md *ModelDescription3) { md.CoSimulation = nil }, []Rule{RuleCoSimulation}, "CoSimulation"},
		{"modelIdentifier starts with digit", func(md *ModelDescription3) { md.CoSimulation.ModelIdentifier = "1Cable" }, []Rule{RuleCoSimulation}, "CoSimulation"},
		{"modelIdentifier is a keyword", func(md *ModelDescription3) { md.CoSimulation.ModelIdentifier = "static" }, []Rule{RuleCoSimulation}, "CoSimulation"},
		{"serialize without get/set", func(md *ModelDescription3) { md.CoSimulation.CanGetAndSetFMUState = false }, []Rule{RuleCoSimulation}, "CoSimulation"},
		{"negative internal step", func(md *ModelDescription3) { md.CoSimulation.FixedInternalStepSize = -1e-3 }, []Rule{RuleCoSimulation}, "CoSimulation"},
		{"negative derivative order", func(md *ModelDescription3) { md.CoSimulation.MaxOutputDerivativeOrder = -1 }, []Rule{RuleCoSimulation}, "CoSimulation"},
		{"no internal step is fine", func(md *ModelDescription3) { md.CoSimulation.FixedInternalStepSize = 0 }, nil, ""},

		// Parts shared with FMI 2.0.
		{"duplicate unit", func(md *ModelDescription3) { md.Units = append(md.Units, md.Units[1]) }, []Rule{RuleUnitDefinition}, `unit "N"`},
		{"duplicate log category", func(md *ModelDescription3) { md.LogCategories[2].Name = "logStatusError" }, []Rule{RuleLogCategory}, `"logStatusError"`},
		{"stop before start", func(md *ModelDescription3) { md.DefaultExperiment.StartTime = 30 }, []Rule{RuleDefaultExperiment}, "DefaultExperiment"},

		// Names, value references and types.
		{"no variables", func(md *ModelDescription3) { md.Variables = nil; md.Structure = ModelStructure3{} }, []Rule{RuleVariables}, "ModelVariables"},
		{"duplicate name", func(md *ModelDescription3) { v3(md, "cable.EA").Name = "cable.length" }, []Rule{RuleName}, `"cable.length" (valueReference 2)`},
		{"structured name malformed", func(md *ModelDescription3) { v3(md, "cable.EA").Name = "cable..EA" }, []Rule{RuleName}, `"cable..EA"`},
		{"name with tab", func(md *ModelDescription3) {
			md.VariableNamingConvention = "flat"
			v3(md, "cable.EA").Name = "cable\tEA"
		}, []Rule{RuleXMLText}, "(valueReference 2)"},
		{"value references span all types", func(md *ModelDescription3) { v3(md, "winch.brake").ValueReference = 2 }, []Rule{RuleValueReference}, `"winch.brake"`},
		{"unsupported type", func(md *ModelDescription3) { v3(md, "solver.label").Type = "Binary" }, []Rule{RuleType}, `"solver.label"`},

		// Enumerations and the FMI 3.0 causality × variability table.
		{"unknown causality", func(md *ModelDescription3) { v3(md, "cable.EA").Causality = "constant" }, []Rule{RuleCausality}, `"cable.EA"`},
		{"unknown variability", func(md *ModelDescription3) { v3(md, "cable.EA").Variability = "sometimes" }, []Rule{RuleVariability}, `"cable.EA"`},
		{"unknown initial", func(md *ModelDescription3) { v3(md, "cable.EA").Initial = "exactly" }, []Rule{RuleInitial}, `"cable.EA"`},
		{"constant parameter", func(md *ModelDescription3) { v3(md, "cable.EA").Variability = VariabilityConstant }, []Rule{RuleCombination}, `"cable.EA"`},
		{"discrete structural parameter", func(md *ModelDescription3) { v3(md, "cable.segments").Variability = VariabilityDiscrete }, []Rule{RuleCombination}, `"cable.segments"`},
		{"fixed input", func(md *ModelDescription3) { v3(md, "winch.speed").Variability = VariabilityFixed }, []Rule{RuleCombination}, `"winch.speed"`},
		{"tunable output", func(md *ModelDescription3) { v3(md, "hook.velocity").Variability = VariabilityTunable }, []Rule{RuleCombination}, `"hook.velocity"`},
		{"discrete independent", func(md *ModelDescription3) { v3(md, "time").Variability = VariabilityDiscrete }, []Rule{RuleCombination}, `"time"`},
		{"continuous Int32", func(md *ModelDescription3) { v3(md, "solver.substeps").Variability = VariabilityContinuous }, []Rule{RuleVariability}, `"solver.substeps"`},
		{"omitted variability: parameter is fixed", func(md *ModelDescription3) { v3(md, "cable.EA").Variability = "" }, nil, ""},
		{"omitted variability: Boolean input is discrete", func(md *ModelDescription3) { v3(md, "winch.brake").Variability = "" }, nil, ""},
		{"omitted variability: Float output is continuous", func(md *ModelDescription3) { v3(md, "hook.position").Variability = "" }, nil, ""},

		// initial per table class.
		{"parameter approx", func(md *ModelDescription3) { v3(md, "cable.EA").Initial = InitialApprox }, []Rule{RuleInitial}, `"cable.EA"`},
		{"structural parameter calculated", func(md *ModelDescription3) { v3(md, "cable.segments").Initial = InitialCalculated }, []Rule{RuleInitial}, `"cable.segments"`},
		{"calculatedParameter exact", func(md *ModelDescription3) { v3(md, "cable.totalMass").Initial = InitialExact }, []Rule{RuleInitial}, `"cable.totalMass"`},
		{"input approx", func(md *ModelDescription3) { v3(md, "winch.speed").Initial = InitialApprox }, []Rule{RuleInitial}, `"winch.speed"`},
		{"input exact is FMI 3.0", func(md *ModelDescription3) { v3(md, "winch.speed").Initial = InitialExact }, nil, ""},
		{"independent with initial", func(md *ModelDescription3) { v3(md, "time").Initial = InitialCalculated }, []Rule{RuleInitial}, `"time"`},
		{"constant calculated", func(md *ModelDescription3) { v3(md, "g").Initial = InitialCalculated }, []Rule{RuleInitial}, `"g"`},

		// start: presence.
		{"parameter without start", func(md *ModelDescription3) { v3(md, "cable.EA").Start = nil }, []Rule{RuleStart}, `"cable.EA"`},
		{"String parameter without start", func(md *ModelDescription3) { v3(md, "solver.label").StringStart = nil }, []Rule{RuleStart}, `"solver.label"`},
		{"structural parameter without start", func(md *ModelDescription3) { v3(md, "cable.segments").Start = nil }, []Rule{RuleStart, RuleDimension}, `"cable.segments"`},
		{"input without start", func(md *ModelDescription3) { v3(md, "winch.brake").Start = nil }, []Rule{RuleStart}, `"winch.brake"`},
		{"approx without start", func(md *ModelDescription3) { v3(md, "cable.tension").Start = nil }, []Rule{RuleStart}, `"cable.tension"`},
		{"calculated output with start", func(md *ModelDescription3) { v3(md, "hook.position").Start = []float64{1} }, []Rule{RuleStart}, `"hook.position"`},
		{"independent with start", func(md *ModelDescription3) { v3(md, "time").Start = []float64{0} }, []Rule{RuleStart}, `"time"`},

		// start: number of values.
		{"scalar with two start values", func(md *ModelDescription3) { v3(md, "cable.length").Start = []float64{50, 60} }, []Rule{RuleStart}, `"cable.length"`},
		{"empty start attribute", func(md *ModelDescription3) { v3(md, "cable.length").Start = []float64{} }, []Rule{RuleStart}, `"cable.length"`},
		{"fixed array with one start value short", func(md *ModelDescription3) {
			p := v3(md, "nodes.initialPosition")
			p.Start = p.Start[1:]
		}, []Rule{RuleStart}, "62 start values for an array of 63 elements"},
		{"one start value for a whole array", func(md *ModelDescription3) { v3(md, "nodes.initialPosition").Start = []float64{0} }, nil, ""},
		{"array sized by structural parameter", func(md *ModelDescription3) {
			p := v3(md, "segments.strain")
			p.Initial, p.Start = InitialApprox, repeat(0, fixtureSegments)
		}, nil, ""},
		{"array sized by structural parameter, start short", func(md *ModelDescription3) {
			p := v3(md, "segments.strain")
			p.Initial, p.Start = InitialApprox, repeat(0, fixtureSegments-1)
			md.DeriveStructure()
		}, []Rule{RuleStart}, `"segments.strain"`},

		// start: values per type.
		{"Int32 start fractional", func(md *ModelDescription3) { v3(md, "solver.substeps").Start = []float64{2.5} }, []Rule{RuleStart}, `"solver.substeps"`},
		{"Int8 start out of range", func(md *ModelDescription3) {
			p := v3(md, "solver.substeps")
			p.Type, p.Start = TypeInt8, []float64{200}
		}, []Rule{RuleStart}, `"solver.substeps"`},
		{"UInt64 start beyond 2^53", func(md *ModelDescription3) {
			p := v3(md, "cable.segments")
			p.Start, p.Max = []float64{1 << 60}, nil
		}, []Rule{RuleStart}, `"cable.segments"`},
		{"Boolean start 2", func(md *ModelDescription3) { v3(md, "winch.brake").Start = []float64{2} }, []Rule{RuleStart}, `"winch.brake"`},
		{"Float32 start beyond range", func(md *ModelDescription3) { v3(md, "solver.relaxation").Start = []float64{1e39} }, []Rule{RuleStart}, `"solver.relaxation"`},
		{"Float32 infinity is a value", func(md *ModelDescription3) { v3(md, "solver.relaxation").Start = []float64{math.Inf(1)} }, nil, ""},
		{"numeric start on String", func(md *ModelDescription3) { v3(md, "solver.label").Start = []float64{1} }, []Rule{RuleStart}, `"solver.label"`},
		{"StringStart on Float64", func(md *ModelDescription3) { v3(md, "cable.length").StringStart = []string{"50"} }, []Rule{RuleStart}, `"cable.length"`},
		{"String start XML cannot carry", func(md *ModelDescription3) { v3(md, "solver.label").StringStart = []string{"bell\x07"} }, []Rule{RuleXMLText}, `"solver.label"`},
		{"String start may be empty", func(md *ModelDescription3) { v3(md, "solver.label").StringStart = []string{""} }, nil, ""},

		// Bounds.
		{"max below min", func(md *ModelDescription3) { v3(md, "cable.EA").Max = Float(0.5) }, []Rule{RuleBounds}, `"cable.EA"`},
		{"start below min", func(md *ModelDescription3) { v3(md, "cable.length").Start = []float64{-1} }, []Rule{RuleBounds}, `"cable.length"`},
		{"array element below min", func(md *ModelDescription3) { v3(md, "nodes.initialPosition").Min = Float(-10) }, []Rule{RuleBounds}, "start value 18 (-12.5) is below min -10, and 15 more of 63 values"},
		{"NaN min", func(md *ModelDescription3) { v3(md, "cable.length").Min = Float(math.NaN()) }, []Rule{RuleBounds}, `"cable.length"`},
		{"fractional Int32 bound", func(md *ModelDescription3) { v3(md, "solver.substeps").Min = Float(0.5) }, []Rule{RuleBounds}, `"solver.substeps"`},
		{"bounds on Boolean", func(md *ModelDescription3) { v3(md, "winch.brake").Max = Float(1) }, []Rule{RuleBounds}, `"winch.brake"`},

		// Units on variables.
		{"undefined unit", func(md *ModelDescription3) { v3(md, "cable.EA").Unit = "kN.m" }, []Rule{RuleUnit}, `"cable.EA"`},
		{"unit on Int32", func(md *ModelDescription3) { v3(md, "solver.substeps").Unit = "m" }, []Rule{RuleUnit}, `"solver.substeps"`},
		{"no unit is fine", func(md *ModelDescription3) { v3(md, "cable.EA").Unit = "" }, nil, ""},

		// The independent variable.
		{"no independent variable", func(md *ModelDescription3) { md.Variables = md.Variables[1:] }, []Rule{RuleIndependent}, "IndependentTime"},
		{"two independents", func(md *ModelDescription3) { v3(md, "hook.acceleration").Causality = CausalityIndependent }, []Rule{RuleIndependent}, `"hook.acceleration"`},
		{"Int32 independent", func(md *ModelDescription3) {
			p := v3(md, "time")
			p.Type, p.Unit = TypeInt32, ""
		}, []Rule{RuleIndependent, RuleVariability}, `"time"`},
		{"array independent", func(md *ModelDescription3) { v3(md, "time").Dimensions = []Dimension3{Fixed(2)} }, []Rule{RuleIndependent}, `"time"`},
		{"Float32 independent", func(md *ModelDescription3) { v3(md, "time").Type = TypeFloat32 }, nil, ""},

		// Derivatives. Breaking der(hook.position) also stops hook.position
		// being a state, so the tension output's dependency on it becomes
		// invalid too.
		{"derivative of a missing variable", func(md *ModelDescription3) { v3(md, "der(hook.position)").Derivative = VR(99) }, []Rule{RuleDerivative, RuleDependencies}, `"der(hook.position)"`},
		{"derivative of itself", func(md *ModelDescription3) { v3(md, "der(hook.position)").Derivative = VR(17) }, []Rule{RuleDerivative, RuleDependencies}, `"der(hook.position)"`},
		{"derivative of an Int32", func(md *ModelDescription3) { v3(md, "der(hook.position)").Derivative = VR(15) }, []Rule{RuleDerivative, RuleDependencies}, `"der(hook.position)"`},
		{"derivative on a String", func(md *ModelDescription3) { v3(md, "solver.message").Derivative = VR(8) }, []Rule{RuleDerivative}, `"solver.message"`},

		// Dimensions.
		{"dimension without size", func(md *ModelDescription3) { v3(md, "nodes.position").Dimensions[0] = Dimension3{} }, []Rule{RuleDimension}, `"nodes.position" (valueReference 11) Dimension 1`},
		{"dimension with start and valueReference", func(md *ModelDescription3) {
			v3(md, "nodes.position").Dimensions[1] = Dimension3{Start: 3, ValueReference: VR(3)}
		}, []Rule{RuleDimension}, "Dimension 2"},
		{"dimension naming no variable", func(md *ModelDescription3) { v3(md, "segments.strain").Dimensions[0] = SizedBy(99) }, []Rule{RuleDimension}, `"segments.strain"`},
		{"dimension sized by an Int32", func(md *ModelDescription3) { v3(md, "segments.strain").Dimensions[0] = SizedBy(15) }, []Rule{RuleDimension}, `"solver.substeps" is Int32`},
		{"dimension sized by a plain parameter", func(md *ModelDescription3) { v3(md, "cable.segments").Causality = CausalityParameter }, []Rule{RuleDimension}, "structural parameter or a constant"},
		{"dimension sized by a constant", func(md *ModelDescription3) {
			p := v3(md, "cable.segments")
			p.Causality, p.Variability = CausalityLocal, VariabilityConstant
		}, nil, ""},
		{"dimension sized by an array", func(md *ModelDescription3) { v3(md, "cable.segments").Dimensions = []Dimension3{Fixed(1)} }, []Rule{RuleDimension}, "must be a scalar"},
		{"dimension sized by a zero start", func(md *ModelDescription3) {
			p := v3(md, "cable.segments")
			p.Start, p.Min = []float64{0}, Float(0)
		}, []Rule{RuleDimension}, "positive start value"},

		// ModelStructure/Output.
		{"output missing", func(md *ModelDescription3) { md.Structure.Outputs = md.Structure.Outputs[1:] }, []Rule{RuleOutputs}, `"hook.position" (valueReference 8) is missing`},
		{"non-output listed", func(md *ModelDescription3) {
			md.Structure.Outputs = append(md.Structure.Outputs, Unknown3{ValueReference: 14})
		}, []Rule{RuleOutputs}, `"hook.acceleration"`},
		{"outputs out of order", func(md *ModelDescription3) {
			o := md.Structure.Outputs
			o[0], o[1] = o[1], o[0]
		}, []Rule{RuleStructureOrder}, "ModelStructure/Output"},
		{"output twice", func(md *ModelDescription3) {
			md.Structure.Outputs = append(md.Structure.Outputs, Unknown3{ValueReference: 13})
		}, []Rule{RuleOutputs}, "listed twice"},
		{"output naming no variable", func(md *ModelDescription3) {
			md.Structure.Outputs = append(md.Structure.Outputs, Unknown3{ValueReference: 99})
		}, []Rule{RuleOutputs}, "valueReference 99 names no variable"},
		{"new output not derived", func(md *ModelDescription3) { v3(md, "hook.acceleration").Causality = CausalityOutput }, []Rule{RuleOutputs, RuleInitialUnknowns}, `"hook.acceleration"`},

		// ModelStructure/ContinuousStateDerivative.
		{"state derivative without attribute", func(md *ModelDescription3) {
			md.Structure.ContinuousStateDerivatives = append([]Unknown3{{ValueReference: 16}}, md.Structure.ContinuousStateDerivatives...)
		}, []Rule{RuleDerivatives}, `"g"`},
		{"state derivative naming no variable", func(md *ModelDescription3) {
			md.Structure.ContinuousStateDerivatives = append(md.Structure.ContinuousStateDerivatives, Unknown3{ValueReference: 99})
		}, []Rule{RuleDerivatives}, "ModelStructure/ContinuousStateDerivative"},
		{"state is a parameter", func(md *ModelDescription3) { v3(md, "der(hook.position)").Derivative = VR(1) }, []Rule{RuleDerivatives, RuleDependencies}, `"cable.length"`},
		{"input derivative is not a state derivative", func(md *ModelDescription3) {
			// An input may declare itself the derivative of another input
			// (both are Float); it is then no continuous state derivative.
			md.Variables = append(md.Variables, Variable3{Name: "winch.acceleration", ValueReference: 40, Causality: CausalityInput,
				Type: TypeFloat64, Unit: "m/s2", Start: []float64{0}, Derivative: VR(6)})
			md.Structure.ContinuousStateDerivatives = append(md.Structure.ContinuousStateDerivatives, Unknown3{ValueReference: 40})
		}, []Rule{RuleDerivatives}, "must be a continuous local or output, not continuous input"},
		{"state derivative twice", func(md *ModelDescription3) {
			md.Structure.ContinuousStateDerivatives = append(md.Structure.ContinuousStateDerivatives, Unknown3{ValueReference: 17})
		}, []Rule{RuleDerivatives}, "listed twice"},

		// ModelStructure/InitialUnknown.
		{"calculatedParameter missing", func(md *ModelDescription3) {
			md.Structure.InitialUnknowns = md.Structure.InitialUnknowns[1:]
		}, []Rule{RuleInitialUnknowns}, `"cable.totalMass"`},
		{"exact output listed", func(md *ModelDescription3) {
			md.Structure.InitialUnknowns = append(md.Structure.InitialUnknowns, Unknown3{ValueReference: 9})
		}, []Rule{RuleInitialUnknowns, RuleStructureOrder}, `"hook.velocity"`},
		{"initial unknowns out of order", func(md *ModelDescription3) {
			u := md.Structure.InitialUnknowns
			u[0], u[len(u)-1] = u[len(u)-1], u[0]
		}, []Rule{RuleStructureOrder}, "ModelStructure/InitialUnknown"},
		{"exposed derivative missing", func(md *ModelDescription3) {
			u := md.Structure.InitialUnknowns
			md.Structure.InitialUnknowns = u[:len(u)-1]
		}, []Rule{RuleInitialUnknowns}, `"der(hook.position)"`},
		{"unexposed derivative need not be listed", func(md *ModelDescription3) {
			md.Structure.ContinuousStateDerivatives = nil
			u := md.Structure.InitialUnknowns
			md.Structure.InitialUnknowns = u[:len(u)-1]
			// hook.position stops being a state known at communication points.
			unknown3(md.Structure.Outputs, 10).Dependencies = []uint32{6}
			unknown3(md.Structure.Outputs, 10).DependenciesKind = nil
		}, nil, ""},
		{"output made exact leaves stale entry", func(md *ModelDescription3) {
			p := v3(md, "solver.message")
			p.Initial, p.StringStart = InitialExact, []string{"ok"}
		}, []Rule{RuleInitialUnknowns}, `"solver.message"`},

		// ModelStructure/EventIndicator.
		{"event indicator", func(md *ModelDescription3) {
			md.Structure.EventIndicators = []Unknown3{{ValueReference: 14}}
		}, nil, ""},
		{"event indicator on an Int32", func(md *ModelDescription3) {
			md.Structure.EventIndicators = []Unknown3{{ValueReference: 15}}
		}, []Rule{RuleEventIndicators}, `"solver.substeps"`},
		{"event indicator naming no variable", func(md *ModelDescription3) {
			md.Structure.EventIndicators = []Unknown3{{ValueReference: 99}}
		}, []Rule{RuleEventIndicators}, "ModelStructure/EventIndicator"},

		// Dependencies.
		{"dependency naming no variable", func(md *ModelDescription3) {
			unknown3(md.Structure.Outputs, 8).Dependencies = []uint32{99}
		}, []Rule{RuleDependencies}, "valueReference 99"},
		{"dependency twice", func(md *ModelDescription3) {
			unknown3(md.Structure.Outputs, 8).Dependencies = []uint32{6, 6}
		}, []Rule{RuleDependencies}, "listed twice"},
		{"dependency on an output", func(md *ModelDescription3) {
			unknown3(md.Structure.Outputs, 8).Dependencies = []uint32{9}
		}, []Rule{RuleDependencies}, `"hook.velocity"`},
		{"dependency on a parameter is allowed", func(md *ModelDescription3) {
			unknown3(md.Structure.Outputs, 8).Dependencies = []uint32{2, 3, 0}
		}, nil, ""},
		{"initial dependency on a calculated output", func(md *ModelDescription3) {
			u := unknown3(md.Structure.InitialUnknowns, 5)
			u.Dependencies, u.DependenciesKind = []uint32{8}, nil
		}, []Rule{RuleDependencies}, "ModelStructure/InitialUnknown"},
		{"kinds without dependencies", func(md *ModelDescription3) {
			unknown3(md.Structure.Outputs, 8).DependenciesKind = []string{"dependent"}
		}, []Rule{RuleDependencies}, "ModelStructure/Output"},
		{"kinds length mismatch", func(md *ModelDescription3) {
			unknown3(md.Structure.InitialUnknowns, 5).DependenciesKind = []string{"dependent"}
		}, []Rule{RuleDependencies}, `"cable.totalMass"`},
		{"unknown kind", func(md *ModelDescription3) {
			unknown3(md.Structure.InitialUnknowns, 5).DependenciesKind = []string{"dependent", "linear"}
		}, []Rule{RuleDependencies}, `"cable.totalMass"`},
		{"tunable kind at initialization", func(md *ModelDescription3) {
			unknown3(md.Structure.InitialUnknowns, 5).DependenciesKind = []string{"dependent", "tunable"}
		}, []Rule{RuleDependencies}, `"cable.totalMass"`},
		{"factor kind on String unknown", func(md *ModelDescription3) {
			o := unknown3(md.Structure.Outputs, 13)
			o.Dependencies, o.DependenciesKind = []uint32{6}, []string{"constant"}
		}, []Rule{RuleDependencies}, `"solver.message"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			md := Representative3()
			tc.mutate(md)
			assertViolations(t, md.Check(), tc.want, tc.subject)
		})
	}
}

func TestCheck3ReportsEveryViolation(t *testing.T) {
	md := Representative3()
	md.InstantiationToken = ""
	v3(md, "cable.EA").Start = nil
	v3(md, "winch.speed").Unit = "furlong"
	got := Violations(md.Check())
	if len(got) != 3 {
		t.Fatalf("want 3 violations, got %d: %v", len(got), got)
	}
	msg := md.Check().Error()
	for _, s := range []string{"instantiationToken", `"cable.EA"`, `"furlong"`} {
		if !strings.Contains(msg, s) {
			t.Errorf("error text lacks %s:\n%s", s, msg)
		}
	}
}

// TestInitialTable3 pins the FMI 3.0 causality × variability table: which
// combinations exist and which initial is implied when omitted.
func TestInitialTable3(t *testing.T) {
	causalities := []Causality{CausalityStructuralParameter, CausalityParameter, CausalityCalculatedParameter,
		CausalityInput, CausalityOutput, CausalityLocal, CausalityIndependent}
	variabilities := []Variability{VariabilityConstant, VariabilityFixed, VariabilityTunable, VariabilityDiscrete, VariabilityContinuous}
	// Rows: variability; columns: causality in the order above. "-" marks a
	// forbidden combination; A, B, C, E are the initial classes (FMI 3.0
	// inputs are class A: initial exact).
	table := [][]string{
		/* constant   */ {"-", "-", "-", "-", "A", "A", "-"},
		/* fixed      */ {"A", "A", "B", "-", "-", "B", "-"},
		/* tunable    */ {"A", "A", "B", "-", "-", "B", "-"},
		/* discrete   */ {"-", "-", "-", "A", "C", "C", "-"},
		/* continuous */ {"-", "-", "-", "A", "C", "C", "E"},
	}
	classes := map[string]initialClass{"-": classForbidden, "A": classA, "B": classB, "C": classC, "E": classE}
	for r, va := range variabilities {
		for col, ca := range causalities {
			want := classes[table[r][col]]
			got, why := classify3(ca, va)
			if got != want {
				t.Errorf("%s/%s: class %d, want %s", ca, va, got, table[r][col])
			}
			if (got == classForbidden) != (why != "") {
				t.Errorf("%s/%s: reason %q does not match class", ca, va, why)
			}
			x := Variable3{Causality: ca, Variability: va, Type: TypeFloat64}
			wantInit := map[initialClass]Initial{classA: InitialExact, classB: InitialCalculated, classC: InitialCalculated}[want]
			if g := x.EffectiveInitial(); g != wantInit {
				t.Errorf("%s/%s: effective initial %q, want %q", ca, va, g, wantInit)
			}
		}
	}
	if k, why := classify3("inlet", VariabilityContinuous); k != classForbidden || why == "" {
		t.Errorf("unknown causality: class %d, reason %q", k, why)
	}
	if k, why := classify3(CausalityLocal, "sometimes"); k != classForbidden || why == "" {
		t.Errorf("unknown variability: class %d, reason %q", k, why)
	}
}

func TestEffectiveDefaults3(t *testing.T) {
	for _, tc := range []struct {
		c    Causality
		t    Type3
		want Variability
	}{
		{"", TypeFloat64, VariabilityContinuous},
		{"", TypeFloat32, VariabilityContinuous},
		{"", TypeInt32, VariabilityDiscrete},
		{CausalityOutput, TypeBoolean3, VariabilityDiscrete},
		{CausalityInput, TypeString3, VariabilityDiscrete},
		{CausalityParameter, TypeFloat64, VariabilityFixed},
		{CausalityCalculatedParameter, TypeFloat64, VariabilityFixed},
		{CausalityStructuralParameter, TypeUInt64, VariabilityFixed},
		{CausalityIndependent, TypeFloat64, VariabilityContinuous},
	} {
		x := Variable3{Causality: tc.c, Type: tc.t}
		if got := x.EffectiveVariability(); got != tc.want {
			t.Errorf("%q %s: variability %s, want %s", tc.c, tc.t, got, tc.want)
		}
	}
	var x Variable3
	if x.EffectiveCausality() != CausalityLocal {
		t.Errorf("default causality = %s, want local", x.EffectiveCausality())
	}
	in := Variable3{Causality: CausalityInput, Type: TypeFloat64}
	if in.EffectiveInitial() != InitialExact {
		t.Errorf("FMI 3.0 inputs are initial exact, got %q", in.EffectiveInitial())
	}
	in.Initial = InitialApprox
	if in.EffectiveInitial() != InitialApprox {
		t.Errorf("explicit initial must win, got %q", in.EffectiveInitial())
	}
	if tm := IndependentTime(7); tm.EffectiveInitial() != InitialUnset || tm.ValueReference != 7 {
		t.Errorf("IndependentTime(7) = %+v", tm)
	}
}

func TestElements(t *testing.T) {
	md := Representative3()
	for name, want := range map[string]uint64{
		"time":                  1,
		"nodes.position":        3 * fixtureNodes,
		"nodes.initialPosition": 3 * fixtureNodes,
		"segments.strain":       fixtureSegments,
	} {
		if n, ok := md.Elements(v3(md, name)); !ok || n != want {
			t.Errorf("Elements(%s) = %d, %v; want %d", name, n, ok, want)
		}
	}
	p := v3(md, "segments.strain")
	for _, d := range []Dimension3{{}, {Start: 2, ValueReference: VR(3)}, SizedBy(99), SizedBy(15)} {
		p.Dimensions = []Dimension3{d}
		if n, ok := md.Elements(p); ok {
			t.Errorf("Elements with dimension %+v = %d, want unresolvable", d, n)
		}
	}
	p.Dimensions = []Dimension3{Fixed(math.MaxUint64), Fixed(2)}
	if n, ok := md.Elements(p); ok {
		t.Errorf("overflowing size = %d, want unresolvable", n)
	}
}
