package modeldesc

import (
	"errors"
	"fmt"
	"strings"

	"github.com/beevik/etree"
)

// TerminalsFile is where an FMI 3.0 FMU holds its terminals, relative to
// the archive's root.
const TerminalsFile = "terminalsAndIcons/terminalsAndIcons.xml"

// schemaTerminals3 is the FMI 3.0 schema of TerminalsFile.
const schemaTerminals3 = "3.0/fmi3TerminalsAndIcons.xsd"

// TerminalsAndIcons is the content of TerminalsFile: the terminals that
// group an FMU's variables into connectors, and whether the FMU has an
// icon (IconFile, with IconSVG beside it), which the graphical
// representation then places on the default coordinate system (−100 to
// 100 both ways, 0.1 mm a unit: 20 mm square).
type TerminalsAndIcons struct {
	Terminals []Terminal
	Icon      bool
}

// IconFile and IconSVG are where an FMI 3.0 FMU holds its icon.
const (
	IconFile = "terminalsAndIcons/icon.png"
	IconSVG  = "terminalsAndIcons/icon.svg"
)

// Terminal is a named group of variables a tool can connect as one.
type Terminal struct {
	Name string
	// MatchingRule says how the members match a connected terminal's:
	// "plug", "bus" (by memberName) or "sequence" (by order).
	MatchingRule string
	// TerminalKind names the kind of connector; vendor kinds start with
	// "_" and the vendor's name.
	TerminalKind string
	Description  string
	Members      []TerminalMember
}

// TerminalMember is one variable of a terminal.
type TerminalMember struct {
	VariableName string
	MemberName   string
	// VariableKind is "signal" (equal in connected terminals) or "inflow"
	// and "outflow" (summing to zero, as currents).
	VariableKind string
}

// Check checks the terminals against the model description they belong
// to: every member names one of its variables, member names are given
// and unique within a terminal where the rule matches by name, and the
// terminal names are unique.
func (t *TerminalsAndIcons) Check(md *ModelDescription3) error {
	vars := map[string]bool{}
	for _, v := range md.Variables {
		vars[v.Name] = true
	}
	var errs []error
	names := map[string]bool{}
	for _, term := range t.Terminals {
		s := fmt.Sprintf("terminal %q", term.Name)
		if strings.TrimSpace(term.Name) == "" || names[term.Name] {
			errs = append(errs, fmt.Errorf("%s: a name unique among the terminals is required", s))
		}
		names[term.Name] = true
		switch term.MatchingRule {
		case "plug", "bus", "sequence", "none":
		default:
			errs = append(errs, fmt.Errorf("%s: matchingRule %q: want plug, bus, sequence or none", s, term.MatchingRule))
		}
		members := map[string]bool{}
		for _, m := range term.Members {
			if !vars[m.VariableName] {
				errs = append(errs, fmt.Errorf("%s: member variable %q is not in the model description", s, m.VariableName))
			}
			byName := term.MatchingRule == "plug" || term.MatchingRule == "bus"
			if byName && (m.MemberName == "" || members[m.MemberName]) {
				errs = append(errs, fmt.Errorf("%s: memberName %q: %s matches by name, so each member needs a name of its own", s, m.MemberName, term.MatchingRule))
			}
			members[m.MemberName] = true
			switch m.VariableKind {
			case "signal", "inflow", "outflow":
			default:
				errs = append(errs, fmt.Errorf("%s: variableKind %q of %s: want signal, inflow or outflow", s, m.VariableKind, m.VariableName))
			}
		}
	}
	return errors.Join(errs...)
}

// Marshal writes TerminalsFile's XML.
func (t *TerminalsAndIcons) Marshal() ([]byte, error) {
	doc := etree.NewDocument()
	doc.CreateProcInst("xml", `version="1.0" encoding="UTF-8"`)
	root := doc.CreateElement("fmiTerminalsAndIcons")
	root.CreateAttr("fmiVersion", FMIVersion3)
	if t.Icon {
		g := root.CreateElement("GraphicalRepresentation")
		extent := func(el *etree.Element) {
			for _, a := range [][2]string{{"x1", "-100"}, {"y1", "-100"}, {"x2", "100"}, {"y2", "100"}} {
				el.CreateAttr(a[0], a[1])
			}
		}
		cs := g.CreateElement("CoordinateSystem")
		extent(cs)
		cs.CreateAttr("suggestedScalingFactorTo_mm", "0.1")
		extent(g.CreateElement("Icon"))
	}
	if len(t.Terminals) > 0 {
		terms := root.CreateElement("Terminals")
		for _, term := range t.Terminals {
			el := terms.CreateElement("Terminal")
			for _, m := range term.Members {
				me := el.CreateElement("TerminalMemberVariable")
				me.CreateAttr("variableName", m.VariableName)
				optAttr(me, "memberName", m.MemberName)
				me.CreateAttr("variableKind", m.VariableKind)
			}
			el.CreateAttr("name", term.Name)
			el.CreateAttr("matchingRule", term.MatchingRule)
			optAttr(el, "terminalKind", term.TerminalKind)
			optAttr(el, "description", term.Description)
		}
	}
	doc.Indent(2)
	return doc.WriteToBytes()
}

// ValidateTerminals3 validates a TerminalsFile at xmlPath against the FMI
// 3.0 schema found in schemaDir with xmllint (errors as ValidateWithSchema).
func ValidateTerminals3(xmlPath, schemaDir string) error {
	xsd, err := schemaPath(schemaDir, schemaTerminals3)
	if err != nil {
		return err
	}
	return xmllintValidate(xmlPath, xsd)
}
