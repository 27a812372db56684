package geom

import (
	"math"
	"testing"
)

func TestRotationBetween(t *testing.T) {
	for _, c := range [][2]Vec3{
		{V(1, 0, 0), V(0, 0, 1)}, {V(0, 0, 1), V(0, 0, 1)}, {V(0, 0, 1), V(0, 0, -1)},
		{V(0.6, 0, 0.8), V(0, 0, 1)}, {V(1, 2, 3), V(-3, 1, 0.5)},
	} {
		a, _ := c[0].Unit()
		b, _ := c[1].Unit()
		if got := RotationBetween(a, b).Rotate(a); got.Sub(b).Norm() > 1e-12 {
			t.Errorf("RotationBetween(%v, %v) turns a onto %v", a, b, got)
		}
	}
}

func TestQuaternionRotationMatchesMatrix(t *testing.T) {
	q := AxisAngle(V(0.36, 0.48, 0.8), 1.1)
	m := q.Matrix()
	v := V(0.3, -2, 1.5)
	if d := q.Rotate(v).Sub(m.MulVec(v)).Norm(); d > 1e-12 {
		t.Errorf("Rotate and Matrix differ by %g", d)
	}
	if n := q.Rotate(v).Norm(); math.Abs(n-v.Norm()) > 1e-12 {
		t.Errorf("rotation changed the length to %g", n)
	}
	if d := q.XAxis().Sub(q.Rotate(V(1, 0, 0))).Norm(); d > 1e-15 {
		t.Errorf("XAxis differs from the rotated x axis by %g", d)
	}
}

func TestInverse(t *testing.T) {
	m := Mat3{{4, 1, -2}, {1, 3, 0.5}, {-2, 0.5, 5}}
	inv, ok := m.Inverse()
	if !ok {
		t.Fatal("a regular matrix found singular")
	}
	p := m.Mul(&inv)
	for i := range p {
		for j := range p[i] {
			want := 0.0
			if i == j {
				want = 1
			}
			if math.Abs(p[i][j]-want) > 1e-14 {
				t.Errorf("m·m⁻¹ [%d][%d] = %g, want %g", i, j, p[i][j], want)
			}
		}
	}
	if _, ok := (&Mat3{{1, 2, 3}, {2, 4, 6}, {0, 1, 1}}).Inverse(); ok {
		t.Error("a singular matrix inverted")
	}
}

// The largest eigenvalue of symmetric matrices with known spectra, rotated:
// within 1e-12 relative, and 1e-7 where it is double (the cubic's double
// root costs half the digits).
func TestSymMaxEigen(t *testing.T) {
	q := AxisAngle(V(0.36, 0.48, 0.8), 0.7)
	r := q.Matrix()
	rt := r.T()
	for _, c := range []struct {
		d    Mat3
		want float64
	}{{Diag(1, 3, 2), 3}, {Diag(5, 2, -1), 5}, {Diag(4, 4, 1), 4}, {Diag(0, 1e6, 1e6), 1e6}} {
		m := r.Mul(&c.d)
		m = m.Mul(&rt)
		tol := 1e-12
		if c.d[0][0] == c.d[1][1] || c.d[1][1] == c.d[2][2] {
			tol = 1e-7
		}
		if got := m.SymMaxEigen(); math.Abs(got-c.want) > tol*c.want {
			t.Errorf("largest eigenvalue of R %v Rᵀ: %g, want %g", c.d, got, c.want)
		}
	}
}
