package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/cablefmu/cablefmu/modeldesc"
)

// port is a variable as info and models list it.
type port struct {
	name, causality, unit, description string
	start                              string
	min, max                           *float64
}

// fmuContent is what info reads from an FMU.
type fmuContent struct {
	fmiVersion, modelName, identifier, token, tool, model string
	platforms                                             []string
	stopTime, step                                        float64
	ports                                                 []port
}

func runInfo(args []string, stdout, stderr io.Writer) error {
	fs := flags("info", "X.fmu", "Says what a cablefmu FMU holds: its model, FMI version, platforms and ports.", stdout)
	pos, err := parse(fs, args, 1)
	if err != nil {
		return err
	}
	c, err := readFMU(pos[0])
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: FMI %s Co-Simulation, model identifier %s\n", pos[0], c.fmiVersion, c.identifier)
	fmt.Fprintf(stdout, "  model       %s (%s)\n", c.model, c.modelName)
	fmt.Fprintf(stdout, "  platforms   %s\n", strings.Join(c.platforms, ", "))
	fmt.Fprintf(stdout, "  made by     %s\n", c.tool)
	fmt.Fprintf(stdout, "  token       %s\n", c.token)
	if c.stopTime > 0 {
		fmt.Fprintf(stdout, "  experiment  stop %g s, step %g s\n", c.stopTime, c.step)
	}
	writePorts(stdout, c.ports)
	return nil
}

// writePorts lists ports by causality (inputs, outputs, parameters) in
// columns: name, unit, start value, range, meaning.
func writePorts(w io.Writer, ports []port) {
	for _, causality := range []string{"input", "output", "parameter"} {
		var rows [][5]string
		for _, p := range ports {
			if p.causality != causality {
				continue
			}
			unit, span := p.unit, ""
			if unit == "" {
				unit = "1"
			}
			if p.min != nil || p.max != nil {
				span = fmt.Sprintf("[%s, %s]", bound(p.min, "-inf"), bound(p.max, "inf"))
			}
			rows = append(rows, [5]string{p.name, unit, p.start, span, p.description})
		}
		if len(rows) == 0 {
			continue
		}
		fmt.Fprintf(w, "  %ss:\n", causality)
		var width [4]int
		for _, r := range rows {
			for i := range width {
				width[i] = max(width[i], len(r[i]))
			}
		}
		for _, r := range rows {
			fmt.Fprintf(w, "    %-*s  %-*s  %*s  %-*s  %s\n", width[0], r[0], width[1], r[1], width[2], r[2], width[3], r[3], r[4])
		}
	}
}

func bound(x *float64, none string) string {
	if x == nil {
		return none
	}
	return strconv.FormatFloat(*x, 'g', -1, 64)
}

// readFMU reads an FMU's model description, platforms and scenario.
func readFMU(file string) (*fmuContent, error) {
	z, err := zip.OpenReader(file)
	if err != nil {
		return nil, fmt.Errorf("%s: not an FMU (a zip archive): %w", file, err)
	}
	defer z.Close()
	entries := map[string]*zip.File{}
	for _, f := range z.File {
		entries[f.Name] = f
	}
	read := func(name string) ([]byte, error) {
		f, ok := entries[name]
		if !ok {
			return nil, fmt.Errorf("%s: no %s: not an FMU", file, name)
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", file, name, err)
		}
		defer rc.Close()
		return io.ReadAll(io.LimitReader(rc, 64<<20))
	}
	xml, err := read("modelDescription.xml")
	if err != nil {
		return nil, err
	}
	c := &fmuContent{}
	if bytes.Contains(xml, []byte(`fmiVersion="3.`)) {
		md, err := modeldesc.Parse3(xml)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		c.fmiVersion, c.modelName, c.token, c.tool = "3.0", md.ModelName, md.InstantiationToken, md.GenerationTool
		if md.CoSimulation != nil {
			c.identifier = md.CoSimulation.ModelIdentifier
		}
		if d := md.DefaultExperiment; d != nil {
			c.stopTime, c.step = d.StopTime, d.StepSize
		}
		for _, v := range md.Variables {
			if v.Causality == "" || v.Causality == modeldesc.CausalityIndependent {
				continue
			}
			p := port{name: v.Name, causality: string(v.Causality), unit: v.Unit, description: v.Description, min: v.Min, max: v.Max}
			if len(v.Start) == 1 {
				p.start = strconv.FormatFloat(v.Start[0], 'g', -1, 64)
			}
			c.ports = append(c.ports, p)
		}
	} else {
		md, err := modeldesc.Parse(xml)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		c.fmiVersion, c.modelName, c.token, c.tool = md.FMIVersion, md.ModelName, md.GUID, md.GenerationTool
		if md.CoSimulation != nil {
			c.identifier = md.CoSimulation.ModelIdentifier
		}
		if d := md.DefaultExperiment; d != nil {
			c.stopTime, c.step = d.StopTime, d.StepSize
		}
		for _, v := range md.Variables {
			if v.Causality == "" || v.Causality == modeldesc.CausalityLocal {
				continue
			}
			c.ports = append(c.ports, port{name: v.Name, causality: string(v.Causality), unit: v.Unit, description: v.Description, start: v.Start, min: v.Min, max: v.Max})
		}
	}
	for name := range entries {
		if dir, file := path.Split(name); strings.HasPrefix(dir, "binaries/") && strings.Count(dir, "/") == 2 && strings.HasPrefix(file, c.identifier+".") {
			c.platforms = append(c.platforms, strings.TrimSuffix(strings.TrimPrefix(dir, "binaries/"), "/"))
		}
	}
	slices.Sort(c.platforms)
	if len(c.platforms) == 0 {
		c.platforms = []string{"none (no binaries/PLATFORM/" + c.identifier + ".*)"}
	}
	c.model = "not a cablefmu scenario (no resources/scenario.json)"
	if data, err := read("resources/scenario.json"); err == nil {
		var sc struct {
			Model string `json:"model"`
		}
		if json.Unmarshal(data, &sc) == nil && sc.Model != "" {
			c.model = sc.Model
		}
	}
	return c, nil
}
