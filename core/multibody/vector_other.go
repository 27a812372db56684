//go:build !amd64 || purego

package multibody

// Without the vector kernels (vector_amd64.s), the Go kernels.

var vectorKernels = false

func assembleGram6TailVec(a *block6, sums *[6]rowSums, sigma *[6]float64, js, ms *[12]Jacobian, w *block6) {
	assembleGram6Tail(a, sums, sigma, js, ms, w)
}

func coupleForward6TailVec(w, l *block6, inv *[6]float64, js, otherMs *[12]Jacobian) {
	coupleForward6Tail(w, l, inv, js, otherMs)
}

func coupleBackward6TailVec(w, l *block6, inv *[6]float64, js, otherMs *[12]Jacobian) {
	coupleBackward6Tail(w, l, inv, js, otherMs)
}

func subtractBackward6Vec(l *block6, inv, z *[6]float64, g *block6, y *[6]float64) {
	subtractBackward6(l, inv, z, g, y)
}

func subtractForward6Vec(l *block6, inv, z *[6]float64, w *block6, y *[6]float64) {
	subtractForward6(l, inv, z, w, y)
}

func assembleTermsVec(b *Body, sums []rowSums, blocks, minvs []Jacobian, k, nb int) {
	assembleTerms(b, sums, blocks, minvs, k, nb)
}
