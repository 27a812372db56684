package geom

import "math"

// Vec3 is a vector in R³, in whatever frame its owner documents.
type Vec3 struct{ X, Y, Z float64 }

// V is shorthand for Vec3{x, y, z}.
func V(x, y, z float64) Vec3 { return Vec3{x, y, z} }

func (a Vec3) Add(b Vec3) Vec3      { return Vec3{a.X + b.X, a.Y + b.Y, a.Z + b.Z} }
func (a Vec3) Sub(b Vec3) Vec3      { return Vec3{a.X - b.X, a.Y - b.Y, a.Z - b.Z} }
func (a Vec3) Scale(s float64) Vec3 { return Vec3{s * a.X, s * a.Y, s * a.Z} }
func (a Vec3) Dot(b Vec3) float64   { return a.X*b.X + a.Y*b.Y + a.Z*b.Z }
func (a Vec3) Norm() float64        { return math.Sqrt(a.Dot(a)) }
func (a Vec3) AddScaled(s float64, b Vec3) Vec3 {
	return Vec3{a.X + s*b.X, a.Y + s*b.Y, a.Z + s*b.Z}
}

// Comp returns component k (0 x, 1 y, 2 z).
func (a Vec3) Comp(k int) float64 {
	switch k {
	case 0:
		return a.X
	case 1:
		return a.Y
	}
	return a.Z
}

// Cross returns a × b.
func (a Vec3) Cross(b Vec3) Vec3 {
	return Vec3{a.Y*b.Z - a.Z*b.Y, a.Z*b.X - a.X*b.Z, a.X*b.Y - a.Y*b.X}
}

// Unit returns a/|a| and |a|; the zero vector gives (0, 0).
func (a Vec3) Unit() (Vec3, float64) {
	n := a.Norm()
	if n == 0 {
		return Vec3{}, 0
	}
	return a.Scale(1 / n), n
}

// IsFinite reports whether no component is NaN or ±Inf.
func (a Vec3) IsFinite() bool {
	return !math.IsNaN(a.X+a.Y+a.Z) && !math.IsInf(a.X+a.Y+a.Z, 0)
}

// Perpendicular returns a unit vector orthogonal to the unit vector n.
func Perpendicular(n Vec3) Vec3 {
	// Cross with the axis least aligned with n keeps the result well conditioned.
	axis := Vec3{1, 0, 0}
	if math.Abs(n.X) > 0.6 {
		axis = Vec3{0, 1, 0}
	}
	u, _ := n.Cross(axis).Unit()
	return u
}
