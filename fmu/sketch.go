package fmu

import (
	"fmt"
	"math"
	"slices"
	"sort"
)

// Sketch is a picture of a scenario's world at its start, in world
// coordinates (m, z up), seen from the side (the x–z plane, where a
// crane's reeving lies): what an FMU's documentation draws.
type Sketch struct {
	Shapes []Shape
}

// ShapeKind says what a shape of a sketch is.
type ShapeKind int

const (
	// Rope is a cable or wire along Points.
	Rope ShapeKind = iota
	// Outline is a body's outline: a closed polygon through Points (a
	// load, a hook block, a sheave, a drum, an obstacle).
	Outline
	// Driven is the point the master drives, at Points[0].
	Driven
	// Anchor is a fixed point at Points[0] (a static body, a dead end).
	Anchor
	// Ground is the ground's surface at the height Points[0].Z.
	Ground
)

// Point is a point of a sketch: x, y, z (m).
type Point [3]float64

// Shape is one thing a sketch draws, labelled (the label may be empty).
type Shape struct {
	Kind   ShapeKind
	Label  string
	Points []Point
}

// Sketcher is implemented by simulations that draw their world.
type Sketcher interface {
	Sketch() Sketch
}

// Add appends a shape.
func (s *Sketch) Add(kind ShapeKind, label string, points ...Point) {
	s.Shapes = append(s.Shapes, Shape{Kind: kind, Label: label, Points: points})
}

// Box adds the outline of a box of size (m) centred at c, in its x–z
// section.
func (s *Sketch) Box(label string, c, size Point) {
	hx, hz := size[0]/2, size[2]/2
	s.Add(Outline, label, Point{c[0] - hx, c[1], c[2] - hz}, Point{c[0] + hx, c[1], c[2] - hz}, Point{c[0] + hx, c[1], c[2] + hz}, Point{c[0] - hx, c[1], c[2] + hz})
}

// Circle adds the outline of a wheel (a sheave or a drum) of radius r
// (m) about c, turning about y.
func (s *Sketch) Circle(label string, c Point, r float64) {
	const sides = 48
	pts := make([]Point, sides)
	for k := range pts {
		a := 2 * math.Pi * float64(k) / sides
		pts[k] = Point{c[0] + r*math.Cos(a), c[1], c[2] + r*math.Sin(a)}
	}
	s.Add(Outline, label, pts...)
}

// MassLabel labels a body with its mass in kg or t.
func MassLabel(name string, kg float64) string {
	if kg >= 1000 {
		return fmt.Sprintf("%s %.3g t", name, kg/1000)
	}
	return fmt.Sprintf("%s %.3g kg", name, kg)
}

// Hull adds the outline of a body given by its corners: their convex hull
// in the x–z plane.
func (s *Sketch) Hull(label string, corners []Point) {
	pts := append([]Point(nil), corners...)
	sort.Slice(pts, func(i, j int) bool {
		if pts[i][0] != pts[j][0] {
			return pts[i][0] < pts[j][0]
		}
		return pts[i][2] < pts[j][2]
	})
	// Andrew's monotone chain: the lower hull, then the upper.
	cross := func(o, a, b Point) float64 { return (a[0]-o[0])*(b[2]-o[2]) - (a[2]-o[2])*(b[0]-o[0]) }
	var hull []Point
	for pass := 0; pass < 2; pass++ {
		start := len(hull)
		for _, p := range pts {
			for len(hull) >= start+2 && cross(hull[len(hull)-2], hull[len(hull)-1], p) <= 0 {
				hull = hull[:len(hull)-1]
			}
			hull = append(hull, p)
		}
		hull = hull[:len(hull)-1]
		slices.Reverse(pts)
	}
	s.Add(Outline, label, hull...)
}
