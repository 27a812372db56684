package multibody

// The loop forms of the unrolled kernels (chain6_unrolled.go), as they
// were written before internal/gen6 unrolled them: TestUnrolledKernels
// holds the unrolled ones to them bit for bit.

// gram6Loop subtracts the lower triangle of wᵀ w from a (Ďₖ = Aₖ −
// Wₖ₋₁ᵀ Wₖ₋₁), each product summed from zero over the rows of w in order.
func gram6Loop(a, w *block6) {
	for i := 0; i < 6; i++ {
		for j := 0; j <= i; j++ {
			a[i*6+j] -= 0 + w[i]*w[j] + w[6+i]*w[6+j] + w[12+i]*w[12+j] +
				w[18+i]*w[18+j] + w[24+i]*w[24+j] + w[30+i]*w[30+j]
		}
	}
}

// cholesky6Loop is cholesky for m = 6: the loop form the unrolled kernel
// hands a block to from the column whose pivot's reciprocal is not
// normal, here from the first.
func cholesky6Loop(a *block6, inv *[6]float64) bool { return choleskyFrom6(a, inv, 0) }

// forwardRows6Loop is forwardRows for m = n = 6, with row i held in locals
// (registers) while the rows above are subtracted from it.
func forwardRows6Loop(l *block6, inv *[6]float64, b *block6) {
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

// forward6Loop is forward for m = 6.
func forward6Loop(l *block6, inv, x *[6]float64) {
	for i := 0; i < 6; i++ {
		s := x[i]
		for k := 0; k < i; k++ {
			s -= l[i*6+k] * x[k]
		}
		x[i] = s * inv[i]
	}
}

// backward6Loop is backward for m = 6.
func backward6Loop(l *block6, inv, x *[6]float64) {
	for i := 5; i >= 0; i-- {
		s := x[i]
		for k := i + 1; k < 6; k++ {
			s -= l[k*6+i] * x[k]
		}
		x[i] = s * inv[i]
	}
}

// subtractTransposed6Loop sets z −= bᵀ y, summed over r in order.
func subtractTransposed6Loop(z *[6]float64, b *block6, y *[6]float64) {
	for i := 0; i < 6; i++ {
		s := z[i]
		for r := 0; r < 6; r++ {
			s -= b[r*6+i] * y[r]
		}
		z[i] = s
	}
}

// subtract6Loop sets z −= g y, summed over j in order.
func subtract6Loop(z *[6]float64, g *block6, y *[6]float64) {
	for i := 0; i < 6; i++ {
		s := z[i]
		for j := 0; j < 6; j++ {
			s -= g[i*6+j] * y[j]
		}
		z[i] = s
	}
}
