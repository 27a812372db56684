package modeldesc

import (
	"math"
	"strings"
	"testing"
)

func TestRepresentativeIsValid(t *testing.T) {
	if err := Representative().Check(); err != nil {
		t.Fatalf("fixture must pass Check:\n%v", err)
	}
}

// v returns the named variable of md for in-place edits.
func v(md *ModelDescription, name string) *Variable {
	p, ok := md.VariableByName(name)
	if !ok {
		panic("no variable " + name)
	}
	return p
}

func TestCheckRules(t *testing.T) {
	tests := []struct {
		name    string
		mutate  func(md *ModelDescription)
		want    []Rule // exactly these rules must fire
		subject string // the text of some wanted violation must contain this
	}{
		// Top level.
		{"fmiVersion", func(md *ModelDescription) { md.FMIVersion = "3.0" }, []Rule{RuleFMIVersion}, "fmiModelDescription"},
		{"empty modelName", func(md *ModelDescription) { md.ModelName = " " }, []Rule{RuleModelName}, "fmiModelDescription"},
		{"empty GUID", func(md *ModelDescription) { md.GUID = "" }, []Rule{RuleGUID}, "fmiModelDescription"},
		{"GUID with line break", func(md *ModelDescription) { md.GUID = "{a}\n" }, []Rule{RuleXMLText}, "fmiModelDescription"},
		{"naming convention", func(md *ModelDescription) { md.VariableNamingConvention = "dotted" }, []Rule{RuleAttribute}, "fmiModelDescription"},
		{"generation date", func(md *ModelDescription) { md.GenerationDateAndTime = "2024-05-01 12:00" }, []Rule{RuleAttribute}, "fmiModelDescription"},
		{"event indicators", func(md *ModelDescription) { md.NumberOfEventIndicators = -1 }, []Rule{RuleAttribute}, "fmiModelDescription"},
		{"control character in description", func(md *ModelDescription) { md.Description = "bell\x07" }, []Rule{RuleXMLText}, "fmiModelDescription"},

		// CoSimulation.
		{"no CoSimulation", func(md *ModelDescription) { md.CoSimulation = nil }, []Rule{RuleCoSimulation}, "CoSimulation"},
		{"empty modelIdentifier", func(md *ModelDescription) { md.CoSimulation.ModelIdentifier = "" }, []Rule{RuleCoSimulation}, "CoSimulation"},
		{"modelIdentifier starts with digit", func(md *ModelDescription) { md.CoSimulation.ModelIdentifier = "1Cable" }, []Rule{RuleCoSimulation}, "CoSimulation"},
		{"modelIdentifier with dot", func(md *ModelDescription) { md.CoSimulation.ModelIdentifier = "Hoisting.Cable" }, []Rule{RuleCoSimulation}, "CoSimulation"},
		{"modelIdentifier is a keyword", func(md *ModelDescription) { md.CoSimulation.ModelIdentifier = "static" }, []Rule{RuleCoSimulation}, "CoSimulation"},
		{"negative derivative order", func(md *ModelDescription) { md.CoSimulation.MaxOutputDerivativeOrder = -1 }, []Rule{RuleCoSimulation}, "CoSimulation"},

		// Units and log categories.
		{"duplicate unit", func(md *ModelDescription) { md.Units = append(md.Units, md.Units[0]) }, []Rule{RuleUnitDefinition}, md0Unit()},
		{"empty unit name", func(md *ModelDescription) { md.Units = append(md.Units, Unit{}) }, []Rule{RuleUnitDefinition}, "UnitDefinitions"},
		{"infinite unit factor", func(md *ModelDescription) { md.Units[0].Base.Factor = math.Inf(1) }, []Rule{RuleUnitDefinition}, md0Unit()},
		{"duplicate log category", func(md *ModelDescription) { md.LogCategories[2].Name = "logStatusError" }, []Rule{RuleLogCategory}, `"logStatusError"`},
		{"empty log category", func(md *ModelDescription) { md.LogCategories[2].Name = "" }, []Rule{RuleLogCategory}, "entry 3"},

		// DefaultExperiment.
		{"stop before start", func(md *ModelDescription) { md.DefaultExperiment.StartTime = 30 }, []Rule{RuleDefaultExperiment}, "DefaultExperiment"},
		{"stop equals start", func(md *ModelDescription) { md.DefaultExperiment.StartTime = md.DefaultExperiment.StopTime }, []Rule{RuleDefaultExperiment}, "DefaultExperiment"},
		{"stop unset", func(md *ModelDescription) { md.DefaultExperiment.StartTime, md.DefaultExperiment.StopTime = 5, 0 }, nil, ""},
		{"negative step", func(md *ModelDescription) { md.DefaultExperiment.StepSize = -1e-3 }, []Rule{RuleDefaultExperiment}, "DefaultExperiment"},
		{"negative tolerance", func(md *ModelDescription) { md.DefaultExperiment.Tolerance = -1 }, []Rule{RuleDefaultExperiment}, "DefaultExperiment"},
		{"NaN stop", func(md *ModelDescription) { md.DefaultExperiment.StopTime = math.NaN() }, []Rule{RuleDefaultExperiment}, "DefaultExperiment"},

		// Variables: names and value references.
		{"no variables", func(md *ModelDescription) { md.Variables = nil; md.Structure = ModelStructure{} }, []Rule{RuleVariables}, "ModelVariables"},
		{"duplicate name", func(md *ModelDescription) { v(md, "cable.EA").Name = "cable.length" }, []Rule{RuleName}, `"cable.length" (index 4)`},
		{"empty name", func(md *ModelDescription) { v(md, "cable.EA").Name = "" }, []Rule{RuleName}, "(index 4)"},
		{"structured name malformed", func(md *ModelDescription) { v(md, "cable.EA").Name = "cable..EA" }, []Rule{RuleName}, `"cable..EA"`},
		{"structured name with space", func(md *ModelDescription) { v(md, "cable.EA").Name = "cable EA" }, []Rule{RuleName}, `"cable EA"`},
		{"flat names are free", func(md *ModelDescription) {
			md.VariableNamingConvention = "flat"
			v(md, "cable.EA").Name = "cable EA (N)"
		}, nil, ""},
		{"name with line break", func(md *ModelDescription) {
			md.VariableNamingConvention = "flat"
			v(md, "cable.EA").Name = "cable\nEA"
		}, []Rule{RuleXMLText}, "(index 4)"},
		{"duplicate Real value reference", func(md *ModelDescription) { v(md, "cable.EA").ValueReference = v(md, "cable.length").ValueReference }, []Rule{RuleValueReference}, `"cable.EA"`},
		{"value references are per type", func(md *ModelDescription) { v(md, "cable.segments").ValueReference = v(md, "cable.EA").ValueReference }, nil, ""},
		{"unsupported type", func(md *ModelDescription) { v(md, "cable.segments").Type = "Enumeration" }, []Rule{RuleType}, `"cable.segments"`},

		// Enumerations and the causality × variability table.
		{"unknown causality", func(md *ModelDescription) { v(md, "cable.EA").Causality = "constant" }, []Rule{RuleCausality}, `"cable.EA"`},
		{"unknown variability", func(md *ModelDescription) { v(md, "cable.EA").Variability = "sometimes" }, []Rule{RuleVariability}, `"cable.EA"`},
		{"unknown initial", func(md *ModelDescription) { v(md, "cable.EA").Initial = "exactly" }, []Rule{RuleInitial}, `"cable.EA"`},
		{"constant parameter", func(md *ModelDescription) { v(md, "cable.EA").Variability = VariabilityConstant }, []Rule{RuleCombination}, `"cable.EA"`},
		{"continuous parameter", func(md *ModelDescription) { v(md, "cable.EA").Variability = VariabilityContinuous }, []Rule{RuleCombination}, `"cable.EA"`},
		{"parameter with omitted variability", func(md *ModelDescription) { v(md, "cable.EA").Variability = "" }, []Rule{RuleCombination}, `"cable.EA"`},
		{"fixed input", func(md *ModelDescription) { v(md, "winch.speed").Variability = VariabilityFixed }, []Rule{RuleCombination}, `"winch.speed"`},
		{"tunable output", func(md *ModelDescription) { v(md, "hook.velocity").Variability = VariabilityTunable }, []Rule{RuleCombination}, `"hook.velocity"`},
		{"discrete independent", func(md *ModelDescription) { v(md, "time").Variability = VariabilityDiscrete }, []Rule{RuleCombination}, `"time"`},
		{"continuous Integer", func(md *ModelDescription) { v(md, "solver.substeps").Variability = VariabilityContinuous }, []Rule{RuleVariability}, `"solver.substeps"`},
		{"Boolean with omitted variability", func(md *ModelDescription) { v(md, "winch.brake").Variability = "" }, []Rule{RuleVariability}, `"winch.brake"`},

		// initial per table class.
		{"parameter approx (class A)", func(md *ModelDescription) { v(md, "cable.EA").Initial = InitialApprox }, []Rule{RuleInitial}, `"cable.EA"`},
		{"calculatedParameter exact (class B)", func(md *ModelDescription) { v(md, "cable.totalMass").Initial = InitialExact }, []Rule{RuleInitial}, `"cable.totalMass"`},
		{"input with initial (class D)", func(md *ModelDescription) { v(md, "winch.speed").Initial = InitialExact }, []Rule{RuleInitial}, `"winch.speed"`},
		{"independent with initial (class E)", func(md *ModelDescription) { v(md, "time").Initial = InitialCalculated }, []Rule{RuleInitial}, `"time"`},
		{"constant calculated (class A)", func(md *ModelDescription) { v(md, "g").Initial = InitialCalculated }, []Rule{RuleInitial}, `"g"`},

		// start.
		{"parameter without start", func(md *ModelDescription) { v(md, "cable.EA").Start = "" }, []Rule{RuleStart}, `"cable.EA"`},
		{"input without start", func(md *ModelDescription) { v(md, "winch.brake").Start = "" }, []Rule{RuleStart}, `"winch.brake"`},
		{"approx without start", func(md *ModelDescription) { v(md, "cable.tension").Start = "" }, []Rule{RuleStart}, `"cable.tension"`},
		{"exact local without start", func(md *ModelDescription) { v(md, "solver.substeps").Start = "" }, []Rule{RuleStart}, `"solver.substeps"`},
		{"constant without start", func(md *ModelDescription) { v(md, "g").Start = "" }, []Rule{RuleStart}, `"g"`},
		{"calculated output with start", func(md *ModelDescription) { v(md, "hook.position").Start = "1" }, []Rule{RuleStart}, `"hook.position"`},
		{"calculatedParameter with start", func(md *ModelDescription) { v(md, "cable.totalMass").Start = "60" }, []Rule{RuleStart}, `"cable.totalMass"`},
		{"independent with start", func(md *ModelDescription) { v(md, "time").Start = "0" }, []Rule{RuleStart}, `"time"`},
		{"Real start with comma", func(md *ModelDescription) { v(md, "cable.EA").Start = "1,5" }, []Rule{RuleStart}, `"cable.EA"`},
		{"Real start hexadecimal", func(md *ModelDescription) { v(md, "cable.EA").Start = "0x1p3" }, []Rule{RuleStart}, `"cable.EA"`},
		{"Real start Go infinity", func(md *ModelDescription) { v(md, "cable.damping").Start = "+Inf" }, []Rule{RuleStart}, `"cable.damping"`},
		{"Real start XSD infinity", func(md *ModelDescription) { v(md, "cable.damping").Start = "INF" }, nil, ""},
		{"Integer start fractional", func(md *ModelDescription) { v(md, "cable.segments").Start = "2.5" }, []Rule{RuleStart}, `"cable.segments"`},
		{"Integer start beyond int32", func(md *ModelDescription) {
			v(md, "cable.segments").Start = "3000000000"
			v(md, "cable.segments").Max = nil
		}, []Rule{RuleStart}, `"cable.segments"`},
		{"Boolean start yes", func(md *ModelDescription) { v(md, "winch.brake").Start = "yes" }, []Rule{RuleStart}, `"winch.brake"`},

		// Bounds.
		{"max below min", func(md *ModelDescription) { v(md, "cable.EA").Max = Float(0.5) }, []Rule{RuleBounds}, `"cable.EA"`},
		{"start below min", func(md *ModelDescription) { v(md, "cable.length").Start = "-1" }, []Rule{RuleBounds}, `"cable.length"`},
		{"start above max", func(md *ModelDescription) { v(md, "cable.segments").Start = "1001" }, []Rule{RuleBounds}, `"cable.segments"`},
		{"NaN min", func(md *ModelDescription) { v(md, "cable.length").Min = Float(math.NaN()) }, []Rule{RuleBounds}, `"cable.length"`},
		{"fractional Integer bound", func(md *ModelDescription) { v(md, "cable.segments").Min = Float(0.5) }, []Rule{RuleBounds}, `"cable.segments"`},
		{"bounds on Boolean", func(md *ModelDescription) { v(md, "winch.brake").Max = Float(1) }, []Rule{RuleBounds}, `"winch.brake"`},

		// Units on variables.
		{"undefined unit", func(md *ModelDescription) { v(md, "cable.EA").Unit = "kN.m" }, []Rule{RuleUnit}, `"cable.EA"`},
		{"unit on Integer", func(md *ModelDescription) { v(md, "cable.segments").Unit = "m" }, []Rule{RuleUnit}, `"cable.segments"`},
		{"no unit is fine", func(md *ModelDescription) { v(md, "cable.EA").Unit = "" }, nil, ""},

		// Independent variable and derivatives. Breaking der(hook.position)
		// also stops hook.position being a state, so the tension output's
		// dependency on it becomes invalid too.
		{"two independents", func(md *ModelDescription) { v(md, "hook.acceleration").Causality = CausalityIndependent }, []Rule{RuleIndependent}, `"hook.acceleration"`},
		{"Integer independent", func(md *ModelDescription) {
			t := v(md, "time")
			t.Type, t.Unit, t.ValueReference = TypeInteger, "", 99
		}, []Rule{RuleIndependent, RuleVariability}, `"time"`},
		{"derivative out of range", func(md *ModelDescription) { v(md, "der(hook.position)").Derivative = 99 }, []Rule{RuleDerivative, RuleDependencies}, `"der(hook.position)"`},
		{"derivative of itself", func(md *ModelDescription) { v(md, "der(hook.position)").Derivative = 18 }, []Rule{RuleDerivative, RuleDependencies}, `"der(hook.position)"`},
		{"derivative of an Integer", func(md *ModelDescription) { v(md, "der(hook.position)").Derivative = 6 }, []Rule{RuleDerivative, RuleDependencies}, `"der(hook.position)"`},
		{"derivative on a String", func(md *ModelDescription) { v(md, "solver.message").Derivative = 11 }, []Rule{RuleDerivative}, `"solver.message"`},

		// ModelStructure/Outputs.
		{"output missing", func(md *ModelDescription) { md.Structure.Outputs = md.Structure.Outputs[1:] }, []Rule{RuleOutputs}, "ModelStructure/Outputs"},
		{"non-output listed", func(md *ModelDescription) {
			md.Structure.Outputs = append([]Unknown{{Index: 2}}, md.Structure.Outputs...)
		}, []Rule{RuleOutputs}, "ModelStructure/Outputs"},
		{"outputs out of order", func(md *ModelDescription) {
			o := md.Structure.Outputs
			o[0], o[1] = o[1], o[0]
		}, []Rule{RuleOutputs}, "ModelStructure/Outputs"},
		{"output twice", func(md *ModelDescription) {
			md.Structure.Outputs = append(md.Structure.Outputs, Unknown{Index: 14})
		}, []Rule{RuleOutputs}, "ModelStructure/Outputs"},
		{"output index out of range", func(md *ModelDescription) {
			md.Structure.Outputs = append(md.Structure.Outputs, Unknown{Index: 0})
		}, []Rule{RuleOutputs}, "ModelStructure/Outputs"},
		{"new output not derived", func(md *ModelDescription) {
			v(md, "hook.acceleration").Causality = CausalityOutput
		}, []Rule{RuleOutputs, RuleInitialUnknowns}, "ModelStructure/Outputs"},

		// ModelStructure/Derivatives.
		{"derivative entry without attribute", func(md *ModelDescription) {
			md.Structure.Derivatives = append(md.Structure.Derivatives, Unknown{Index: 17})
		}, []Rule{RuleDerivatives}, "ModelStructure/Derivatives"},
		{"derivative entry out of range", func(md *ModelDescription) {
			md.Structure.Derivatives = append(md.Structure.Derivatives, Unknown{Index: 19})
		}, []Rule{RuleDerivatives}, "ModelStructure/Derivatives"},
		{"derivative listed twice", func(md *ModelDescription) {
			md.Structure.Derivatives = append(md.Structure.Derivatives, Unknown{Index: 18})
		}, []Rule{RuleDerivatives}, "ModelStructure/Derivatives"},

		// ModelStructure/InitialUnknowns.
		{"calculatedParameter missing", func(md *ModelDescription) {
			md.Structure.InitialUnknowns = md.Structure.InitialUnknowns[1:]
		}, []Rule{RuleInitialUnknowns}, `"cable.totalMass"`},
		{"exact output listed", func(md *ModelDescription) {
			md.Structure.InitialUnknowns = append(md.Structure.InitialUnknowns, Unknown{Index: 12})
		}, []Rule{RuleInitialUnknowns}, `"hook.velocity"`},
		{"initial unknowns out of order", func(md *ModelDescription) {
			u := md.Structure.InitialUnknowns
			u[0], u[len(u)-1] = u[len(u)-1], u[0]
		}, []Rule{RuleInitialUnknowns}, "ModelStructure/InitialUnknowns"},
		{"exposed derivative missing", func(md *ModelDescription) {
			u := md.Structure.InitialUnknowns
			md.Structure.InitialUnknowns = u[:len(u)-1]
		}, []Rule{RuleInitialUnknowns}, `"der(hook.position)"`},
		{"unexposed derivative need not be listed", func(md *ModelDescription) {
			// A Co-Simulation FMU need not expose derivatives; then neither
			// the derivative nor its state is an initial unknown on that account.
			md.Structure.Derivatives = nil
			u := md.Structure.InitialUnknowns
			md.Structure.InitialUnknowns = u[:len(u)-1]
		}, nil, ""},
		{"output made exact leaves stale entry", func(md *ModelDescription) {
			p := v(md, "solver.message")
			p.Initial, p.Start = InitialExact, "ok"
		}, []Rule{RuleInitialUnknowns}, `"solver.message"`},

		// Dependencies.
		{"dependency out of range", func(md *ModelDescription) {
			md.Structure.Outputs[0].Dependencies = []int{99}
		}, []Rule{RuleDependencies}, "ModelStructure/Outputs"},
		{"dependencies not ascending", func(md *ModelDescription) {
			md.Structure.Outputs[0].Dependencies = []int{11, 9}
		}, []Rule{RuleDependencies}, "ModelStructure/Outputs"},
		{"dependency on a parameter", func(md *ModelDescription) {
			md.Structure.Outputs[0].Dependencies = []int{4}
		}, []Rule{RuleDependencies}, `"cable.EA"`}, // named in the detail
		{"initial dependency on calculated output", func(md *ModelDescription) {
			md.Structure.InitialUnknowns[0].Dependencies = []int{11}
			md.Structure.InitialUnknowns[0].DependenciesKind = nil
		}, []Rule{RuleDependencies}, "ModelStructure/InitialUnknowns"},
		{"kinds without dependencies", func(md *ModelDescription) {
			md.Structure.Outputs[0].DependenciesKind = []string{"dependent"}
		}, []Rule{RuleDependencies}, "ModelStructure/Outputs"},
		{"kinds length mismatch", func(md *ModelDescription) {
			md.Structure.InitialUnknowns[0].DependenciesKind = []string{"dependent"}
		}, []Rule{RuleDependencies}, `"cable.totalMass"`},
		{"unknown kind", func(md *ModelDescription) {
			md.Structure.InitialUnknowns[0].DependenciesKind = []string{"dependent", "linear"}
		}, []Rule{RuleDependencies}, `"cable.totalMass"`},
		{"tunable kind at initialization", func(md *ModelDescription) {
			md.Structure.InitialUnknowns[0].DependenciesKind = []string{"dependent", "tunable"}
		}, []Rule{RuleDependencies}, `"cable.totalMass"`},
		{"factor kind on String unknown", func(md *ModelDescription) {
			o := &md.Structure.Outputs[3] // solver.message
			o.Dependencies, o.DependenciesKind = []int{9}, []string{"constant"}
		}, []Rule{RuleDependencies}, `"solver.message"`},
		{"dependency on nothing is fine", func(md *ModelDescription) {
			md.Structure.Outputs[0].Dependencies = []int{}
		}, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			md := Representative()
			tc.mutate(md)
			assertViolations(t, md.Check(), tc.want, tc.subject)
		})
	}
}

func md0Unit() string { return `unit "` + Representative().Units[0].Name + `"` }

func TestCheckReportsEveryViolation(t *testing.T) {
	md := Representative()
	md.GUID = ""
	v(md, "cable.EA").Start = ""
	v(md, "winch.speed").Unit = "furlong"
	got := Violations(md.Check())
	if len(got) != 3 {
		t.Fatalf("want 3 violations, got %d: %v", len(got), got)
	}
	msg := md.Check().Error()
	for _, s := range []string{"guid", `"cable.EA"`, `"furlong"`} {
		if !strings.Contains(msg, s) {
			t.Errorf("error text lacks %s:\n%s", s, msg)
		}
	}
}

// TestInitialTable pins the FMI 2.0 causality × variability table: which
// combinations exist and which initial is implied when omitted.
func TestInitialTable(t *testing.T) {
	causalities := []Causality{CausalityParameter, CausalityCalculatedParameter, CausalityInput, CausalityOutput, CausalityLocal, CausalityIndependent}
	variabilities := []Variability{VariabilityConstant, VariabilityFixed, VariabilityTunable, VariabilityDiscrete, VariabilityContinuous}
	// Rows: variability; columns: causality in the order above. "-" marks a
	// forbidden combination; A..E are the standard's initial classes.
	table := [][]string{
		/* constant   */ {"-", "-", "-", "A", "A", "-"},
		/* fixed      */ {"A", "B", "-", "-", "B", "-"},
		/* tunable    */ {"A", "B", "-", "-", "B", "-"},
		/* discrete   */ {"-", "-", "D", "C", "C", "-"},
		/* continuous */ {"-", "-", "D", "C", "C", "E"},
	}
	classes := map[string]initialClass{"-": classForbidden, "A": classA, "B": classB, "C": classC, "D": classD, "E": classE}
	for r, va := range variabilities {
		for col, ca := range causalities {
			want := classes[table[r][col]]
			got, why := classify(ca, va)
			if got != want {
				t.Errorf("%s/%s: class %d, want %s", ca, va, got, table[r][col])
			}
			if (got == classForbidden) != (why != "") {
				t.Errorf("%s/%s: reason %q does not match class", ca, va, why)
			}
			x := Variable{Causality: ca, Variability: va}
			wantInit := map[initialClass]Initial{classA: InitialExact, classB: InitialCalculated, classC: InitialCalculated}[want]
			if g := x.EffectiveInitial(); g != wantInit {
				t.Errorf("%s/%s: effective initial %q, want %q", ca, va, g, wantInit)
			}
		}
	}
	for _, tc := range []struct {
		k    initialClass
		in   Initial
		want bool
	}{
		{classA, InitialExact, true}, {classA, InitialApprox, false}, {classA, InitialCalculated, false},
		{classB, InitialExact, false}, {classB, InitialApprox, true}, {classB, InitialCalculated, true},
		{classC, InitialExact, true}, {classC, InitialApprox, true}, {classC, InitialCalculated, true},
		{classD, InitialExact, false}, {classE, InitialCalculated, false},
	} {
		if got := tc.k.admits(tc.in); got != tc.want {
			t.Errorf("class %d admits %s = %v, want %v", tc.k, tc.in, got, tc.want)
		}
	}
}

func TestEffectiveDefaults(t *testing.T) {
	var x Variable
	if x.EffectiveCausality() != CausalityLocal || x.EffectiveVariability() != VariabilityContinuous {
		t.Errorf("defaults = %s/%s, want local/continuous", x.EffectiveCausality(), x.EffectiveVariability())
	}
	if x.EffectiveInitial() != InitialCalculated {
		t.Errorf("local continuous implies calculated, got %q", x.EffectiveInitial())
	}
	x.Initial = InitialApprox
	if x.EffectiveInitial() != InitialApprox {
		t.Errorf("explicit initial must win, got %q", x.EffectiveInitial())
	}
}

func TestStructuredNames(t *testing.T) {
	valid := []string{
		"x", "_x1", "cable.length", "a.b.c", "a[1]", "a[1,2].b[3]", "der(x)", "der(a.b)", "der(a.b,2)",
		"'quoted name'", "a.'x+y'.c", `'it\'s'`, "'#123'", "a.'b'[2]",
	}
	invalid := []string{
		"", "1x", "a..b", ".a", "a.", "a b", "a[]", "a[1", "a[x]", "a[ 1]", "der(x", "der()", "der(x,)",
		"der(x,y)", "''", "'unterminated", `'bad\q'`, "a-b", "x.der(y)", "der(der(x))",
	}
	for _, s := range valid {
		if !isStructuredName(s) {
			t.Errorf("isStructuredName(%q) = false, want true", s)
		}
	}
	for _, s := range invalid {
		if isStructuredName(s) {
			t.Errorf("isStructuredName(%q) = true, want false", s)
		}
	}
}

func TestXSDouble(t *testing.T) {
	for _, s := range []string{"0", "-1", "+1.5", "1.", ".5", "1e3", "1E-3", "-INF", "INF", "NaN", "1.7976931348623157e+308"} {
		if !isXSDouble(s) {
			t.Errorf("isXSDouble(%q) = false", s)
		}
	}
	for _, s := range []string{"", ".", "e3", "1e", "Inf", "+Inf", "nan", "0x10", "1_000", " 1", "1,5"} {
		if isXSDouble(s) {
			t.Errorf("isXSDouble(%q) = true", s)
		}
	}
}

func TestCIdentifier(t *testing.T) {
	for _, s := range []string{"HoistingCable", "_x", "a1", "Cable_2"} {
		if !isCIdentifier(s) {
			t.Errorf("isCIdentifier(%q) = false", s)
		}
	}
	for _, s := range []string{"", "1a", "a-b", "a.b", "int", "while", "Kabel\u00e4"} {
		if isCIdentifier(s) {
			t.Errorf("isCIdentifier(%q) = true", s)
		}
	}
}
