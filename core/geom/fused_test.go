package geom

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The fused forms give the bits of the forms they fuse: InverseMulVec
// those of Inverse then MulVec, InverseTo into the matrix itself those of
// Inverse, MatrixTo those of Matrix, and Integrate those of its former
// form through Mul. Random matrices, vectors and rotations, and singular
// ones.
func TestFusedFormsMatchTheirParts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	num := func() float64 {
		x := rng.NormFloat64() * math.Pow(10, float64(rng.IntN(13)-6))
		switch rng.IntN(20) {
		case 0, 2, 3:
			return 0
		case 1, 4, 5:
			return math.Copysign(0, -1) // signed zeros decide the zero terms
		}
		return x
	}
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
	for trial := 0; trial < 20000; trial++ {
		var m Mat3
		for i := range m {
			for j := range m[i] {
				m[i][j] = num()
			}
		}
		if trial%50 == 0 {
			m[2] = m[0] // singular
		}
		v := Vec3{num(), num(), num()}
		inv, ok := m.Inverse()
		got, gotOK := m.InverseMulVec(v)
		if gotOK != ok {
			t.Fatalf("InverseMulVec of %v: ok %v, Inverse's %v", m, gotOK, ok)
		}
		if want := inv.MulVec(v); ok && (!same(got.X, want.X) || !same(got.Y, want.Y) || !same(got.Z, want.Z)) {
			t.Fatalf("InverseMulVec of %v, %v = %v, Inverse then MulVec %v", m, v, got, want)
		}
		in := m
		if in.InverseTo(&in) != ok {
			t.Fatalf("InverseTo of %v: not Inverse's ok", m)
		}
		if !ok {
			in = Mat3{}
		}
		for i := range in {
			for j := range in[i] {
				if !same(in[i][j], inv[i][j]) {
					t.Fatalf("InverseTo of %v into itself: [%d][%d] %v, Inverse %v", m, i, j, in[i][j], inv[i][j])
				}
			}
		}
		if !ok {
			continue
		}
		q := AxisAngle(Vec3{num(), num(), num()}, rng.Float64()*7)
		if trial%3 == 0 { // components ±1 and signed zeros
			q = Quat{num(), num(), num(), num()}
			switch c := rng.IntN(4); c {
			case 0:
				q.W = 1
			case 1:
				q.X = -1
			case 2:
				q.Y = 1
			default:
				q.Z = -1
			}
		}
		var r Mat3
		q.MatrixTo(&r)
		if r != q.Matrix() {
			t.Fatalf("MatrixTo of %v: %v, Matrix %v", q, r, q.Matrix())
		}
		h := rng.Float64() * 0.1
		dq := Quat{0, v.X, v.Y, v.Z}.Mul(q)
		want := Quat{q.W + h/2*dq.W, q.X + h/2*dq.X, q.Y + h/2*dq.Y, q.Z + h/2*dq.Z}.Normalize()
		if got := q.Integrate(v, h); !same(got.W, want.W) || !same(got.X, want.X) || !same(got.Y, want.Y) || !same(got.Z, want.Z) {
			t.Fatalf("Integrate(%v, %v, %v) = %v, through Mul %v", q, v, h, got, want)
		}
	}
}
