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
		return err // it names the nearest model
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
// (cable.node[1].x … cable.node[K].x) as one, cable.node[k].x, k = 1 … K,
// its description the words its elements' descriptions share, the
// element's index read as k, then "…" where they differ.
func folded(vars []fmu.Variable) []port {
	var out []port
	at := map[string]int{}
	texts := map[string][][]string{}
	for _, v := range vars {
		name := index.ReplaceAllString(v.Name, "[k]")
		words := strings.Fields(v.Description)
		if k := strings.Trim(index.FindString(v.Name), "[]"); k != "" {
			for i, w := range words { // the first mention: "fall 4 of 4"
				if strings.Trim(w, ",;:()") == k {
					words[i] = strings.Replace(w, k, "k", 1)
					break
				}
			}
		}
		texts[name] = append(texts[name], words)
		if _, seen := at[name]; seen {
			continue
		}
		at[name] = len(out)
		p := port{name: name, causality: string(v.Causality), unit: v.Unit, min: v.Min, max: v.Max}
		if v.Causality != "output" {
			p.start = strconv.FormatFloat(v.Start, 'g', -1, 64)
		}
		out = append(out, p)
	}
	for name, i := range at {
		all := texts[name]
		common := all[0]
		for _, words := range all[1:] {
			n := 0
			for n < len(common) && n < len(words) && common[n] == words[n] {
				n++
			}
			if n < len(common) || n < len(words) {
				common = append(common[:n:n], "…")
			}
		}
		out[i].description = strings.Join(common, " ")
		if len(all) > 1 {
			out[i].description += fmt.Sprintf(" (k = 1 … %d)", len(all))
		}
	}
	return out
}
