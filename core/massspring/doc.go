// Package massspring is the mass–spring cable of Loock & Schömer [LS01]
// (§5): mass points joined by stiff linear springs with damping
// along them and torsion springs at the points, whose restoring moment is
// proportional to the bend angle rather than to an elongation.
//
// The forces and their derivatives are the paper's: the linear spring
// (eqs. 6–8), its damping (eq. 9) and the torsion spring (eqs. 10–16),
// whose exact Hessian is written here through q = |a×b|² and c = a·b
// (φ = atan2(√q, c)), smooth where the cable is straight. Steps are the
// linearly implicit Euler method of Baraff & Witkin (eq. 5),
//
//	(M − h ∂f/∂v − h² ∂f/∂x) Δv = h (f₀ + h ∂f/∂x v₀),   Δx = h (v₀ + Δv),
//
// solved by conjugate gradients with the system rebuilt at the new
// positions and velocities a given number of times a step (§5.3: each
// rebuild is a Newton step towards the fully implicit Euler step), or by
// a direct banded Cholesky factorization of the same matrix (gonum's
// LAPACK Pbtrf/Pbtrs; block pentadiagonal, half-bandwidth 8), so that the
// iterative solve's cost and error can be measured against an exact one.
//
// A clamped end's torsion spring has twice the stiffness of the others
// (it stands for half a segment's curvature; see Cable.bendStiffness), the
// one choice here beyond the paper, which does not say.
//
// Where a spring is compressed (shorter than its rest length: a slack
// rope), the step's matrix leaves out the negative transverse stiffness
// eq. 8 gives it, k_L (1 − l/L) < 0 across the spring: with it the matrix
// turns indefinite whenever the compression outweighs the points' inertia
// (about ρl²/(EA h²) of the rest length, 5e-5 for a 20 mm rope at 1/60 s),
// and neither CG nor the Cholesky factorization can step. The forces stay
// exact; only the linearization of a compressed spring changes, and with
// rebuilds the step converges to the same implicit Euler step. A taut cable
// is stepped exactly as before.
//
// The damping force's derivative with respect to the positions is left
// out of ∂f/∂x, as Baraff & Witkin leave it out: it is not symmetric (CG
// needs a symmetric matrix) and vanishes where the cable is at rest.
//
// [LS01]: A. Loock, E. Schömer, A Virtual Environment for Interactive
// Assembly Simulation: From Rigid Bodies to Deformable Cables, 2001.
package massspring
