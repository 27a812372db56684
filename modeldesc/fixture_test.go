package modeldesc

// Representative returns a valid description shaped like the cable FMUs:
// parameters of several types, a calculated parameter, inputs, outputs with
// every kind of initial, locals, a constant, the independent variable and an
// exposed state derivative. It is exported (from a _test file) so the
// external schema test can use it too. Indices are listed for the tests that
// refer to them.
func Representative() *ModelDescription {
	md := &ModelDescription{
		FMIVersion:               FMIVersion2,
		ModelName:                "HoistingCable",
		GUID:                     "{5c0e8a3e-3f7b-4f6e-9a51-0c7d2a1b9e42}",
		Description:              "Axially elastic hoisting cable with hook load",
		Author:                   "cablefmu",
		Version:                  "0.1.0",
		GenerationTool:           "cablefmu",
		GenerationDateAndTime:    "2024-05-01T12:00:00Z",
		VariableNamingConvention: "structured",
		CoSimulation: &CoSimulation{
			ModelIdentifier:                        "HoistingCable",
			CanHandleVariableCommunicationStepSize: true,
			CanGetAndSetFMUstate:                   true,
			CanNotUseMemoryManagementFunctions:     true,
		},
		LogCategories:     fixtureLogCategories(),
		DefaultExperiment: fixtureExperiment(),
		Variables: []Variable{
			/* 1 */ {Name: "time", ValueReference: 0, Causality: CausalityIndependent, Variability: VariabilityContinuous, Type: TypeReal, Unit: "s"},
			/* 2 */ {Name: "cable.length", ValueReference: 1, Description: "Unstretched length", Causality: CausalityParameter, Variability: VariabilityFixed, Type: TypeReal, Unit: "m", Start: "50", Min: Float(0)},
			/* 3 */ {Name: "cable.linearDensity", ValueReference: 2, Causality: CausalityParameter, Variability: VariabilityFixed, Initial: InitialExact, Type: TypeReal, Unit: "kg/m", Start: "1.2"},
			/* 4 */ {Name: "cable.EA", ValueReference: 3, Description: "Axial stiffness", Causality: CausalityParameter, Variability: VariabilityTunable, Type: TypeReal, Unit: "N", Start: "1e8", Min: Float(1), Max: Float(1e12)},
			/* 5 */ {Name: "cable.damping", ValueReference: 4, Causality: CausalityParameter, Variability: VariabilityTunable, Type: TypeReal, Unit: "N.s/m", Start: "1000"},
			/* 6 */ {Name: "cable.segments", ValueReference: 0, Causality: CausalityParameter, Variability: VariabilityFixed, Type: TypeInteger, Start: "20", Min: Float(1), Max: Float(1000)},
			/* 7 */ {Name: "hook.mass", ValueReference: 5, Causality: CausalityParameter, Variability: VariabilityFixed, Type: TypeReal, Unit: "kg", Start: "500"},
			/* 8 */ {Name: "cable.totalMass", ValueReference: 6, Causality: CausalityCalculatedParameter, Variability: VariabilityFixed, Type: TypeReal, Unit: "kg"},
			/* 9 */ {Name: "winch.speed", ValueReference: 7, Causality: CausalityInput, Variability: VariabilityContinuous, Type: TypeReal, Unit: "m/s", Start: "0"},
			/* 10 */ {Name: "winch.brake", ValueReference: 0, Causality: CausalityInput, Variability: VariabilityDiscrete, Type: TypeBoolean, Start: "false"},
			/* 11 */ {Name: "hook.position", ValueReference: 8, Causality: CausalityOutput, Variability: VariabilityContinuous, Type: TypeReal, Unit: "m"},
			/* 12 */ {Name: "hook.velocity", ValueReference: 9, Causality: CausalityOutput, Variability: VariabilityContinuous, Initial: InitialExact, Type: TypeReal, Unit: "m/s", Start: "0"},
			/* 13 */ {Name: "cable.tension", ValueReference: 10, Causality: CausalityOutput, Variability: VariabilityContinuous, Initial: InitialApprox, Type: TypeReal, Quantity: "Force", Unit: "N", DisplayUnit: "kN", Start: "4905", Min: Float(0)},
			/* 14 */ {Name: "solver.message", ValueReference: 0, Causality: CausalityOutput, Variability: VariabilityDiscrete, Type: TypeString},
			/* 15 */ {Name: "hook.acceleration", ValueReference: 11, Causality: CausalityLocal, Variability: VariabilityContinuous, Type: TypeReal, Unit: "m/s2"},
			/* 16 */ {Name: "solver.substeps", ValueReference: 1, Causality: CausalityLocal, Variability: VariabilityDiscrete, Initial: InitialExact, Type: TypeInteger, Start: "0"},
			/* 17 */ {Name: "g", ValueReference: 12, Causality: CausalityLocal, Variability: VariabilityConstant, Type: TypeReal, Unit: "m/s2", Start: "9.81"},
			/* 18 */ {Name: "der(hook.position)", ValueReference: 13, Causality: CausalityLocal, Variability: VariabilityContinuous, Type: TypeReal, Unit: "m/s", Derivative: 11},
		},
	}
	md.Units = must(SIUnits(md.UnitNames()...)) // panics on a fixture bug
	md.DeriveStructure()
	// Dependencies as a generator would declare them: the tension reacts to
	// the winch speed and the hook position state; the total mass is a
	// product of two exact parameters.
	for i := range md.Structure.Outputs {
		if md.Structure.Outputs[i].Index == 13 {
			md.Structure.Outputs[i].Dependencies = []int{9, 11}
			md.Structure.Outputs[i].DependenciesKind = []string{"dependent", "fixed"}
		}
		if md.Structure.Outputs[i].Index == 14 {
			md.Structure.Outputs[i].Dependencies = []int{}
		}
	}
	for i := range md.Structure.InitialUnknowns {
		if md.Structure.InitialUnknowns[i].Index == 8 {
			md.Structure.InitialUnknowns[i].Dependencies = []int{2, 3}
			md.Structure.InitialUnknowns[i].DependenciesKind = []string{"dependent", "dependent"}
		}
	}
	return md
}
