package modeldesc

import (
	"strings"
	"testing"
)

const handWritten = `<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription fmiVersion="2.0" modelName="M" guid="{x}" numberOfEventIndicators="0">
  <CoSimulation modelIdentifier="M" canHandleVariableCommunicationStepSize="1"/>
  <UnitDefinitions>
    <Unit name="m"><BaseUnit m="1"/><DisplayUnit name="mm" factor="1000"/></Unit>
    <Unit name="bare"/>
  </UnitDefinitions>
  <TypeDefinitions><SimpleType name="T"><Real/></SimpleType></TypeDefinitions>
  <ModelVariables>
    <ScalarVariable name="x" valueReference="4294967295">
      <Real declaredType="T" quantity="Length" unit="m" nominal="2" start="-INF"/>
      <Annotations><Tool name="t"/></Annotations>
    </ScalarVariable>
    <ScalarVariable name="n" valueReference="1" causality="parameter" variability="fixed">
      <Integer start="3" min="-2147483648"/>
    </ScalarVariable>
  </ModelVariables>
  <ModelStructure/>
</fmiModelDescription>`

func TestParseDefaultsAndIgnoredContent(t *testing.T) {
	md, err := Parse([]byte(handWritten))
	if err != nil {
		t.Fatal(err)
	}
	if !md.CoSimulation.CanHandleVariableCommunicationStepSize {
		t.Error(`xs:boolean "1" must read as true`)
	}
	if len(md.Units) != 2 || md.Units[0].Base.M != 1 || md.Units[1].Base != (BaseUnit{}) {
		t.Errorf("units = %+v", md.Units)
	}
	x := md.Variables[0]
	if x.ValueReference != 4294967295 || x.Causality != "" || x.Variability != "" || x.Unit != "m" || x.Start != "-INF" {
		t.Errorf("x = %+v", x)
	}
	if x.EffectiveCausality() != CausalityLocal || x.EffectiveVariability() != VariabilityContinuous {
		t.Error("omitted attributes must take the standard's defaults")
	}
	n := md.Variables[1]
	if n.Type != TypeInteger || n.Min == nil || *n.Min != -2147483648 || n.Max != nil {
		t.Errorf("n = %+v", n)
	}
	if md.Structure.Outputs != nil || md.Structure.InitialUnknowns != nil {
		t.Errorf("empty ModelStructure parsed as %+v", md.Structure)
	}
}

func TestParseErrors(t *testing.T) {
	valid := string(must(Representative().Marshal()))
	tests := []parseErrorCase{
		{"not XML", "<fmiModelDescription", "parse model description"},
		{"wrong root", `<?xml version="1.0"?><modelDescription/>`, "root element is not fmiModelDescription"},
		{"valueReference missing", strings.Replace(valid, `name="cable.EA" valueReference="3"`, `name="cable.EA"`, 1), `"cable.EA"`},
		{"valueReference negative", strings.Replace(valid, `valueReference="3"`, `valueReference="-3"`, 1), "valueReference"},
		{"valueReference too large", strings.Replace(valid, `valueReference="3"`, `valueReference="4294967296"`, 1), "valueReference"},
		{"bad boolean", strings.Replace(valid, `canInterpolateInputs="false"`, `canInterpolateInputs="no"`, 1), "canInterpolateInputs"},
		{"bad min", strings.Replace(valid, `min="0"`, `min="zero"`, 1), "min"},
		{"Go-only float", strings.Replace(valid, `stopTime="20"`, `stopTime="Inf"`, 1), "stopTime"},
		{"bad index", strings.Replace(valid, `<Unknown index="11"`, `<Unknown index="eleven"`, 1), "index"},
		{"missing index", strings.Replace(valid, `<Unknown index="11"`, `<Unknown`, 1), "missing index"},
		{"bad dependency", strings.Replace(valid, `dependencies="9 11"`, `dependencies="9 x"`, 1), "dependencies"},
		{"no type element", strings.Replace(valid, `<Boolean start="false"/>`, ``, 1), "no type element"},
		{"enumeration", strings.Replace(valid, `<Boolean start="false"/>`, `<Enumeration declaredType="E"/>`, 1), "Enumeration"},
		{"bad exponent", strings.Replace(valid, `<BaseUnit kg="1" s="-1"/>`, `<BaseUnit kg="one"/>`, 1), "kg"},
	}
	assertParseErrors(t, valid, tests, "Parse", Parse)
}
