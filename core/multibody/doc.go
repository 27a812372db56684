// Package multibody holds rigid bodies, the constraint interface they share,
// and the SPOOK stepper that moves them.
//
// The stepper is the linearly implicit, regularized constraint integrator of
// Lacoursière used by all the cable papers ([SLNB11] eqs. 2–11, [SL08]
// eqs. 8–11, [SL07] eqs. 11–13). With impulses λ (N·s), forces f and
//
//	v₊ = v + h M⁻¹ f + M⁻¹ Gᵀ λ,   x₊ = x + h v₊,
//
// each holonomic constraint row reads G v₊ + Σ λ = −(4/h) Υ g + Υ G v, with
// Σ = 4h⁻² ε/(1+4γ/h) and Υ = 1/(1+4γ/h) ([SLNB11] eqs. 9–10). A
// velocity constraint row ([SL07] eqs. 9–10) reads G v₊ + (ξ/h) λ = w.
// Eliminating v₊ leaves the Schur complement system
//
//	(G M⁻¹ Gᵀ + Σ) λ = −(4/h) Υ g − (1−Υ) G v − h G M⁻¹ f,
//
// which a Solver factors. ε = 0 is the rigid limit and works as long as
// the rows are independent.
//
// A world of many bodies may split its steps in two halves run on two
// goroutines (World.Parallel; the Chain solver then factors from both ends
// at once): the halves do the same operations whichever goroutine runs
// them, so that a result does not depend on the number of processors.
package multibody
