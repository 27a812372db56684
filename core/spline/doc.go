// Package spline is the geometrically exact quasi-dynamic spline of
// Theetten, Grisoni, Duriez & Merlhiot [TGDM07] (§3–5): a
// cubic B-spline centreline r(u) with a roll angle θ(u), q = (x, y, z, θ)
// at each control point, whose stretching, twisting and bending energies
// (eq. 3, U = ½ ∫ εᵀ H ε with ε_s = |r'| − 1 and ε_b = |r'×r″|/|r'|³)
// are integrated by Gauss quadrature (four points a span) over the rest
// arc length, with the generalized mass matrix M_ij = ∫ b_i b_j J (eq. 2).
// A step solves the linearly implicit Euler system (eq. 5)
//
//	(M/h² + K) Δq = M V/h + F + P,
//
// or the static one (eq. 6), K Δq = F + P, K the Hessian of U and
// P = −∂U/∂q, by a banded LU with partial pivoting (each row eliminated
// as soon as the assembly has completed it); held ends enter by
// Lagrange multipliers (§4.3), and Algorithm 2 switches between the two
// systems with hysteresis (and steps dynamic where the static system is
// singular: no equilibrium to go to). Two choices differ from the paper, each for a
// stated reason:
//
//   - The twisting strain is θ' alone, the roll measured from a frame
//     transported along the centreline without twisting: the paper's
//     ε_t = θ' + τ adds the Frenet torsion τ = (r'×r″)·r‴/|r'×r″|²,
//     which is undefined wherever the cable is straight (a hanging crane
//     cable) and jumps at inflections. Twist and bending are therefore
//     uncoupled here: a cable twisted far enough to buckle into loops is
//     beyond this model.
//   - Algorithm 2 compares the step's cost with a budget in operations
//     (Spline.Cost, a function of the structure) instead of the measured
//     wall-clock time, so that the switch, and with it the results, replay
//     bitwise from a saved state; and the step stays the co-simulation's
//     (the paper shortens Δt with the free length).
//
// The energies are integrated over the rest length (du, not ds = |r'| du):
// the strains are measured against the rest state, the mass is the
// material's.
//
// [TGDM07]: O. Theetten, L. Grisoni, C. Duriez, X. Merlhiot, Quasi-Dynamic
// Splines, ACM SPM 2007.
package spline
