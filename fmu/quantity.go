package fmu

import "strings"

// presentation returns the physical quantity of a variable and the unit a
// tool should show it in ("" for its own): what the model description
// declares beside the SI unit, so that a crane engineer reads a tension in
// kN, a mass in t, a rope diameter in mm, a drum's speed in rpm and a
// modulus in GPa, while every value the FMU exchanges stays SI. Quantities
// take Modelica's SI names where it has one.
func presentation(name, unit string) (quantity, display string) {
	last := name[strings.LastIndex(name, ".")+1:]
	switch unit {
	case "m":
		if last == "diameter" {
			return "Diameter", "mm"
		}
		return "Length", ""
	case "m2":
		return "Area", ""
	case "m/s":
		return "Velocity", ""
	case "m/s2":
		return "Acceleration", ""
	case "s":
		return "Time", ""
	case "1/s", "1/s2":
		return "Rate", ""
	case "kg":
		return "Mass", "t"
	case "kg/m":
		return "LinearDensity", ""
	case "kg/m3":
		return "Density", ""
	case "kg.m2":
		return "MomentOfInertia", ""
	case "N":
		return "Force", "kN"
	case "N.m":
		return "Torque", "kN.m"
	case "N.m2":
		return "BendingStiffness", ""
	case "N/m":
		return "TranslationalSpringConstant", ""
	case "N.s/m":
		return "TranslationalDampingConstant", ""
	case "N.m/rad":
		return "RotationalSpringConstant", ""
	case "s/kg":
		return "Slip", ""
	case "Pa":
		return "ModulusOfElasticity", "GPa"
	case "rad":
		return "Angle", "deg"
	case "rad/s":
		return "AngularVelocity", "rpm"
	case "MB":
		return "Memory", ""
	case "1", "":
		switch {
		case strings.HasSuffix(last, "Nodes") || last == "iterations" || last == "calls" || last == "operations":
			return "Count", ""
		case last == "brake":
			return "Switch", ""
		case strings.Contains(strings.ToLower(last), "friction"):
			return "CoefficientOfFriction", ""
		case last == "poisson":
			return "PoissonNumber", ""
		}
		return "Dimensionless", ""
	}
	return "", ""
}
