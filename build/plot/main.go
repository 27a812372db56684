// Command plot draws the results of a hoist co-simulation.
//
// It reads a CSV file with a header row and writes one PNG of stacked
// panels over the "time" column. By default the panels are those of
// examples/clients/python/hoist_cosim.py: the sway angle in degrees, the
// cable tension in kN and the unstretched cable length in m. -panels picks
// others: panels separated by ";", each "columns:title:y label:scale" with
// several columns joined by "+" drawn as lines of one panel.
//
//	go run ./build/plot -csv out/hoist.csv -o out/hoist.png
//	go run ./build/plot -csv out/controlled.csv -o out/controlled.png \
//	    -panels 'load.z+controller.reference:Lift:height (m):1;cable.tension:Tension:kN:1e-3'
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/cablefmu/cablefmu/build/chart"
	"gonum.org/v1/plot/vg"
)

const defaultPanels = "sway:Load sway:sway angle (deg):1;" +
	"cable.tension:Cable tension:tension (kN):1e-3;" +
	"cable.length:Cable length:unstretched length (m):1"

// parsePanels reads the -panels flag.
func parsePanels(spec string) ([]chart.Panel, error) {
	var ps []chart.Panel
	for _, item := range strings.Split(spec, ";") {
		f := strings.Split(item, ":")
		if len(f) != 4 {
			return nil, fmt.Errorf("panel %q: want columns:title:label:scale", item)
		}
		scale, err := strconv.ParseFloat(f[3], 64)
		if err != nil {
			return nil, fmt.Errorf("panel %q: scale: %w", item, err)
		}
		ps = append(ps, chart.Panel{Columns: strings.Split(f[0], "+"), Title: f[1], Label: f[2], Scale: scale})
	}
	return ps, nil
}

func main() {
	csvPath := flag.String("csv", "out/hoist.csv", "CSV file written by hoist_cosim.py")
	outPath := flag.String("o", "out/hoist.png", "PNG file to write")
	width := flag.Float64("width", 20, "image width in cm")
	height := flag.Float64("height", 24, "image height in cm")
	spec := flag.String("panels", defaultPanels, "panels: columns:title:label:scale, separated by ';'")
	flag.Parse()
	panels, err := parsePanels(*spec)
	if err == nil {
		err = run(*csvPath, *outPath, panels, vg.Length(*width)*vg.Centimeter, vg.Length(*height)*vg.Centimeter)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "plot:", err)
		os.Exit(1)
	}
}

func run(csvPath, outPath string, panels []chart.Panel, width, height vg.Length) error {
	f, err := os.Open(csvPath)
	if err != nil {
		return fmt.Errorf("open results: %w", err)
	}
	defer f.Close()
	names := []string{"time"}
	for _, pn := range panels {
		names = append(names, pn.Columns...)
	}
	cols, err := chart.ReadColumns(f, names...)
	if err != nil {
		return fmt.Errorf("read %s: %w", csvPath, err)
	}
	return chart.Draw(cols, panels, width, height, outPath)
}
