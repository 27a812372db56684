// Package chart draws time series as stacked line panels in a PNG: the
// examples' plots and the first look of cablefmu run.
package chart

import (
	"encoding/csv"
	"errors"
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

// Panel is one of the stacked plots.
type Panel struct {
	Columns []string // columns plotted against time
	Title   string
	Label   string  // y-axis label, with the unit
	Scale   float64 // factor applied to the column values
}

// Draw writes a PNG of width × height at path with one panel above the
// other over the column "time" of cols.
func Draw(cols map[string][]float64, panels []Panel, width, height vg.Length, path string) error {
	plots := make([][]*plot.Plot, len(panels))
	legends := make([]*plot.Legend, len(panels))
	for i, pn := range panels {
		p, legend, err := linePlot(cols, pn)
		if err != nil {
			return fmt.Errorf("panel %s: %w", pn.Title, err)
		}
		if i < len(panels)-1 {
			p.X.Label.Text = ""
		}
		plots[i], legends[i] = []*plot.Plot{p}, legend
	}

	img := vgimg.New(width, height)
	// The legends stand in a column right of the panels, never on the
	// data.
	full := draw.New(img)
	dc := draw.Crop(full, 0, -legendWidth, 0, 0)
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
		if legends[i] != nil {
			c := canvases[i][0]
			c.Min.X, c.Max.X = full.Max.X-legendWidth+vg.Millimeter, full.Max.X
			legends[i].Draw(c)
		}
	}

	out, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("create image: %w", err)
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(out); err != nil {
		out.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("close %s: %w", path, err)
	}
	return nil
}

// legendWidth is the width of the legends' column.
const legendWidth = 4.5 * vg.Centimeter

// linePlot returns a plot of each of pn's columns times pn.Scale over
// time and, when there are several, their legend. Lines differ in colour
// and dash pattern, so that they can be told apart where they overlap and
// in grey.
func linePlot(cols map[string][]float64, pn Panel) (*plot.Plot, *plot.Legend, error) {
	p := plot.New()
	p.Title.Text = pn.Title
	p.X.Label.Text = "time (s)"
	p.Y.Label.Text = pn.Label
	p.Add(plotter.NewGrid())
	var legend *plot.Legend
	if len(pn.Columns) > 1 {
		l := plot.NewLegend()
		l.Top, l.Left = true, true
		legend = &l
	}
	t := cols["time"]
	for k, name := range pn.Columns {
		pts := make(plotter.XYs, len(t))
		for i := range t {
			pts[i].X = t[i]
			pts[i].Y = cols[name][i] * pn.Scale
		}
		line, err := plotter.NewLine(pts)
		if err != nil {
			return nil, nil, fmt.Errorf("line %s: %w", name, err)
		}
		line.Width = vg.Points(1.2)
		line.Color = plotutil.Color(k)
		if k > 0 {
			line.Dashes = plotutil.Dashes(k)
		}
		p.Add(line)
		if legend != nil {
			legend.Add(name, line)
		}
	}
	// Keep a flat curve (e.g. a constant length) from filling the panel
	// with rounding noise.
	if span := p.Y.Max - p.Y.Min; span < 1e-9*math.Max(1, math.Abs(p.Y.Max)) {
		pad := 0.05 * math.Max(1, math.Abs(p.Y.Max))
		p.Y.Min -= pad
		p.Y.Max += pad
	}
	return p, legend, nil
}

// ReadColumns reads the named columns of a CSV file with a header row,
// whose names may carry their unit: "cable.tension (N)".
func ReadColumns(r io.Reader, names ...string) (map[string][]float64, error) {
	cr := csv.NewReader(r)
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	index := make(map[string]int, len(header))
	for i, h := range header {
		h = strings.TrimSpace(h)
		index[h] = i
		// A header "cable.tension (N)" is the column cable.tension too.
		if name, unit, ok := strings.Cut(h, " ("); ok && strings.HasSuffix(unit, ")") {
			index[name] = i
		}
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
