package multibody

// UseVectorKernels lets tests outside the package run the Go kernels
// where the vector ones would run (on = false), and back: it returns the
// setting to restore. Not for tests that run in parallel.
func UseVectorKernels(on bool) (restore func()) {
	was := vectorKernels
	vectorKernels = on && was
	return func() { vectorKernels = was }
}

// VectorKernels reports whether the vector kernels run here.
func VectorKernels() bool { return vectorKernels }
