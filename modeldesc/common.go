package modeldesc

// common points at the parts of a model description that FMI 2.0 and 3.0
// share, so that one function reads, writes and checks them for both
// versions.
type common struct {
	// tokenAttr names the attribute that binds the XML to the binary: guid
	// in FMI 2.0, instantiationToken in FMI 3.0; token points at its value.
	tokenAttr string
	token     *string

	modelName, description, author, version, generationTool *string
	generationDateAndTime, variableNamingConvention         *string

	units             *[]Unit
	logCategories     *[]LogCategory
	defaultExperiment **DefaultExperiment
}

func (md *ModelDescription) common() common {
	return common{
		tokenAttr: "guid", token: &md.GUID,
		modelName: &md.ModelName, description: &md.Description, author: &md.Author,
		version: &md.Version, generationTool: &md.GenerationTool,
		generationDateAndTime: &md.GenerationDateAndTime, variableNamingConvention: &md.VariableNamingConvention,
		units: &md.Units, logCategories: &md.LogCategories, defaultExperiment: &md.DefaultExperiment,
	}
}

func (md *ModelDescription3) common() common {
	return common{
		tokenAttr: "instantiationToken", token: &md.InstantiationToken,
		modelName: &md.ModelName, description: &md.Description, author: &md.Author,
		version: &md.Version, generationTool: &md.GenerationTool,
		generationDateAndTime: &md.GenerationDateAndTime, variableNamingConvention: &md.VariableNamingConvention,
		units: &md.Units, logCategories: &md.LogCategories, defaultExperiment: &md.DefaultExperiment,
	}
}

// commonVar points at the attributes every variable has in both versions.
type commonVar struct {
	name, description *string
	valueReference    *uint32
	causality         *Causality
	variability       *Variability
	initial           *Initial
}

func (v *Variable) common() commonVar {
	return commonVar{&v.Name, &v.Description, &v.ValueReference, &v.Causality, &v.Variability, &v.Initial}
}

func (v *Variable3) common() commonVar {
	return commonVar{&v.Name, &v.Description, &v.ValueReference, &v.Causality, &v.Variability, &v.Initial}
}
