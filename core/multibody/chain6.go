package multibody

import (
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
)

// Fixed-size kernels for the blocks of six rows that make up most of a
// cable's chain (a joint's ball, bend and twist rows). They repeat the
// arithmetic of the generic code in chain.go operation for operation, so
// that results are bitwise the same; with the sizes known the compiler
// drops the bounds checks and the short loops cost little.

// block6 is a 6×6 block, row-major.
type block6 = [36]float64

// gram6 subtracts the lower triangle of wᵀ w from a (Ďₖ = Aₖ −
// Wₖ₋₁ᵀ Wₖ₋₁), each product summed from zero over the rows of w in order.
func gram6(a, w *block6) {
	for i := 0; i < 6; i++ {
		for j := 0; j <= i; j++ {
			a[i*6+j] -= 0 + w[i]*w[j] + w[6+i]*w[6+j] + w[12+i]*w[12+j] +
				w[18+i]*w[18+j] + w[24+i]*w[24+j] + w[30+i]*w[30+j]
		}
	}
}

// cholesky6 is cholesky for m = 6.
func cholesky6(a *block6, inv *[6]float64) bool {
	for j := 0; j < 6; j++ {
		d := a[j*6+j]
		if !(d > 0) {
			return false
		}
		r := 1 / d
		s := math.Sqrt(r)
		if !(r <= math.MaxFloat64 && r >= minNormal) {
			choleskyColumn(a[:], 6, j, d, inv[:])
			continue
		}
		inv[j] = s
		a[j*6+j] = d * s
		for i := j + 1; i < 6; i++ {
			f := a[i*6+j] * r
			for k := j + 1; k <= i; k++ {
				a[i*6+k] -= f * a[k*6+j]
			}
		}
		for i := j + 1; i < 6; i++ {
			a[i*6+j] *= s
		}
	}
	return true
}

// forwardRows6 is forwardRows for m = n = 6, with row i held in locals
// (registers) while the rows above are subtracted from it.
func forwardRows6(l *block6, inv *[6]float64, b *block6) {
	for i := 0; i < 6; i++ {
		bi := (*[6]float64)(b[i*6 : i*6+6])
		b0, b1, b2, b3, b4, b5 := bi[0], bi[1], bi[2], bi[3], bi[4], bi[5]
		for k := 0; k < i; k++ {
			f, bk := l[i*6+k], (*[6]float64)(b[k*6:k*6+6])
			b0, b1, b2 = b0-f*bk[0], b1-f*bk[1], b2-f*bk[2]
			b3, b4, b5 = b3-f*bk[3], b4-f*bk[4], b5-f*bk[5]
		}
		s := inv[i]
		bi[0], bi[1], bi[2], bi[3], bi[4], bi[5] = b0*s, b1*s, b2*s, b3*s, b4*s, b5*s
	}
}

// forward6 is forward for m = 6.
func forward6(l *block6, inv, x *[6]float64) {
	for i := 0; i < 6; i++ {
		s := x[i]
		for k := 0; k < i; k++ {
			s -= l[i*6+k] * x[k]
		}
		x[i] = s * inv[i]
	}
}

// backward6 is backward for m = 6.
func backward6(l *block6, inv, x *[6]float64) {
	for i := 5; i >= 0; i-- {
		s := x[i]
		for k := i + 1; k < 6; k++ {
			s -= l[k*6+i] * x[k]
		}
		x[i] = s * inv[i]
	}
}

// subtractTransposed6 sets z −= bᵀ y, summed over r in order.
func subtractTransposed6(z *[6]float64, b *block6, y *[6]float64) {
	for i := 0; i < 6; i++ {
		s := z[i]
		for r := 0; r < 6; r++ {
			s -= b[r*6+i] * y[r]
		}
		z[i] = s
	}
}

// subtract6 sets z −= g y, summed over j in order.
func subtract6(z *[6]float64, g *block6, y *[6]float64) {
	for i := 0; i < 6; i++ {
		s := z[i]
		for j := 0; j < 6; j++ {
			s -= g[i*6+j] * y[j]
		}
		z[i] = s
	}
}

// angularTail reports whether rows 3–5 of a six-row block on two bodies
// are angular (J.Lin = 0 on both, hence M⁻¹J.Lin = 0 too: a body's M⁻¹
// does not couple its linear and angular parts, and World.assemble
// writes those zeros), as a cable
// joint's bend and twist rows are behind its three ball rows. The kernels
// for such blocks leave out the products with those zeros: 15 of a
// block's 21 entries and 27 of a coupling's 36 then need only the angular
// half of the dot product (assembleJoint6, coupleJoint6).
func angularTail(rows *[6]ProblemRow) bool {
	for i := 3; i < 6; i++ {
		j := rows[i].J
		if j[0].Lin != (geom.Vec3{}) || j[1].Lin != (geom.Vec3{}) {
			return false
		}
	}
	return true
}

// assembleJoint6 is assemble's Aₖ for a block of six rows on two dynamic
// bodies (a cable joint). Rows from linear on are angular (J.Lin = M⁻¹J.Lin
// = 0, angularTail): their products leave the zero linear halves out; the
// sums are otherwise those of all six components, in the same order.
func assembleJoint6(a *block6, sigma *[6]float64, rows *[6]ProblemRow, linear int) {
	// Body by body, row i's M⁻¹J held in locals (registers) while the
	// rows j ≤ i are dotted with it: each block is read once per entry.
	for k := 0; k < 2; k++ {
		for i := 0; i < 6; i++ {
			mi := &rows[i].MinvJ[k]
			m0, m1, m2, m3, m4, m5 := mi.Lin.X, mi.Lin.Y, mi.Lin.Z, mi.Ang.X, mi.Ang.Y, mi.Ang.Z
			for j := 0; j <= i; j++ {
				x := &rows[j].J[k]
				v := x.Ang.X*m3 + x.Ang.Y*m4 + x.Ang.Z*m5
				if i < linear { // j ≤ i: row j has its linear part too
					v = x.Lin.X*m0 + x.Lin.Y*m1 + x.Lin.Z*m2 + v
				}
				if k == 0 {
					a[i*6+j] = v
				} else {
					a[i*6+j] += v
				}
			}
		}
	}
	for i, s := range sigma {
		a[i*6+i] += s
	}
}

// coupleJoint6 is assemble's Bₖ for two such blocks whose only shared body
// is the second of block k and the first of block k+1; rows from linear
// (of block k) and nextLinear (of block k+1) on are angular.
func coupleJoint6(w *block6, rows, next *[6]ProblemRow, linear, nextLinear int) {
	for i := 0; i < 6; i++ {
		x := &rows[i].J[1]
		x0, x1, x2, x3, x4, x5 := x.Lin.X, x.Lin.Y, x.Lin.Z, x.Ang.X, x.Ang.Y, x.Ang.Z
		for j := 0; j < 6; j++ {
			y := &next[j].MinvJ[0]
			v := x3*y.Ang.X + x4*y.Ang.Y + x5*y.Ang.Z
			if i < linear && j < nextLinear {
				v = x0*y.Lin.X + x1*y.Lin.Y + x2*y.Lin.Z + v
			}
			w[i*6+j] = v
		}
	}
}
