package fmu

import (
	"fmt"

	"github.com/cablefmu/cablefmu/modeldesc"
)

// Describe3 returns the FMI 3.0 model description of the FMU built from a
// scenario: the variables of Layout3 (time, the model's scalars, its K×3
// arrays) with SI units, the same capabilities as the FMI 2.0 FMU, and the
// scenario's GUID as instantiation token, checked against the FMI rules.
func Describe3(sc *Scenario, model Configured) (*modeldesc.ModelDescription3, error) {
	md := &modeldesc.ModelDescription3{
		ModelName:                sc.ModelIdentifier,
		InstantiationToken:       sc.GUID(),
		Description:              sc.Description,
		Version:                  Version,
		GenerationTool:           "cablefmu " + Version,
		VariableNamingConvention: "structured",
		CoSimulation: &modeldesc.CoSimulation3{
			ModelIdentifier:                        sc.ModelIdentifier,
			CanHandleVariableCommunicationStepSize: true,
			MaxOutputDerivativeOrder:               1,
			CanGetAndSetFMUState:                   true,
			CanSerializeFMUState:                   true,
		},
		DefaultExperiment: &modeldesc.DefaultExperiment{StopTime: sc.StopTime, StepSize: sc.Step},
	}
	for _, c := range LogCategories {
		md.LogCategories = append(md.LogCategories, modeldesc.LogCategory{Name: c.Name, Description: c.Description})
	}
	vars := model.Variables()
	values := make([]float64, len(vars))
	for i, v := range vars {
		values[i] = v.Start
	}
	for _, v3 := range Layout3(vars) {
		if v3.Independent {
			md.Variables = append(md.Variables, modeldesc.IndependentTime(v3.VR))
			continue
		}
		p := v3.Proto
		quantity, display := presentation(p.Name, p.Unit)
		mv := modeldesc.Variable3{
			Quantity:       quantity,
			DisplayUnit:    display,
			Name:           v3.Name,
			Description:    p.Description,
			ValueReference: v3.VR,
			Causality:      p.Causality,
			Variability:    p.Variability,
			Type:           modeldesc.TypeFloat64,
			Unit:           p.Unit,
			Min:            p.Min,
			Max:            p.Max,
		}
		switch p.Kind() {
		case modeldesc.TypeInteger:
			mv.Type, mv.Unit, mv.DisplayUnit = modeldesc.TypeInt32, "", ""
		case modeldesc.TypeBoolean:
			mv.Type, mv.Unit, mv.DisplayUnit, mv.Quantity, mv.Min, mv.Max = modeldesc.TypeBoolean3, "", "", "", nil, nil
		}
		for _, d := range v3.Dims {
			mv.Dimensions = append(mv.Dimensions, modeldesc.Fixed(uint64(d)))
		}
		switch p.Causality {
		case modeldesc.CausalityParameter, modeldesc.CausalityInput:
			for _, i := range v3.Scalars {
				mv.Start = append(mv.Start, values[i])
			}
		case modeldesc.CausalityOutput:
			mv.Initial = modeldesc.InitialCalculated
		}
		md.Variables = append(md.Variables, mv)
	}
	var err error
	if md.Units, err = modeldesc.SIUnits(md.UnitNames()...); err != nil {
		return nil, err
	}
	md.DeriveStructure()
	// No output depends at once on an input, as in the FMI 2.0
	// description.
	for i := range md.Structure.Outputs {
		md.Structure.Outputs[i].Dependencies = []uint32{}
	}
	if err := md.Check(); err != nil {
		return nil, fmt.Errorf("FMI 3.0 model description breaks FMI rules: %w", err)
	}
	return md, nil
}
