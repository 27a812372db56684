package geom

import "math"

// Quat is a quaternion W + Xi + Yj + Zk. Orientations are unit quaternions
// that rotate body-frame vectors into the world frame.
type Quat struct{ W, X, Y, Z float64 }

// Identity is the orientation of a body frame aligned with the world.
var Identity = Quat{W: 1}

// AxisAngle returns the rotation by angle (rad) about the unit axis.
func AxisAngle(axis Vec3, angle float64) Quat {
	s, c := math.Sincos(angle / 2)
	return Quat{c, s * axis.X, s * axis.Y, s * axis.Z}
}

// Mul returns the Hamilton product q·p (apply p first, then q).
func (q Quat) Mul(p Quat) Quat {
	return Quat{
		q.W*p.W - q.X*p.X - q.Y*p.Y - q.Z*p.Z,
		q.W*p.X + q.X*p.W + q.Y*p.Z - q.Z*p.Y,
		q.W*p.Y - q.X*p.Z + q.Y*p.W + q.Z*p.X,
		q.W*p.Z + q.X*p.Y - q.Y*p.X + q.Z*p.W,
	}
}

// Conj returns the conjugate, the inverse of a unit quaternion.
func (q Quat) Conj() Quat { return Quat{q.W, -q.X, -q.Y, -q.Z} }

// Normalize returns q/|q|.
func (q Quat) Normalize() Quat {
	n := math.Sqrt(q.W*q.W + q.X*q.X + q.Y*q.Y + q.Z*q.Z)
	return Quat{q.W / n, q.X / n, q.Y / n, q.Z / n}
}

// Rotate returns R(q)·v.
func (q Quat) Rotate(v Vec3) Vec3 {
	// v + 2w(u×v) + 2u×(u×v) with u the vector part: cheaper than building R.
	u := Vec3{q.X, q.Y, q.Z}
	t := u.Cross(v).Scale(2)
	return v.AddScaled(q.W, t).Add(u.Cross(t))
}

// XAxis returns R(q)'s first column, Rotate(X) of the unit x axis for a
// unit q: the column alone, at a third of Rotate's operations.
func (q Quat) XAxis() Vec3 {
	return Vec3{1 - 2*(q.Y*q.Y+q.Z*q.Z), 2 * (q.X*q.Y + q.W*q.Z), 2 * (q.X*q.Z - q.W*q.Y)}
}

// Matrix returns the rotation matrix R(q).
func (q Quat) Matrix() Mat3 {
	var m Mat3
	q.MatrixTo(&m)
	return m
}

// MatrixTo writes the rotation matrix R(q) into m: Matrix without a Mat3
// to return and copy, for a caller that keeps the matrix.
func (q Quat) MatrixTo(m *Mat3) {
	w, x, y, z := q.W, q.X, q.Y, q.Z
	m[0][0], m[0][1], m[0][2] = 1-2*(y*y+z*z), 2*(x*y-w*z), 2*(x*z+w*y)
	m[1][0], m[1][1], m[1][2] = 2*(x*y+w*z), 1-2*(x*x+z*z), 2*(y*z-w*x)
	m[2][0], m[2][1], m[2][2] = 2*(x*z-w*y), 2*(y*z+w*x), 1-2*(x*x+y*y)
}

// Integrate advances the orientation by the world-frame angular velocity
// ω (rad/s) over h seconds: q ← normalize(q + h/2 (0, ω)·q), the quaternion
// form of q̇ = T(q)ω ([SL07] eq. 4, [SL08] eq. 8).
func (q Quat) Integrate(omega Vec3, h float64) Quat {
	// (0, ω)·q written out as Mul forms it, its zero terms and all: Mul
	// is above the inliner's budget.
	x, y, z := omega.X, omega.Y, omega.Z
	dq := Quat{
		0*q.W - x*q.X - y*q.Y - z*q.Z,
		0*q.X + x*q.W + y*q.Z - z*q.Y,
		0*q.Y - x*q.Z + y*q.W + z*q.X,
		0*q.Z + x*q.Y - y*q.X + z*q.W,
	}
	return Quat{q.W + h/2*dq.W, q.X + h/2*dq.X, q.Y + h/2*dq.Y, q.Z + h/2*dq.Z}.Normalize()
}

// RotationBetween returns the shortest rotation that turns the unit vector
// a onto the unit vector b.
func RotationBetween(a, b Vec3) Quat {
	c := a.Dot(b)
	if c < -1+1e-12 {
		return AxisAngle(Perpendicular(a), math.Pi) // opposite: any perpendicular axis
	}
	// q = (1 + a·b, a×b) normalized is the half-angle rotation.
	x := a.Cross(b)
	return Quat{1 + c, x.X, x.Y, x.Z}.Normalize()
}
