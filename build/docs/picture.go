// Package docs writes what documents an FMU inside it: the picture of
// its scenario (SVG and PNG, drawn from the model's fmu.Sketch) and
// documentation/index.html, written from the scenario and the model
// description: the model and its paper, the picture, every port and
// parameter with its unit, range and meaning, how to drive the FMU, and
// the model's validation figures.
package docs

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/cablefmu/cablefmu/fmu"
)

// Colours of the picture.
var (
	ropeColour    = color.RGBA{R: 0x33, G: 0x33, B: 0x33, A: 0xff}
	bodyFill      = color.RGBA{R: 0xb8, G: 0xcc, B: 0xe0, A: 0xff}
	bodyLine      = color.RGBA{R: 0x2b, G: 0x4a, B: 0x6f, A: 0xff}
	groundFill    = color.RGBA{R: 0xd9, G: 0xc8, B: 0xa9, A: 0xff}
	drivenColour  = color.RGBA{R: 0xc6, G: 0x28, B: 0x28, A: 0xff}
	labelColour   = color.RGBA{A: 0xff}
	scaleBarColor = color.RGBA{R: 0x55, G: 0x55, B: 0x55, A: 0xff}
)

// Picture draws the sketch, w × h points, as SVG and as PNG (at 96 dpi);
// labels names the shapes and adds a scale bar (an icon goes without).
func Picture(sk fmu.Sketch, w, h vg.Length, labels bool) (svg, png []byte, err error) {
	if len(sk.Shapes) == 0 {
		return nil, nil, fmt.Errorf("the model drew nothing to show")
	}
	sc := vgsvg.New(w, h)
	draw(sc, sk, w, h, labels)
	var sb bytes.Buffer
	if _, err := sc.WriteTo(&sb); err != nil {
		return nil, nil, fmt.Errorf("writing the SVG picture: %w", err)
	}
	ic := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(96), vgimg.UseBackgroundColor(color.White))
	draw(ic, sk, w, h, labels)
	var pb bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: ic}).WriteTo(&pb); err != nil {
		return nil, nil, fmt.Errorf("writing the PNG picture: %w", err)
	}
	return sb.Bytes(), pb.Bytes(), nil
}

// view maps the world (m) to the canvas (points): the horizontal axis
// across (x, or y where the scene spreads along y), z up.
type view struct {
	axis       int     // 0: x, 1: y
	scale      float64 // points per metre
	x0, z0     float64 // the world point at the canvas' origin
	xoff, zoff float64 // points
}

func (v view) at(p fmu.Point) vg.Point {
	return vg.Point{X: vg.Length(v.xoff + (p[v.axis]-v.x0)*v.scale), Y: vg.Length(v.zoff + (p[2]-v.z0)*v.scale)}
}

// fit returns the view that shows every shape within w × h with a margin,
// at one scale for both axes, seen along the horizontal axis the scene
// spreads least along (a crane's reeving lies in the x–z plane).
func fit(sk fmu.Sketch, w, h vg.Length, labels bool) view {
	// The ropes' plane, where they spread; else the bodies'.
	spread := func(a int, kinds ...fmu.ShapeKind) (lo, hi float64) {
		lo, hi = math.Inf(1), math.Inf(-1)
		for _, s := range sk.Shapes {
			if slices.Contains(kinds, s.Kind) {
				for _, p := range s.Points {
					lo, hi = min(lo, p[a]), max(hi, p[a])
				}
			}
		}
		return lo, hi
	}
	axis := 0
	xlo, xhi := spread(0, fmu.Rope)
	ylo, yhi := spread(1, fmu.Rope)
	if !(xhi-xlo > 1e-3 || yhi-ylo > 1e-3) {
		xlo, xhi = spread(0, fmu.Rope, fmu.Outline, fmu.Driven, fmu.Anchor)
		ylo, yhi = spread(1, fmu.Rope, fmu.Outline, fmu.Driven, fmu.Anchor)
	}
	if yhi-ylo > 1.5*(xhi-xlo) {
		axis = 1
	}
	lox, hix := spread(axis, fmu.Rope, fmu.Outline, fmu.Driven, fmu.Anchor)
	loz, hiz := math.Inf(1), math.Inf(-1)
	for _, s := range sk.Shapes {
		for _, p := range s.Points {
			loz, hiz = min(loz, p[2]), max(hiz, p[2])
		}
	}
	if math.IsInf(lox, 0) { // the ground alone
		lox, hix = -1, 1
	}
	dx, dz := max(hix-lox, 1e-3), max(hiz-loz, 1e-3)
	margin := 0.08 * float64(min(w, h))
	right := margin
	if labels {
		right += 0.22 * float64(w) // room for labels right of the shapes
	}
	aw, ah := float64(w)-margin-right, float64(h)-2*margin
	scale := min(aw/dx, ah/dz)
	return view{
		axis: axis, scale: scale, x0: lox, z0: loz,
		xoff: margin + (aw-dx*scale)/2, zoff: margin + (ah-dz*scale)/2,
	}
}

func draw(c vg.Canvas, sk fmu.Sketch, w, h vg.Length, labels bool) {
	v := fit(sk, w, h, labels)
	face := font.DefaultCache.Lookup(plot.DefaultFont, vg.Points(max(9, float64(min(w, h))/40)))
	// Labels are drawn last, over every shape, each where asked or moved
	// down a line at a time until it overlaps no label placed before.
	type text struct {
		s  string
		at vg.Point
	}
	var texts []text
	label := func(s string, at vg.Point) {
		if labels && s != "" {
			texts = append(texts, text{s, at})
		}
	}
	var placed []vg.Rectangle
	place := func(text string, at vg.Point) {
		height := face.Extents().Height
		for try := 0; try < 20; try++ {
			r := vg.Rectangle{Min: at, Max: vg.Point{X: at.X + face.Width(text), Y: at.Y + height}}
			free := true
			for _, q := range placed {
				if r.Min.X < q.Max.X && q.Min.X < r.Max.X && r.Min.Y < q.Max.Y && q.Min.Y < r.Max.Y {
					free = false
					break
				}
			}
			if free {
				placed = append(placed, r)
				break
			}
			at.Y -= height
		}
		c.SetColor(labelColour)
		c.FillString(face, at, text)
	}
	// The ground first, the ropes over the bodies, the driven points on top.
	for _, s := range sk.Shapes {
		if s.Kind != fmu.Ground || len(s.Points) == 0 {
			continue
		}
		z := v.at(s.Points[0]).Y
		var p vg.Path
		p.Move(vg.Point{X: 0, Y: 0})
		p.Line(vg.Point{X: w, Y: 0})
		p.Line(vg.Point{X: w, Y: z})
		p.Line(vg.Point{X: 0, Y: z})
		p.Close()
		c.SetColor(groundFill)
		c.Fill(p)
		label(s.Label, vg.Point{X: 4, Y: z - face.Extents().Ascent - 2})
	}
	for _, s := range sk.Shapes {
		if s.Kind != fmu.Outline || len(s.Points) < 2 {
			continue
		}
		p := polyline(v, s.Points)
		p.Close()
		c.SetColor(bodyFill)
		c.Fill(p)
		c.SetLineWidth(1)
		c.SetColor(bodyLine)
		c.Stroke(p)
		right := v.at(s.Points[0])
		var mid vg.Length
		for _, q := range s.Points {
			pt := v.at(q)
			right.X = max(right.X, pt.X)
			mid += pt.Y
		}
		label(s.Label, vg.Point{X: right.X + 4, Y: mid/vg.Length(len(s.Points)) - face.Extents().Ascent/2})
	}
	for _, s := range sk.Shapes {
		if s.Kind != fmu.Rope || len(s.Points) < 2 {
			continue
		}
		p := polyline(v, s.Points)
		c.SetLineWidth(1.6)
		c.SetColor(ropeColour)
		c.Stroke(p)
		m := midway(v, s.Points)
		label(s.Label, vg.Point{X: m.X + 5, Y: m.Y})
	}
	for _, s := range sk.Shapes {
		if (s.Kind != fmu.Driven && s.Kind != fmu.Anchor) || len(s.Points) == 0 {
			continue
		}
		pt := v.at(s.Points[0])
		r := vg.Length(max(4, float64(min(w, h))/90))
		var p vg.Path
		if s.Kind == fmu.Driven {
			// A triangle pointing down at the point: where the master holds it.
			p.Move(pt)
			p.Line(vg.Point{X: pt.X - r, Y: pt.Y + 1.7*r})
			p.Line(vg.Point{X: pt.X + r, Y: pt.Y + 1.7*r})
			c.SetColor(drivenColour)
		} else {
			p.Move(vg.Point{X: pt.X - r, Y: pt.Y - r})
			p.Line(vg.Point{X: pt.X + r, Y: pt.Y - r})
			p.Line(vg.Point{X: pt.X + r, Y: pt.Y + r})
			p.Line(vg.Point{X: pt.X - r, Y: pt.Y + r})
			c.SetColor(bodyLine)
		}
		p.Close()
		c.Fill(p)
		label(s.Label, vg.Point{X: pt.X + 1.5*r, Y: pt.Y + 1.2*r})
	}
	for _, t := range texts {
		place(t.s, t.at)
	}
	if labels {
		scaleBar(c, v, face, w)
	}
}

// scaleBar draws a bar of a round length (1, 2 or 5 × 10ⁿ m) near a fifth
// of the picture's width, bottom right.
func scaleBar(c vg.Canvas, v view, face font.Face, w vg.Length) {
	want := 0.2 * float64(w) / v.scale // m
	step := math.Pow(10, math.Floor(math.Log10(want)))
	for _, f := range []float64{5, 2, 1} {
		if f*step <= want {
			step *= f
			break
		}
	}
	length := vg.Length(step * v.scale)
	x1, y := w-12, vg.Length(12)
	var p vg.Path
	p.Move(vg.Point{X: x1 - length, Y: y})
	p.Line(vg.Point{X: x1, Y: y})
	c.SetLineWidth(2)
	c.SetColor(scaleBarColor)
	c.Stroke(p)
	text := fmt.Sprintf("%g m", step)
	c.SetColor(labelColour)
	c.FillString(face, vg.Point{X: x1 - length/2 - face.Width(text)/2, Y: y + 4}, text)
}

// polyline returns the path through the points on the canvas.
func polyline(v view, pts []fmu.Point) vg.Path {
	var p vg.Path
	for k, q := range pts {
		if k == 0 {
			p.Move(v.at(q))
		} else {
			p.Line(v.at(q))
		}
	}
	return p
}

// midway returns the point halfway along a polyline on the canvas.
func midway(v view, pts []fmu.Point) vg.Point {
	var total vg.Length
	for k := 1; k < len(pts); k++ {
		total += dist(v.at(pts[k-1]), v.at(pts[k]))
	}
	half := total / 2
	for k := 1; k < len(pts); k++ {
		a, b := v.at(pts[k-1]), v.at(pts[k])
		d := dist(a, b)
		if d >= half && d > 0 {
			f := half / d
			return vg.Point{X: a.X + (b.X-a.X)*f, Y: a.Y + (b.Y-a.Y)*f}
		}
		half -= d
	}
	return v.at(pts[len(pts)-1])
}

func dist(a, b vg.Point) vg.Length {
	return vg.Length(math.Hypot(float64(b.X-a.X), float64(b.Y-a.Y)))
}
