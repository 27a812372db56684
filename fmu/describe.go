package fmu

import (
	"fmt"
	"strconv"

	"github.com/cablefmu/cablefmu/modeldesc"
)

// Describe returns the model description of the FMU built from a scenario:
// the variables of its configured model with their SI units, the log
// categories, the default experiment and the ModelStructure, checked
// against the FMI rules.
func Describe(sc *Scenario, model Configured) (*modeldesc.ModelDescription, error) {
	md := &modeldesc.ModelDescription{
		FMIVersion:               modeldesc.FMIVersion2,
		ModelName:                sc.ModelIdentifier,
		GUID:                     sc.GUID(),
		Description:              sc.Description,
		Version:                  Version,
		GenerationTool:           "cablefmu " + Version,
		VariableNamingConvention: "structured",
		CoSimulation: &modeldesc.CoSimulation{
			ModelIdentifier:                        sc.ModelIdentifier,
			CanHandleVariableCommunicationStepSize: true,
			MaxOutputDerivativeOrder:               1,
			CanInterpolateInputs:                   true,
			CanNotUseMemoryManagementFunctions:     true,
			CanGetAndSetFMUstate:                   true,
			CanSerializeFMUstate:                   true,
		},
		DefaultExperiment: &modeldesc.DefaultExperiment{StopTime: sc.StopTime, StepSize: sc.Step},
	}
	for _, c := range LogCategories {
		md.LogCategories = append(md.LogCategories, modeldesc.LogCategory{Name: c.Name, Description: c.Description})
	}
	var units []string
	for i, v := range model.Variables() {
		quantity, display := presentation(v.Name, v.Unit)
		mv := modeldesc.Variable{
			Quantity:       quantity,
			DisplayUnit:    display,
			Name:           v.Name,
			Description:    v.Description,
			ValueReference: uint32(i),
			Causality:      v.Causality,
			Variability:    v.Variability,
			Type:           modeldesc.TypeReal,
			Unit:           v.Unit,
			Min:            v.Min,
			Max:            v.Max,
		}
		start := modeldesc.FormatReal(v.Start)
		switch mv.Type = v.Kind(); mv.Type {
		case modeldesc.TypeInteger:
			// Counts: no unit, no display unit.
			mv.Unit, mv.DisplayUnit, start = "", "", strconv.Itoa(int(v.Start))
		case modeldesc.TypeBoolean:
			mv.Unit, mv.DisplayUnit, mv.Quantity, mv.Min, mv.Max, start = "", "", "", nil, nil, strconv.FormatBool(v.Start != 0)
		}
		switch v.Causality {
		case modeldesc.CausalityParameter, modeldesc.CausalityInput:
			mv.Start = start
		case modeldesc.CausalityOutput:
			// Outputs are computed from the parameters and the static
			// equilibrium at initialization.
			mv.Initial = modeldesc.InitialCalculated
		}
		md.Variables = append(md.Variables, mv)
		if mv.Unit != "" {
			units = append(units, mv.Unit)
		}
	}
	var err error
	if md.Units, err = modeldesc.SIUnits(units...); err != nil {
		return nil, err
	}
	md.DeriveStructure()
	// Outputs at a communication point come from the step that ended
	// there: an input set afterwards changes none of them until the next
	// step (the driven points' paths take their inputs up over it), which
	// an empty dependency list says and which spares masters an algebraic
	// loop.
	for i := range md.Structure.Outputs {
		md.Structure.Outputs[i].Dependencies = []int{}
	}
	if err := md.Check(); err != nil {
		return nil, fmt.Errorf("model description breaks FMI rules: %w", err)
	}
	return md, nil
}
