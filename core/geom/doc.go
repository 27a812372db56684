// Package geom holds the small fixed-size linear algebra of rigid-body
// mechanics: 3-vectors, unit quaternions for orientation and 3×3 matrices
// for inertia tensors. Values, not pointers, so the hot loops of the stepper
// allocate nothing.
package geom
