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
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// panel describes one of the stacked plots.
type panel struct {
	columns []string // CSV columns plotted against time
	title   string   // panel title
	label   string   // y-axis label
	scale   float64  // factor applied to the column values
}

const defaultPanels = "sway.deg:Load sway:sway angle (deg):1;" +
	"cable.tension:Cable tension:tension (kN):1e-3;" +
	"cable.length:Cable length:unstretched length (m):1"

// parsePanels reads the -panels flag.
func parsePanels(spec string) ([]panel, error) {
	var ps []panel
	for _, item := range strings.Split(spec, ";") {
		f := strings.Split(item, ":")
		if len(f) != 4 {
			return nil, fmt.Errorf("panel %q: want columns:title:label:scale", item)
		}
		scale, err := strconv.ParseFloat(f[3], 64)
		if err != nil {
			return nil, fmt.Errorf("panel %q: scale: %w", item, err)
		}
		ps = append(ps, panel{columns: strings.Split(f[0], "+"), title: f[1], label: f[2], scale: scale})
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

func run(csvPath, outPath string, panels []panel, width, height vg.Length) error {
	f, err := os.Open(csvPath)
	if err != nil {
		return fmt.Errorf("open results: %w", err)
	}
	defer f.Close()
	names := []string{"time"}
	for _, pn := range panels {
		names = append(names, pn.columns...)
	}
	cols, err := readColumns(f, names...)
	if err != nil {
		return fmt.Errorf("read %s: %w", csvPath, err)
	}

	plots := make([][]*plot.Plot, len(panels))
	for i, pn := range panels {
		p, err := linePlot(cols, pn)
		if err != nil {
			return fmt.Errorf("panel %s: %w", pn.title, err)
		}
		if i < len(panels)-1 {
			p.X.Label.Text = ""
		}
		plots[i] = []*plot.Plot{p}
	}

	img := vgimg.New(width, height)
	dc := draw.New(img)
	tiles := draw.Tiles{
		Rows:      len(panels),
		Cols:      1,
		PadX:      vg.Millimeter,
		PadY:      4 * vg.Millimeter,
		PadTop:    2 * vg.Millimeter,
		PadBottom: 2 * vg.Millimeter,
		PadLeft:   2 * vg.Millimeter,
		PadRight:  4 * vg.Millimeter,
	}
	canvases := plot.Align(plots, tiles, dc)
	for i := range plots {
		plots[i][0].Draw(canvases[i][0])
	}

	out, err := os.Create(outPath)
	if err != nil {
		return fmt.Errorf("create image: %w", err)
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(out); err != nil {
		out.Close()
		return fmt.Errorf("write %s: %w", outPath, err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("close %s: %w", outPath, err)
	}
	return nil
}

// linePlot returns a plot of each of pn's columns times pn.scale over
// time, with a legend when there are several.
func linePlot(cols map[string][]float64, pn panel) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = pn.title
	p.X.Label.Text = "time (s)"
	p.Y.Label.Text = pn.label
	p.Add(plotter.NewGrid())
	t := cols["time"]
	for k, name := range pn.columns {
		pts := make(plotter.XYs, len(t))
		for i := range t {
			pts[i].X = t[i]
			pts[i].Y = cols[name][i] * pn.scale
		}
		line, err := plotter.NewLine(pts)
		if err != nil {
			return nil, fmt.Errorf("line %s: %w", name, err)
		}
		line.Width = vg.Points(1.2)
		line.Color = plotutil.Color(k)
		if k > 0 {
			line.Dashes = plotutil.Dashes(k)
		}
		p.Add(line)
		if len(pn.columns) > 1 {
			p.Legend.Add(name, line)
		}
	}
	p.Legend.Top = true
	// Keep a flat curve (e.g. a constant length) from filling the panel
	// with rounding noise.
	if span := p.Y.Max - p.Y.Min; span < 1e-9*math.Max(1, math.Abs(p.Y.Max)) {
		pad := 0.05 * math.Max(1, math.Abs(p.Y.Max))
		p.Y.Min -= pad
		p.Y.Max += pad
	}
	return p, nil
}

// readColumns reads the named columns of a CSV file with a header row.
func readColumns(r io.Reader, names ...string) (map[string][]float64, error) {
	cr := csv.NewReader(r)
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	index := make(map[string]int, len(header))
	for i, h := range header {
		index[strings.TrimSpace(h)] = i
	}
	cols := make(map[string][]float64, len(names))
	var missing []string
	for _, n := range names {
		if _, ok := index[n]; !ok {
			missing = append(missing, n)
		}
		cols[n] = nil
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("missing column(s) %s", strings.Join(missing, ", "))
	}
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("row %d: %w", line, err)
		}
		for _, n := range names {
			s := strings.TrimSpace(rec[index[n]])
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, fmt.Errorf("row %d, column %s: %w", line, n, err)
			}
			cols[n] = append(cols[n], v)
		}
	}
	if len(cols[names[0]]) == 0 {
		return nil, errors.New("no data rows")
	}
	return cols, nil
}
