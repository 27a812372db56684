package fmu

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/cablefmu/cablefmu/modeldesc"
)

// Var3 is a variable of the FMI 3.0 interface: the independent variable
// time, a scalar of the model, or an array gathered from the model's
// scalars named base[k].x, base[k].y, base[k].z, k = 1…K (shape K×3).
type Var3 struct {
	Name        string
	VR          uint32
	Independent bool
	// Scalars are the model variables behind the FMI 3.0 variable, in
	// row-major order; Dims is nil for a scalar.
	Scalars []int
	Dims    []int
	// Proto is the first scalar's variable: causality, unit, description.
	Proto Variable
}

var elementName = regexp.MustCompile(`^(.+)\[(\d+)\]\.([xyz])$`)

// Layout3 arranges the model's scalar variables for FMI 3.0: value
// reference 0 is time, then the variables in their FMI 2.0 order, with
// each complete family base[1…K].x|y|z of equal causality and unit
// turned into one K×3 array at the place of its first element.
func Layout3(vars []Variable) []Var3 {
	type family struct {
		idx   map[[2]int]int
		max   int
		proto Variable
		ok    bool
	}
	families := map[string]*family{}
	for i, v := range vars {
		m := elementName.FindStringSubmatch(v.Name)
		if m == nil {
			continue
		}
		k, _ := strconv.Atoi(m[2])
		f := families[m[1]]
		if f == nil {
			f = &family{idx: map[[2]int]int{}, proto: v, ok: true}
			families[m[1]] = f
		}
		f.idx[[2]int{k, strings.Index("xyz", m[3])}] = i
		f.max = max(f.max, k)
		f.ok = f.ok && v.Causality == f.proto.Causality && v.Unit == f.proto.Unit
	}
	for _, f := range families {
		f.ok = f.ok && len(f.idx) == 3*f.max
	}
	out := []Var3{{Name: "time", VR: 0, Independent: true,
		Proto: Variable{Name: "time", Unit: "s", Description: "Simulation time", Causality: modeldesc.CausalityIndependent, Variability: modeldesc.VariabilityContinuous}}}
	done := map[string]bool{}
	for i, v := range vars {
		if m := elementName.FindStringSubmatch(v.Name); m != nil && families[m[1]].ok {
			base := m[1]
			if done[base] {
				continue
			}
			done[base] = true
			f := families[base]
			var scalars []int
			for k := 1; k <= f.max; k++ {
				for a := 0; a < 3; a++ {
					scalars = append(scalars, f.idx[[2]int{k, a}])
				}
			}
			proto := f.proto
			proto.Name = base
			proto.Description = fmt.Sprintf("%s (array [k][x, y, z], k = 1…%d)", arrayDescription(f.proto.Description), f.max)
			out = append(out, Var3{Name: base, VR: uint32(len(out)), Scalars: scalars, Dims: []int{f.max, 3}, Proto: proto})
			continue
		}
		out = append(out, Var3{Name: v.Name, VR: uint32(len(out)), Scalars: []int{i}, Proto: v})
	}
	return out
}

// arrayDescription turns an element's description ("World x position of
// segment end 1, …") into the array's by dropping the axis and the index.
func arrayDescription(d string) string {
	d = strings.Replace(d, "World x position", "World positions", 1)
	return regexp.MustCompile(` \d+,`).ReplaceAllString(d, ",")
}
