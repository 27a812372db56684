package geom

import "math"

// Mat3 is a 3×3 matrix stored by rows.
type Mat3 [3][3]float64

// Diag returns diag(a, b, c).
func Diag(a, b, c float64) Mat3 { return Mat3{{a, 0, 0}, {0, b, 0}, {0, 0, c}} }

// MulVec returns m·v.
func (m *Mat3) MulVec(v Vec3) Vec3 {
	return Vec3{
		m[0][0]*v.X + m[0][1]*v.Y + m[0][2]*v.Z,
		m[1][0]*v.X + m[1][1]*v.Y + m[1][2]*v.Z,
		m[2][0]*v.X + m[2][1]*v.Y + m[2][2]*v.Z,
	}
}

// Mul returns m·n.
func (m *Mat3) Mul(n *Mat3) Mat3 {
	var r Mat3
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			r[i][j] = m[i][0]*n[0][j] + m[i][1]*n[1][j] + m[i][2]*n[2][j]
		}
	}
	return r
}

// T returns the transpose of m.
func (m *Mat3) T() Mat3 {
	return Mat3{
		{m[0][0], m[1][0], m[2][0]},
		{m[0][1], m[1][1], m[2][1]},
		{m[0][2], m[1][2], m[2][2]},
	}
}

// Inverse returns m⁻¹ by cofactors, and false if m is singular.
func (m *Mat3) Inverse() (Mat3, bool) {
	var inv Mat3
	ok := m.InverseTo(&inv)
	return inv, ok
}

// InverseTo writes m⁻¹ (Inverse) into dst and returns true, or returns
// false and leaves dst as it was if m is singular; dst may be m. It
// spares a caller that keeps the inverse the copies of a returned Mat3.
func (m *Mat3) InverseTo(dst *Mat3) bool {
	c00 := m[1][1]*m[2][2] - m[1][2]*m[2][1]
	c01 := m[1][2]*m[2][0] - m[1][0]*m[2][2]
	c02 := m[1][0]*m[2][1] - m[1][1]*m[2][0]
	det := m[0][0]*c00 + m[0][1]*c01 + m[0][2]*c02
	if det == 0 {
		return false
	}
	s := 1 / det
	// One assignment: every entry is computed from m before dst changes.
	dst[0][0], dst[0][1], dst[0][2],
		dst[1][0], dst[1][1], dst[1][2],
		dst[2][0], dst[2][1], dst[2][2] =
		c00*s, (m[0][2]*m[2][1]-m[0][1]*m[2][2])*s, (m[0][1]*m[1][2]-m[0][2]*m[1][1])*s,
		c01*s, (m[0][0]*m[2][2]-m[0][2]*m[2][0])*s, (m[0][2]*m[1][0]-m[0][0]*m[1][2])*s,
		c02*s, (m[0][1]*m[2][0]-m[0][0]*m[2][1])*s, (m[0][0]*m[1][1]-m[0][1]*m[1][0])*s
	return true
}

// InverseMulVec returns m⁻¹·v and true, or false if m is singular: the
// inverse's entries as InverseTo forms them, applied as MulVec applies a
// matrix (the same operations, the same bits), without a Mat3 to return
// and store between the two.
func (m *Mat3) InverseMulVec(v Vec3) (Vec3, bool) {
	c00 := m[1][1]*m[2][2] - m[1][2]*m[2][1]
	c01 := m[1][2]*m[2][0] - m[1][0]*m[2][2]
	c02 := m[1][0]*m[2][1] - m[1][1]*m[2][0]
	det := m[0][0]*c00 + m[0][1]*c01 + m[0][2]*c02
	if det == 0 {
		return Vec3{}, false
	}
	s := 1 / det
	return Vec3{
		c00*s*v.X + (m[0][2]*m[2][1]-m[0][1]*m[2][2])*s*v.Y + (m[0][1]*m[1][2]-m[0][2]*m[1][1])*s*v.Z,
		c01*s*v.X + (m[0][0]*m[2][2]-m[0][2]*m[2][0])*s*v.Y + (m[0][2]*m[1][0]-m[0][0]*m[1][2])*s*v.Z,
		c02*s*v.X + (m[0][1]*m[2][0]-m[0][0]*m[2][1])*s*v.Y + (m[0][0]*m[1][1]-m[0][1]*m[1][0])*s*v.Z,
	}, true
}

// SymMaxEigen returns the largest eigenvalue of the symmetric matrix m
// (its upper triangle is read), by the trigonometric solution of the
// characteristic cubic (O. K. Smith, Comm. ACM 4(4), 1961): to rounding,
// and to about 1e-8 relative where it is a double root.
func (m *Mat3) SymMaxEigen() float64 {
	p1 := m[0][1]*m[0][1] + m[0][2]*m[0][2] + m[1][2]*m[1][2]
	d := max(m[0][0], max(m[1][1], m[2][2]))
	if p1 <= 1e-24*d*d {
		// Diagonal to rounding (a pull along a principal axis): the
		// largest diagonal element, within |off-diagonal| ≤ 1e-12 of it.
		return d
	}
	q := (m[0][0] + m[1][1] + m[2][2]) / 3
	d0, d1, d2 := m[0][0]-q, m[1][1]-q, m[2][2]-q
	p := math.Sqrt((d0*d0 + d1*d1 + d2*d2 + 2*p1) / 6)
	// r = det((m − qI)/p)/2, within [−1, 1] up to rounding.
	det := d0*(d1*d2-m[1][2]*m[1][2]) - m[0][1]*(m[0][1]*d2-m[1][2]*m[0][2]) + m[0][2]*(m[0][1]*m[1][2]-d1*m[0][2])
	r := max(-1, min(1, det/(2*p*p*p)))
	return q + 2*p*math.Cos(math.Acos(r)/3)
}
