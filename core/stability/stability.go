// Package stability holds the local criteria that decide where a time step
// cannot resolve a cable's motion, and how much numerical remedy that place
// gets. The physics (material stiffness and damping) stays as given
// everywhere else; the remedies vanish as the step resolves the motion.
//
// Two criteria, used by every cable model, a third for rigid bodies and a
// fourth for rows that release:
//
//   - A compliant constraint row of stiffness k acting on an effective mass
//     m has the angular frequency ω = √(k/m). SPOOK (package multibody) is
//     stable for any ωh with no damping at all, but a chain of rows whose
//     ωh ≫ 1 rings at the step's Nyquist frequency after every jolt, and the
//     ringing of stiff stretch rows tears light segments apart under heavy
//     loads. Rows with ωh > ResolvedLimit get at least the relaxation time
//     Relaxation·h (Unresolved, Damping); rows the step resolves keep the
//     material's damping alone.
//
//   - A segment of mass m (kg) and length l (m) under tension T (N)
//     turns across the cable at ω ≈ √(12 T/(m l)): the tension pulling its
//     ends resists the turn with the geometric stiffness K = T l (the lever
//     arms turn under the pull), which SPOOK, linearizing the Jacobians at
//     the start of the step, sees only explicitly, a step late. It resolves
//     that only while ωh stays small ([SLNB11] eq. 25 states the same for a
//     node: stable below f_crit = l m/(4h²), i.e. Courant number
//     C = h√(T/(m l)) < ½). Where the step cannot (TurnUnresolved: a light
//     segment under a heavy load), package multibody takes K into the step
//     as the linearized torque change over it: the inertia I + s h²K
//     (TurnShare: the least s that brings the turning to ωh = TurnLimit)
//     turns the body within the step like the rope's tension would, and
//     its turning relative to its turned neighbours, the vibration the
//     step cannot follow, is damped by a share of backward Euler's h·K
//     (TurnDamping); K follows the largest tension of the last second
//     (TurnHold). A body that turns with the rope's line (a swinging rope)
//     keeps its motion: its neighbours turn with it, and the added inertia
//     changes a mode of angular frequency ω by O((ωh)²) of K's share in
//     it. Bodies the step resolves
//     keep their own inertia, and the rope bends with its own stiffness
//     everywhere, stiffened nowhere. The HMR wire's particle nodes do not
//     turn; it coarsens its light nodes by the Courant number instead, and
//     braces a bend's legs, whose turning under the bend's moment M is a
//     stiffness M/l² across each, with rows that give the legs' relative
//     motion across them the inertia TurnShare·h²M/l² (hmrwire's braces).
//
//   - A body turning at ω across the axis through its joints moves their
//     attachment points on an arc, while the step's rows follow them along
//     the tangent, h ω×r: the points end the step off the rows' prediction
//     by about ½(ωh)²|r|, a gap the next step takes for stretch and pulls
//     shut. Where the rope's segments turn by more than MaxTurn in a step
//     (a slack rope whipped straight), the step is taken in substeps
//     (Substeps) that keep them below it.
//
//   - A row that releases (a rope that only pulls) and that the step does
//     not resolve meets a snap as a stiff stop: SPOOK gives back up to
//     4Υ − 1 of the speed it stops, up to 2.3 times at Relaxation·h.
//     Such rows get at least ReleaseRelaxation·h, at which a snap gives
//     back no more than it took (ReleaseDamping).
package stability

import "math"

// ResolvedLimit is the largest ωh (rad per step) taken as resolved by the
// step: a mode at ωh = 2 is sampled about three times per period, and
// SPOOK's frequency error there is already −21 %.
const ResolvedLimit = 2.0

// Relaxation is the relaxation time of unresolved rows in steps: γ ≥
// Relaxation·h. 0.1 damps the Nyquist ringing by a factor 0.85 per step
// and shifts the damping of the resolved modes coupled to these rows by no
// more than ζ = ωh·0.05 (at ωh = 0.9: 0.045).
const Relaxation = 0.05

// ReleaseRelaxation is the least relaxation time, in steps, of an
// unresolved row that releases (bounded on one side: a rope that only
// pulls, a contact that only pushes): γ ≥ ReleaseRelaxation·h, so that a
// snap onto it gives back no more speed than it took. SPOOK's stiff row
// sets G v' = Υ(G v − 4g/h), Υ = 1/(1 + 4γ/h) (package multibody). Met
// at speed v with a gap of p·vh left at the step's start, it stops the
// bodies at Υ(1 + 4p)v in the first step (for p < γ/h; a larger gap
// closes later) and throws them back at Υ(3Υ(1 + 4p) − 4p)·v in the
// second, where it releases: from 3Υ² at p = 0 to 4Υ − 1 at p = γ/h,
// the most over every phase. 4Υ − 1 ≤ 1 needs Υ ≤ ½, γ ≥ h/4; a snap
// then gives back at most the speed it stopped (down to a third of it at
// other phases). At Relaxation·h (Υ = 0.83) it gave back up to 2.3
// times: a rope snapping taut over a sheave threw a load lighter than
// itself back faster at every snap, until it diverged.
const ReleaseRelaxation = 0.25

// ReleaseDamping returns the relaxation time (s) of an unresolved row
// that releases, whose relaxation time is otherwise tau (Damping's): at
// least ReleaseRelaxation·h.
func ReleaseDamping(tau, h float64) float64 { return max(tau, ReleaseRelaxation*h) }

// Unresolved reports whether a row of stiffness k (N/m or N·m/rad) on the
// effective inverse mass d (1/kg or 1/(kg·m²)) vibrates faster than the step
// h (s) resolves: h√(k d) > ResolvedLimit.
func Unresolved(k, d, h float64) bool {
	return h*h*k*d > ResolvedLimit*ResolvedLimit
}

// UnresolvedCompliant is Unresolved for a row of compliance c > 0 (m/N or
// rad/(N·m)) and geometric stiffness g besides, k = 1/c + g: the test
// multiplied through by c, h²(1 + g c) d > ResolvedLimit² c, without the
// division. A row of infinite compliance (no stiffness of its own) is
// judged resolved: the judgement sets only its relaxation, and such a row
// takes no force of a spring (at most the turn damping's, TurnDamper).
func UnresolvedCompliant(c, g, d, h float64) bool {
	return h*h*(1+g*c)*d > ResolvedLimit*ResolvedLimit*c
}

// Damping returns the relaxation time (s) of a row with the material
// damping time tau (s): tau where the step resolves the row, at least
// Relaxation·h where it does not (see Unresolved).
func Damping(tau, h float64, unresolved bool) float64 {
	if !unresolved {
		return tau
	}
	return max(tau, Relaxation*h)
}

// Courant returns C = h√(T/(m l)) for a segment of mass m (kg) and length
// l (m) under tension T (N) at step h (s); zero for T ≤ 0.
func Courant(h, tension, mass, length float64) float64 {
	if tension <= 0 {
		return 0
	}
	return h * math.Sqrt(tension/(mass*length))
}

// TurnLimit is the largest ωh (rad per step) of a body's turning vibration
// under its constraints' geometric stiffness that the step leaves as it is
// (TurnUnresolved), and where TurnShare holds the faster ones: the
// stability limit of one explicitly stepped oscillator. The coupled chain
// stays stable there through the relative damping (TurnDamping): a 20 mm
// rope of 10 to 100 segments under loads up to 1e5 times a segment's mass
// after a hoist jerk, where 2.5 diverges (N = 50 and 100 under 1e4 and
// 1e5; tested in package rigidcable). The inertia it adds lowers the
// rope's own resolved modes by about (ωh)²·s/2: a taut string's third mode
// (ωh = 0.47) by 0.7 % at N = 20 and 1.7 % at N = 50 (3.8 % at a limit of
// 1.5, 8.9 % with the whole h²K).
const TurnLimit = 2.0

// TurnUnresolved reports whether a body whose fastest turning vibration
// has the angular frequency ω (omega2 = ω², rad²/s²) turns faster than the
// step h (s) resolves: h²ω² > TurnLimit².
func TurnUnresolved(omega2, h float64) bool {
	return h*h*omega2 > TurnLimit*TurnLimit
}

// TurnDampingFactor is the share of backward Euler's damping h·K that
// TurnDamping gives the relative turning: the smallest that kept the
// trolley-jerk grid of package rigidcable (N = 10 to 100, loads of 10 to
// 1e5 segments) stable was 0.25 (at 0.1 N = 100 under 1e4 diverged); 0.5
// leaves a margin. The damping reaches resolved modes that bend the rope
// between turned segments: a 1 t box's rocking under the rope (0.96 Hz)
// keeps 0.81 of its amplitude after 35 s at N = 20 (1: 0.71; 0.92
// without the remedy at a step that needs none).
const TurnDampingFactor = 0.5

// TurnDamping returns the relaxation time (s) of a row that holds the
// relative turning of two bodies, of compliance c (rad/(N·m)) and material
// damping time tau (s), carrying the geometric stiffness g (N·m/rad) of the
// tension across it, when the step takes that stiffness in (TurnUnresolved):
// at least TurnDampingFactor·h·g·c, so that the row damps the relative
// turning by TurnDampingFactor·h·g, a share of what backward Euler gives a
// stiffness g at step h.
//
// A row of infinite compliance, without stiffness of its own (the bend of
// a perfectly flexible rope), gets an infinite relaxation time where it
// carries a tension (h g > 0): it is the damper TurnDamper alone.
func TurnDamping(tau, h, g, c float64) float64 {
	return max(tau, TurnDamper(h, g)*c)
}

// TurnDamper returns the damping coefficient b (N·m·s/rad) of TurnDamping's
// relaxation time on a row of compliance c: γ = b·c, b = TurnDampingFactor·h·g
// (the material's τ/c aside, which vanishes as c grows). A row without
// stiffness of its own is that damper alone, whatever its compliance's
// size: SPOOK's Υ = 1/(1 + 4γ/h) tends to 0 and Σ = 4εΥ/h² to 1/(h·b) as
// ε grows. Such a rope has that damper alone against the relative turning
// of its segments, and a swing that bends it loses more to it: the trolley
// jerk of package rigidcable at N = 100 under a load of 10 segments loses
// 39 % of its swing energy in 115 s with a perfectly flexible rope, 4 %
// with the default rope's bending (under 1e4 segments, 0.1 % either way).
func TurnDamper(h, g float64) float64 {
	return TurnDampingFactor * h * g
}

// TurnShare returns the share s of the geometric stiffness's h²K that a
// body whose fastest turning has ω² = omega2 (rad²/s²) gets as inertia at
// step h (s): the least that brings that turning down to ωh = TurnLimit,
// s = 1/TurnLimit² − 1/(h²ω²) (the added inertia s h² K shares K's modes:
// h²ω²/(1 + s h² ω²) = TurnLimit²), and 0 where the step resolves it
// (TurnUnresolved false). It grows continuously from 0 at the limit.
func TurnShare(omega2, h float64) float64 {
	if !TurnUnresolved(omega2, h) {
		return 0
	}
	return 1/(TurnLimit*TurnLimit) - 1/(h*h*omega2)
}

// TurnHold is the time (s) over which a joint's geometric stiffness keeps
// the largest tension it carried, decaying as e^(−t/TurnHold): a rope that
// goes slack and snaps taut carries within one step a tension the last
// step did not see, and the next snap comes while the last one rings.
// Measured (packages rigidcable and rigidcable): a hoist dropped by
// 0.2 m at 1 m/s and stopped, N = 5, 20, 100 under loads of 10 to 1e5
// segments, runs 20 s in 6 of 9 cells with it, 3 without; a load set down
// with its slack in the sheave's store and lifted again, 9 of 9 variants
// against 8; paid out 0.8 m beyond the store, 5 of 9 against 6. While the
// tension is steady it is the tension.
const TurnHold = 1.0

// MaxTurn is the largest angle (rad) a body may turn across the axis
// through its joints in one step before the step is taken in substeps
// (Substeps). A slack rope pulled straight whips its segments at tens of
// rad/s (78 rad/s with 100 segments of 0.1 m; ωh ≈ 1.3 at 1/60 s); the
// gaps their turning left at the joints pulled it shorter than the winch
// did, so that the RigidHoist
// example's 12.3 t load, snatched off the ground by a winch hauling in at
// 3 m/s, left at up to 9.5 m/s (and at 4.1 m/s in another run), where an
// elastic rope gives it at most twice the winch's speed, 6 m/s. With
// substeps of at most MaxTurn, four such runs (20 and 100 segments, landed
// fast or slowly) throw it at 5.85–6.00 m/s, within 1.6 % of the same runs
// at an internal step of 1/960 s without substeps (5.85–5.98 m/s, measured
// with the friction bound one step late, before contact.Rebound); at most
// 0.1 rad a substep: 5.99–6.13 m/s (TestSnatchLeavesAtMostTwiceTheWinchSpeed
// in fmu/plugins/rigidcable). The criterion is the bodies' turning at the
// step's start (a whip that speeds up within a step is caught a step
// later); where no body turns that fast, a step is one step. Finer
// segments turn faster in the same whip (20 rad/s with 20 segments, 78 with
// 100) and take more substeps: a rope of 1000 segments snatched as above
// took substeps in 198 of 240 steps, 16 in 33, and ran 11 times slower
// than real time, where single steps ran away in 0.7 s. (The HMR wire cuts
// its steps by the same reasoning, for nodes riding on turning bodies, at
// 0.1 rad and at most 64 substeps: hmrwire's maxTurn. Its sheaves turn
// with the wire: hauling the WireHoist example's load at 1.2 m/s, at
// 3 rad/s, and at 0.05 rad 192 of 360 steps were cut in two, 53 % more
// solves, for a load 0.1 mm higher after 6 s.)
const MaxTurn = 0.05

// MaxSubsteps bounds the substeps of a step (Substeps), and so its cost: a
// body turning by more than MaxSubsteps·MaxTurn in a step (48 rad/s at
// 1/60 s) turns by more than MaxTurn in each substep.
const MaxSubsteps = 16

// Substeps returns how many equal substeps a step of h seconds needs so
// that a body turning at omega (rad/s) across its joints' axis turns by at
// most MaxTurn in each: 1 where the step already does, at most
// MaxSubsteps.
func Substeps(omega, h float64) int {
	turn := omega * h
	if !(turn > MaxTurn) {
		return 1
	}
	return int(min(MaxSubsteps, math.Ceil(turn/MaxTurn)))
}
