package modeldesc

// Node and segment counts of Representative3: 21 nodes with x, y, z each
// (a 21×3 array, the FMI 3.0 layout of the cable's node positions) and 20
// segments (a structural parameter sizing a 1-D array).
const (
	fixtureNodes    = 21
	fixtureSegments = 20
)

// Representative3 returns a valid FMI 3.0 description shaped like the cable
// FMUs: the independent variable time, parameters of several types, a
// structural parameter sizing an array, a calculated parameter, inputs,
// outputs with every kind of initial, a 21×3 Float64 output of node
// positions and a 21×3 parameter with one start value per element, locals,
// a constant and an exposed state derivative. It is exported (from a _test
// file) so the external schema test can use it too. Value references are
// listed for the tests that refer to them.
func Representative3() *ModelDescription3 {
	initialShape := make([]float64, 0, 3*fixtureNodes)
	for k := range fixtureNodes {
		// A vertical cable hanging 2.5 m per segment below the winch.
		initialShape = append(initialShape, 0, 0, float64(-5*k)/2)
	}
	md := &ModelDescription3{
		ModelName:                "HoistingCable",
		InstantiationToken:       "{5c0e8a3e-3f7b-4f6e-9a51-0c7d2a1b9e42}",
		Description:              "Axially elastic hoisting cable with hook load",
		Author:                   "cablefmu",
		Version:                  "0.1.0",
		GenerationTool:           "cablefmu",
		GenerationDateAndTime:    "2024-05-01T12:00:00Z",
		VariableNamingConvention: "structured",
		CoSimulation: &CoSimulation3{
			ModelIdentifier:                        "HoistingCable",
			CanHandleVariableCommunicationStepSize: true,
			CanGetAndSetFMUState:                   true,
			CanSerializeFMUState:                   true,
			FixedInternalStepSize:                  1e-3,
		},
		LogCategories:     fixtureLogCategories(),
		DefaultExperiment: fixtureExperiment(),
		Variables: []Variable3{
			/* vr 0 */ IndependentTime(0),
			/* vr 1 */ {Name: "cable.length", ValueReference: 1, Description: "Unstretched length", Causality: CausalityParameter, Variability: VariabilityFixed, Type: TypeFloat64, Unit: "m", Start: []float64{50}, Min: Float(0)},
			/* vr 2 */ {Name: "cable.EA", ValueReference: 2, Description: "Axial stiffness", Causality: CausalityParameter, Variability: VariabilityTunable, Initial: InitialExact, Type: TypeFloat64, Unit: "N", Start: []float64{1e8}, Min: Float(1), Max: Float(1e12)},
			/* vr 3 */ {Name: "cable.segments", ValueReference: 3, Causality: CausalityStructuralParameter, Variability: VariabilityFixed, Type: TypeUInt64, Start: []float64{fixtureSegments}, Min: Float(1), Max: Float(1000)},
			/* vr 4 */ {Name: "hook.mass", ValueReference: 4, Causality: CausalityParameter, Variability: VariabilityFixed, Type: TypeFloat64, Unit: "kg", Start: []float64{500}},
			/* vr 5 */ {Name: "cable.totalMass", ValueReference: 5, Causality: CausalityCalculatedParameter, Variability: VariabilityFixed, Type: TypeFloat64, Unit: "kg"},
			/* vr 6 */ {Name: "winch.speed", ValueReference: 6, Causality: CausalityInput, Variability: VariabilityContinuous, Type: TypeFloat64, Unit: "m/s", Start: []float64{0}},
			/* vr 7 */ {Name: "winch.brake", ValueReference: 7, Causality: CausalityInput, Variability: VariabilityDiscrete, Type: TypeBoolean3, Start: []float64{0}},
			/* vr 8 */ {Name: "hook.position", ValueReference: 8, Causality: CausalityOutput, Variability: VariabilityContinuous, Type: TypeFloat64, Unit: "m"},
			/* vr 9 */ {Name: "hook.velocity", ValueReference: 9, Causality: CausalityOutput, Variability: VariabilityContinuous, Initial: InitialExact, Type: TypeFloat64, Unit: "m/s", Start: []float64{0}},
			/* vr 10 */ {Name: "cable.tension", ValueReference: 10, Causality: CausalityOutput, Variability: VariabilityContinuous, Initial: InitialApprox, Type: TypeFloat64, Quantity: "Force", Unit: "N", DisplayUnit: "kN", Start: []float64{4905}, Min: Float(0)},
			/* vr 11 */ {Name: "nodes.position", ValueReference: 11, Description: "Node positions (array [k][x, y, z], k = 1…21)", Causality: CausalityOutput, Variability: VariabilityContinuous, Type: TypeFloat64, Unit: "m",
				Dimensions: []Dimension3{Fixed(fixtureNodes), Fixed(3)}},
			/* vr 12 */ {Name: "segments.strain", ValueReference: 12, Causality: CausalityOutput, Variability: VariabilityContinuous, Type: TypeFloat64, Unit: "1",
				Dimensions: []Dimension3{SizedBy(3)}},
			/* vr 13 */ {Name: "solver.message", ValueReference: 13, Causality: CausalityOutput, Variability: VariabilityDiscrete, Type: TypeString3},
			/* vr 14 */ {Name: "hook.acceleration", ValueReference: 14, Causality: CausalityLocal, Variability: VariabilityContinuous, Type: TypeFloat64, Unit: "m/s2"},
			/* vr 15 */ {Name: "solver.substeps", ValueReference: 15, Causality: CausalityLocal, Variability: VariabilityDiscrete, Initial: InitialExact, Type: TypeInt32, Start: []float64{0}, Min: Float(0)},
			/* vr 16 */ {Name: "g", ValueReference: 16, Causality: CausalityLocal, Variability: VariabilityConstant, Type: TypeFloat64, Unit: "m/s2", Start: []float64{9.81}},
			/* vr 17 */ {Name: "der(hook.position)", ValueReference: 17, Causality: CausalityLocal, Variability: VariabilityContinuous, Type: TypeFloat64, Unit: "m/s", Derivative: VR(8)},
			/* vr 18 */ {Name: "nodes.initialPosition", ValueReference: 18, Causality: CausalityParameter, Variability: VariabilityFixed, Type: TypeFloat64, Unit: "m", Start: initialShape,
				Dimensions: []Dimension3{Fixed(fixtureNodes), Fixed(3)}},
			/* vr 19 */ {Name: "solver.relaxation", ValueReference: 19, Causality: CausalityLocal, Variability: VariabilityTunable, Initial: InitialApprox, Type: TypeFloat32, Start: []float64{1.5}},
			/* vr 20 */ {Name: "solver.label", ValueReference: 20, Causality: CausalityParameter, Variability: VariabilityFixed, Type: TypeString3, StringStart: []string{"default"}},
		},
	}
	md.Units = must(SIUnits(md.UnitNames()...)) // panics on a fixture bug
	md.DeriveStructure()
	// Dependencies as a generator would declare them: the tension reacts to
	// the winch speed and the hook position state; the message to nothing;
	// the total mass is computed from two exact parameters.
	for i := range md.Structure.Outputs {
		o := &md.Structure.Outputs[i]
		switch o.ValueReference {
		case 10:
			o.Dependencies = []uint32{6, 8}
			o.DependenciesKind = []string{"dependent", "fixed"}
		case 13:
			o.Dependencies = []uint32{}
		}
	}
	for i := range md.Structure.InitialUnknowns {
		if u := &md.Structure.InitialUnknowns[i]; u.ValueReference == 5 {
			u.Dependencies = []uint32{1, 4}
			u.DependenciesKind = []string{"dependent", "dependent"}
		}
	}
	return md
}
