//go:build !purego

package multibody

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

// vectorKernels says the processor and the operating system run AVX: the
// chain's kernels and assembleTerms then take their vector forms
// (vector_amd64.s), which give the Go kernels' results to the bit (a
// NaN's sign and payload aside). Set once, from the processor (tests may
// turn it off: export_test.go).
var vectorKernels = cpu.X86.HasAVX

//go:noescape
func assembleGram6TailAVX(a *block6, sums *[6]rowSums, sigma *[6]float64, js, ms *[12]Jacobian, w *block6)

//go:noescape
func coupleForward6TailAVX(w, l *block6, inv *[6]float64, js, otherMs *[12]Jacobian)

//go:noescape
func coupleBackward6TailAVX(w, l *block6, inv *[6]float64, js, otherMs *[12]Jacobian)

//go:noescape
func assembleTermsAVX(b *Body, sums *rowSums, js, ms *Jacobian, n, stride int)

//go:noescape
func subtractBackward6AVX(l *block6, inv, z *[6]float64, gm *block6, y *[6]float64)

//go:noescape
func subtractForward6AVX(l *block6, inv, z *[6]float64, w *block6, y *[6]float64)

// assembleGram6TailVec is assembleGram6Tail, in vector form where the
// processor has it.
func assembleGram6TailVec(a *block6, sums *[6]rowSums, sigma *[6]float64, js, ms *[12]Jacobian, w *block6) {
	if vectorKernels {
		assembleGram6TailAVX(a, sums, sigma, js, ms, w)
		return
	}
	assembleGram6Tail(a, sums, sigma, js, ms, w)
}

// coupleForward6TailVec is coupleForward6Tail, in vector form where the
// processor has it.
func coupleForward6TailVec(w, l *block6, inv *[6]float64, js, otherMs *[12]Jacobian) {
	if vectorKernels {
		coupleForward6TailAVX(w, l, inv, js, otherMs)
		return
	}
	coupleForward6Tail(w, l, inv, js, otherMs)
}

// coupleBackward6TailVec is coupleBackward6Tail, in vector form where the
// processor has it.
func coupleBackward6TailVec(w, l *block6, inv *[6]float64, js, otherMs *[12]Jacobian) {
	if vectorKernels {
		coupleBackward6TailAVX(w, l, inv, js, otherMs)
		return
	}
	coupleBackward6Tail(w, l, inv, js, otherMs)
}

// subtractForward6Vec is subtractForward6, in vector form where the
// processor has it.
func subtractForward6Vec(l *block6, inv, z *[6]float64, w *block6, y *[6]float64) {
	if vectorKernels {
		subtractForward6AVX(l, inv, z, w, y)
		return
	}
	subtractForward6(l, inv, z, w, y)
}

// assembleTermsVec is assembleTerms, in vector form where the processor
// has it.
func assembleTermsVec(b *Body, sums []rowSums, blocks, minvs []Jacobian, k, nb int) {
	n := len(sums)
	if !vectorKernels || n == 0 {
		assembleTerms(b, sums, blocks, minvs, k, nb)
		return
	}
	// The kernel reads and writes row i's blocks at i*nb+k.
	_, _ = blocks[(n-1)*nb+k], minvs[(n-1)*nb+k]
	assembleTermsAVX(b, &sums[0], &blocks[k], &minvs[k], n, nb*int(unsafe.Sizeof(Jacobian{})))
}

// subtractBackward6Vec is subtractBackward6, in vector form where the
// processor has it.
func subtractBackward6Vec(l *block6, inv, z *[6]float64, g *block6, y *[6]float64) {
	if vectorKernels {
		subtractBackward6AVX(l, inv, z, g, y)
		return
	}
	subtractBackward6(l, inv, z, g, y)
}
