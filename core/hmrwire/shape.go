package hmrwire

import (
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
)

// Shape is a convex polyhedron in its own frame: the boxes and n-gon
// prisms (sheaves, drums) a wire wraps. Contact nodes live on its edges
// ([SLNB11] §II-C), so a shape is its vertices, the planes of its faces
// and the edges between two faces.
type Shape struct {
	verts []geom.Vec3
	faces []plane
	edges []edge
	// radius is the largest distance of a vertex from the origin (m).
	radius float64
}

// plane is a face: points x inside the shape have N·x < D (N unit,
// pointing out).
type plane struct {
	N geom.Vec3
	D float64
}

// edge joins vertices A and B between faces F[0] and F[1].
type edge struct {
	A, B int
	F    [2]int
}

// alongZ reports whether edge e runs along the shape's z axis: a prism's
// edges along its length (a sheave's, along its axle).
func (s *Shape) alongZ(e int) bool {
	a, b := s.verts[s.edges[e].A], s.verts[s.edges[e].B]
	return a.X == b.X && a.Y == b.Y
}

// Box returns a box of the given side lengths (m) centred on the origin,
// its sides along the axes.
func Box(size geom.Vec3) (*Shape, error) {
	if !(size.X > 0 && size.Y > 0 && size.Z > 0) || !size.IsFinite() {
		return nil, fmt.Errorf("box of size %v m: every side must be positive and finite", size)
	}
	x, y, z := size.X/2, size.Y/2, size.Z/2
	var verts []geom.Vec3
	for i := 0; i < 8; i++ {
		v := geom.V(-x, -y, -z)
		if i&1 != 0 {
			v.X = x
		}
		if i&2 != 0 {
			v.Y = y
		}
		if i&4 != 0 {
			v.Z = z
		}
		verts = append(verts, v)
	}
	// Faces counter-clockwise seen from outside.
	faces := [][]int{{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}}
	return newShape(verts, faces)
}

// Prism returns a prism whose cross-section is the regular polygon of
// sides vertices on a circle of radius (m) in the xy-plane, extending
// length (m) along z, centred on the origin: a cylinder (sheave, drum,
// pipe) as the polygon the wire's contact nodes see. Its sides are
// 2·radius·sin(π/sides) long; the area of the cross-section is a fraction
// sin(2π/sides)·sides/(2π) of the circle's.
func Prism(sides int, radius, length float64) (*Shape, error) {
	if sides < 3 || sides > 4096 {
		return nil, fmt.Errorf("prism of %d sides: must have 3 to 4096", sides)
	}
	if !(radius > 0) || !(length > 0) || math.IsInf(radius, 0) || math.IsInf(length, 0) {
		return nil, fmt.Errorf("prism of radius %g m and length %g m: both must be positive and finite", radius, length)
	}
	verts := make([]geom.Vec3, 0, 2*sides)
	for _, z := range []float64{-length / 2, length / 2} {
		for i := 0; i < sides; i++ {
			a := 2 * math.Pi * float64(i) / float64(sides)
			verts = append(verts, geom.V(radius*math.Cos(a), radius*math.Sin(a), z))
		}
	}
	var faces [][]int
	bottom, top := make([]int, sides), make([]int, sides)
	for i := 0; i < sides; i++ {
		bottom[i], top[i] = sides-1-i, sides+i
		j := (i + 1) % sides
		faces = append(faces, []int{i, j, sides + j, sides + i})
	}
	faces = append(faces, bottom, top)
	return newShape(verts, faces)
}

// newShape builds a shape from its vertices and faces (vertex indices,
// counter-clockwise seen from outside), checking that it is closed and
// convex.
func newShape(verts []geom.Vec3, faces [][]int) (*Shape, error) {
	s := &Shape{verts: verts}
	for _, v := range verts {
		s.radius = max(s.radius, v.Norm())
	}
	for fi, f := range faces {
		a, b, c := verts[f[0]], verts[f[1]], verts[f[2]]
		n, area := b.Sub(a).Cross(c.Sub(a)).Unit()
		if area == 0 {
			return nil, fmt.Errorf("shape face %d is degenerate", fi)
		}
		s.faces = append(s.faces, plane{N: n, D: n.Dot(a)})
	}
	tol := 1e-9 * s.radius
	for fi, p := range s.faces {
		for _, v := range verts {
			if p.N.Dot(v) > p.D+tol {
				return nil, fmt.Errorf("shape is not convex: a vertex lies outside face %d", fi)
			}
		}
	}
	// Each directed edge a→b of a face meets b→a of its neighbour.
	type key struct{ a, b int }
	open := map[key]int{}
	for fi, f := range faces {
		for i := range f {
			a, b := f[i], f[(i+1)%len(f)]
			if other, ok := open[key{b, a}]; ok {
				s.edges = append(s.edges, edge{A: b, B: a, F: [2]int{other, fi}})
				delete(open, key{b, a})
				continue
			}
			open[key{a, b}] = fi
		}
	}
	if len(open) > 0 {
		return nil, fmt.Errorf("shape is not closed: %d edges have one face", len(open))
	}
	return s, nil
}

// Edges returns the number of edges.
func (s *Shape) Edges() int { return len(s.edges) }

// oneFace reports whether edges e and f lie on one face: a straight wire
// between points on them lies on that face of the convex shape and cannot
// cut it (Wire.insert: without the test, a wire wrapped over an n-gon
// made insert cost O(n²) per step).
func (s *Shape) oneFace(e, f int) bool {
	fe, ff := s.edges[e].F, s.edges[f].F
	return fe[0] == ff[0] || fe[0] == ff[1] || fe[1] == ff[0] || fe[1] == ff[1]
}
