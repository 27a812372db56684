package modeldesc

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// SIUnits returns UnitDefinitions entries for the named units, in the order
// given and without duplicates. Names follow the Modelica/FMI convention
// ("." multiplies, "/" divides, a trailing digit is an exponent), e.g. "m",
// "m/s2", "N.m/rad", "kg/m3", "1/s"; and "MB" (megabytes), which has no
// base units. An unknown name is an error rather than
// a guess, because a wrong exponent would silently mislead importers that
// convert units.
func SIUnits(names ...string) ([]Unit, error) {
	var units []Unit
	var unknown []string
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			continue
		}
		seen[n] = true
		if n == "MB" { // memory: no SI base units measure it
			units = append(units, Unit{Name: n, NoBase: true})
			continue
		}
		b, ok := siBase(n)
		if !ok {
			unknown = append(unknown, fmt.Sprintf("%q", n))
			continue
		}
		units = append(units, Unit{Name: n, Base: b, Display: displays(n)})
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("SI units: no definition for %s (known: %s)",
			strings.Join(unknown, ", "), strings.Join(KnownSIUnits(), " "))
	}
	return units, nil
}

// KnownSIUnits lists the names SIUnits can define, sorted.
func KnownSIUnits() []string {
	names := []string{
		"1", "m", "m2", "m3", "s", "kg", "K", "rad", "deg",
		"m/s", "m/s2", "rad/s", "rad/s2", "1/s", "Hz",
		"kg/m", "kg/m3", "kg.m2",
		"N", "kN", "N.m", "N.m2", "N/m", "N.s", "N.s/m", "s/kg", "N.m/rad", "N.m.s/rad",
		"Pa", "J", "W",
	}
	sort.Strings(names)
	return names
}

// displays lists the display units a crane engineer reads a unit's
// values in, display value = factor · value: kN for forces, t for masses,
// mm for lengths (rope diameters), deg for angles, rpm for drums and
// sheaves, GPa for moduli.
func displays(name string) []DisplayUnit {
	switch name {
	case "N":
		return []DisplayUnit{{Name: "kN", Factor: 1e-3}}
	case "kg":
		return []DisplayUnit{{Name: "t", Factor: 1e-3}}
	case "m":
		return []DisplayUnit{{Name: "mm", Factor: 1e3}}
	case "rad":
		return []DisplayUnit{{Name: "deg", Factor: 180 / math.Pi}}
	case "rad/s":
		return []DisplayUnit{{Name: "rpm", Factor: 30 / math.Pi}, {Name: "deg/s", Factor: 180 / math.Pi}}
	case "Pa":
		return []DisplayUnit{{Name: "GPa", Factor: 1e-9}, {Name: "MPa", Factor: 1e-6}}
	case "N.m":
		return []DisplayUnit{{Name: "kN.m", Factor: 1e-3}}
	case "N.m2":
		return []DisplayUnit{{Name: "kN.m2", Factor: 1e-3}}
	case "kg.m2":
		return []DisplayUnit{{Name: "t.m2", Factor: 1e-3}}
	case "s":
		return []DisplayUnit{{Name: "ms", Factor: 1e3}}
	}
	return nil
}

// siBase maps a unit name to SI base exponents. A switch rather than a
// package-level map keeps the table immutable.
func siBase(name string) (BaseUnit, bool) {
	switch name {
	case "1":
		return BaseUnit{}, true
	case "m":
		return BaseUnit{M: 1}, true
	case "m2":
		return BaseUnit{M: 2}, true
	case "m3":
		return BaseUnit{M: 3}, true
	case "s":
		return BaseUnit{S: 1}, true
	case "kg":
		return BaseUnit{Kg: 1}, true
	case "K":
		return BaseUnit{K: 1}, true
	case "rad":
		return BaseUnit{Rad: 1}, true
	case "deg":
		return BaseUnit{Rad: 1, Factor: math.Pi / 180}, true
	case "m/s":
		return BaseUnit{M: 1, S: -1}, true
	case "m/s2":
		return BaseUnit{M: 1, S: -2}, true
	case "rad/s":
		return BaseUnit{Rad: 1, S: -1}, true
	case "rad/s2":
		return BaseUnit{Rad: 1, S: -2}, true
	case "1/s", "Hz":
		return BaseUnit{S: -1}, true
	case "kg/m":
		return BaseUnit{Kg: 1, M: -1}, true
	case "kg/m3":
		return BaseUnit{Kg: 1, M: -3}, true
	case "kg.m2":
		return BaseUnit{Kg: 1, M: 2}, true
	case "N":
		return BaseUnit{Kg: 1, M: 1, S: -2}, true
	case "kN":
		return BaseUnit{Kg: 1, M: 1, S: -2, Factor: 1000}, true
	case "N.m", "J":
		return BaseUnit{Kg: 1, M: 2, S: -2}, true
	case "N.m2": // bending stiffness EI
		return BaseUnit{Kg: 1, M: 3, S: -2}, true
	case "N/m":
		return BaseUnit{Kg: 1, S: -2}, true
	case "N.s":
		return BaseUnit{Kg: 1, M: 1, S: -1}, true
	case "N.s/m":
		return BaseUnit{Kg: 1, S: -1}, true
	case "s/kg": // m/(N·s), a winch's slip: pay-out speed per newton
		return BaseUnit{Kg: -1, S: 1}, true
	case "N.m/rad":
		return BaseUnit{Kg: 1, M: 2, S: -2, Rad: -1}, true
	case "N.m.s/rad":
		return BaseUnit{Kg: 1, M: 2, S: -1, Rad: -1}, true
	case "Pa":
		return BaseUnit{Kg: 1, M: -1, S: -2}, true
	case "W":
		return BaseUnit{Kg: 1, M: 2, S: -3}, true
	}
	return BaseUnit{}, false
}
