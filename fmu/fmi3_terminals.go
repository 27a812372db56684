package fmu

import (
	"slices"
	"strings"

	"github.com/cablefmu/cablefmu/modeldesc"
)

// Terminals3 groups the model's ports into FMI 3.0 terminals, so that a
// system tool connects a crane to the FMU connector by connector: one
// terminal per body, winch or plugin whose ports include an input, named
// by that prefix (suspension, winch, wind …), with its inputs and outputs
// as members named by what follows the prefix (x, vx, fx; speed, brake).
// A group with position or velocity inputs is a driven point; one whose
// speed input pays out a winch or a drum (so its description says) is a
// winch; the others (a plugin's inputs) are plain signals.
// The members are signals: the master sets the point's motion and reads
// the force on it, not a flow to balance. Node arrays stay out.
func Terminals3(model Configured) *modeldesc.TerminalsAndIcons {
	type group struct {
		members []modeldesc.TerminalMember
		inputs  []string
		winch   bool // a pay-out speed input: a winch's or a drum's
	}
	groups := map[string]*group{}
	var order []string
	for _, v := range model.Variables() {
		prefix, member, ok := strings.Cut(v.Name, ".")
		if !ok || strings.ContainsAny(member, ".[") {
			continue
		}
		if v.Causality != modeldesc.CausalityInput && v.Causality != modeldesc.CausalityOutput {
			continue
		}
		g := groups[prefix]
		if g == nil {
			g = &group{}
			groups[prefix] = g
			order = append(order, prefix)
		}
		g.members = append(g.members, modeldesc.TerminalMember{VariableName: v.Name, MemberName: member, VariableKind: "signal"})
		if v.Causality == modeldesc.CausalityInput {
			g.inputs = append(g.inputs, member)
			d := strings.ToLower(v.Description)
			g.winch = g.winch || member == "speed" && (strings.Contains(d, "winch") || strings.Contains(d, "drum"))
		}
	}
	t := &modeldesc.TerminalsAndIcons{}
	for _, prefix := range order {
		g := groups[prefix]
		if len(g.inputs) == 0 {
			continue // outputs alone are no connector to drive
		}
		term := modeldesc.Terminal{Name: prefix, MatchingRule: "bus", Members: g.members}
		switch {
		case slices.Contains(g.inputs, "x") || slices.Contains(g.inputs, "vx"):
			term.TerminalKind = "_cablefmu_DrivenPoint"
			term.Description = "Driven point: its position and velocity in, the force on it out"
		case g.winch:
			term.TerminalKind = "_cablefmu_Winch"
			term.Description = "Winch: its commands in, its state out"
		default:
			term.TerminalKind = "_cablefmu_Signals"
			term.Description = "Signals of " + prefix
		}
		t.Terminals = append(t.Terminals, term)
	}
	return t
}
