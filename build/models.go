package main

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/cablefmu/cablefmu/examples"
	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins"
)

func runModels(args []string, stdout, stderr io.Writer) error {
	fs := flags("models", "[NAME] [-scenario]", "Lists the models with when to pick each; with a name, the quantities a scenario of that model\n"+
		"can make ports (those of its example scenario: a cable's node arrays follow its node count), with\n"+
		"units, start values, ranges and meaning. -scenario prints the example scenario instead, a start for\n"+
		"your own.", stdout)
	example := fs.Bool("scenario", false, "print the model's example scenario")
	pos, err := parse(fs, args, -1)
	if err != nil {
		return err
	}
	reg, err := plugins.Builtin()
	if err != nil {
		return err
	}
	names := reg.Names()
	switch len(pos) {
	case 0:
		if *example {
			return usageError{"-scenario needs a model's name"}
		}
		width := 0
		for _, n := range names {
			width = max(width, len(n))
		}
		for _, n := range names {
			m, err := reg.Lookup(n)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "%-*s  %s\n", width, n, m.Summary())
		}
		fmt.Fprintln(stdout, "\ncablefmu models NAME lists a model's ports; cablefmu models NAME -scenario prints its example.")
		return nil
	case 1:
	default:
		return usageError{fmt.Sprintf("one model at a time, got %d", len(pos))}
	}
	m, err := reg.Lookup(pos[0])
	if err != nil {
		return fmt.Errorf("%w (%s)", err, nearest(pos[0], names))
	}
	data, err := examples.Scenario(m.Name())
	if err != nil {
		return err
	}
	if *example {
		_, err := stdout.Write(data)
		return err
	}
	sc, err := fmu.ParseScenario(data)
	if err != nil {
		return fmt.Errorf("the example scenario of %s: %w", m.Name(), err)
	}
	configured, err := reg.Configure(sc)
	if err != nil {
		return fmt.Errorf("the example scenario of %s: %w", m.Name(), err)
	}
	offering, ok := configured.(fmu.Offering)
	if !ok {
		return fmt.Errorf("model %s does not list its quantities", m.Name())
	}
	fmt.Fprintf(stdout, "%s: %s\n", m.Name(), m.Summary())
	writePorts(stdout, folded(offering.Quantities()))
	return nil
}

var index = regexp.MustCompile(`\[\d+\]`)

// folded lists quantities with the indexed names of an array
// (cable.node[1].x … cable.node[K].x) as one, cable.node[k].x, k = 1 … K;
// the words of its description that differ from element to element
// become k where they are the index, … elsewhere.
func folded(vars []fmu.Variable) []port {
	var out []port
	at := map[string]int{}
	count := map[string]int{}
	for _, v := range vars {
		name := index.ReplaceAllString(v.Name, "[k]")
		count[name]++
		if i, seen := at[name]; seen {
			if count[name] == 2 {
				out[i].description = generalized(out[i].description, v.Description, v.Name)
			}
			continue
		}
		at[name] = len(out)
		p := port{name: name, causality: string(v.Causality), unit: v.Unit, description: v.Description, min: v.Min, max: v.Max}
		if v.Causality != "output" {
			p.start = strconv.FormatFloat(v.Start, 'g', -1, 64)
		}
		out = append(out, p)
	}
	for name, i := range at {
		if n := count[name]; n > 1 {
			out[i].description += fmt.Sprintf(" (k = 1 … %d)", n)
		}
	}
	return out
}

// generalized merges the descriptions of an array's first and second
// elements, the second named second.
func generalized(first, next, second string) string {
	a, b := strings.Fields(first), strings.Fields(next)
	if len(a) != len(b) {
		return first
	}
	k := strings.Trim(index.FindString(second), "[]")
	for i := range a {
		switch {
		case a[i] == b[i]:
		case strings.Trim(b[i], ",;:()") == k:
			a[i] = strings.Replace(b[i], k, "k", 1)
		default:
			a[i] = "…"
		}
	}
	return strings.Join(a, " ")
}
