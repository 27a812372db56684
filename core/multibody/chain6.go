package multibody

import (
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
)

// Fixed-size kernels for the blocks of six rows that make up most of a
// cable's chain (a joint's ball, bend and twist rows). They repeat the
// arithmetic of the generic code in chain.go operation for operation, so
// that results are bitwise the same. Most are written out in full by
// internal/gen6 (chain6_unrolled.go): the compiler does not unroll loops,
// and for blocks this small the loops' counters, index arithmetic and
// branches cost more than the arithmetic. Those here take the blocks whose
// rows 3–5 are not all angular.

//go:generate sh -c "go run ./internal/gen6 > chain6_unrolled.go"

// block6 is a 6×6 block, row-major.
type block6 = [36]float64

// angularTail reports whether rows 3–5 of a six-row block on two bodies,
// whose J blocks are js (row r's on body k at 2r+k, block6Use.js), are
// angular (J.Lin = 0 on both, hence M⁻¹J.Lin = 0 too: a body's M⁻¹ does
// not couple its linear and angular parts, and World.assemble writes
// those zeros), as a cable joint's bend and twist rows are behind its
// three ball rows. The kernels for such blocks leave out the products
// with those zeros: 15 of a block's 21 entries and 27 of a coupling's 36
// then need only the angular half of the dot product (assembleJoint6,
// coupleJoint6).
//
// The components' bits are ORed and tested at once, the sign bit shifted
// out: that is == 0 for each (±0 is zero, a NaN is not), at one integer
// operation a component where comparing floats takes a compare and two
// branches (a NaN compares unordered). Written out: a loop's counter and
// branches would cost a third as much again.
func angularTail(js *[12]Jacobian) bool {
	bits := vecBits(js[6].Lin) | vecBits(js[7].Lin) |
		vecBits(js[8].Lin) | vecBits(js[9].Lin) |
		vecBits(js[10].Lin) | vecBits(js[11].Lin)
	return bits<<1 == 0
}

// vecBits returns the OR of v's components' bits.
func vecBits(v geom.Vec3) uint64 {
	return math.Float64bits(v.X) | math.Float64bits(v.Y) | math.Float64bits(v.Z)
}

// assembleJoint6 is assemble's Aₖ for a block of six rows on two dynamic
// bodies (a cable joint), from their J and M⁻¹J blocks js and ms (row r's
// on body k at 2r+k). Rows from linear on are angular (J.Lin = M⁻¹J.Lin
// = 0, angularTail): their products leave the zero linear halves out; the
// sums are otherwise those of all six components, in the same order. The
// diagonal is the rows' J M⁻¹ Jᵀ as the world summed it (sums, rowSums.d)
// plus Σ: the bits of the sums here but for the sign of a zero, which
// matters to no sum that comes out nonzero, and a zero pivot fails
// Cholesky either way.
func assembleJoint6(a *block6, sums *[6]rowSums, sigma *[6]float64, js, ms *[12]Jacobian, linear int) {
	// Body by body, row i's M⁻¹J held in locals (registers) while the
	// rows j < i are dotted with it: each block is read once per entry.
	for k := 0; k < 2; k++ {
		for i := 0; i < 6; i++ {
			mi := &ms[2*i+k]
			m0, m1, m2, m3, m4, m5 := mi.Lin.X, mi.Lin.Y, mi.Lin.Z, mi.Ang.X, mi.Ang.Y, mi.Ang.Z
			for j := 0; j < i; j++ {
				x := &js[2*j+k]
				v := x.Ang.X*m3 + x.Ang.Y*m4 + x.Ang.Z*m5
				if i < linear { // j < i: row j has its linear part too
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
	for i := range sums {
		a[i*6+i] = sums[i].d + sigma[i]
	}
}

// coupleJoint6 is assemble's Bₖ for two such blocks whose only shared body
// is the second of block k and the first of block k+1, from block k's J
// blocks js and block k+1's M⁻¹J blocks otherMs (as assembleJoint6's), kj
// = 1 and km = 0; rows from linear (of block k) and otherLinear (of block
// k+1) on are angular. With kj = 0 and km = 1 it is Bₖ₋₁ᵀ, block k's J on
// its first body with the M⁻¹J of block k−1 (otherMs) on its second: the
// coupling the factorization from the bottom takes (Chain).
func coupleJoint6(w *block6, js, otherMs *[12]Jacobian, linear, otherLinear, kj, km int) {
	for i := 0; i < 6; i++ {
		x := &js[2*i+kj]
		x0, x1, x2, x3, x4, x5 := x.Lin.X, x.Lin.Y, x.Lin.Z, x.Ang.X, x.Ang.Y, x.Ang.Z
		for j := 0; j < 6; j++ {
			y := &otherMs[2*j+km]
			v := x3*y.Ang.X + x4*y.Ang.Y + x5*y.Ang.Z
			if i < linear && j < otherLinear {
				v = x0*y.Lin.X + x1*y.Lin.Y + x2*y.Lin.Z + v
			}
			w[i*6+j] = v
		}
	}
}

// choleskyFrom6 is cholesky6's loop form from column j on, for a block
// whose column j's pivot has a reciprocal that is not normal.
func choleskyFrom6(a *block6, inv *[6]float64, j int) bool {
	for ; j < 6; j++ {
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
