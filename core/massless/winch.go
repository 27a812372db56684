package massless

import (
	"fmt"
	"math"
)

// Winch pays the cable out (positive Speed) or hauls it in at a commanded
// rate: the velocity constraint Γ = L̇ − w = 0 regularized by the slip ξ,
// ξ ρ = −Γ ([SL07] eqs. 9–10).
//
// The free length L is a massless coordinate between the cable's length
// constraint and the winch. Its force balance makes the winch force equal
// the cable's, so eliminating L̇ folds the winch into the length row: the
// row gains the prescribed rate w and the extra compliance ξ/h, and after
// the solve L̇ = w + ξ T. ξ = 0 is a winch that never slips.
type Winch struct {
	// Speed is the commanded pay-out rate w (m/s); positive lengthens.
	Speed float64
	// Slip is ξ (m/(N·s)): the extra pay-out speed per newton of tension.
	Slip float64
	// ForceLimit (N) is the most tension the winch holds: beyond it the
	// drum's brake or clutch slips and pays out whatever rope keeps the
	// tension at the limit (overload protection). 0: no limit.
	ForceLimit float64
}

// Validate rejects a negative or non-finite slip or speed.
func (w *Winch) Validate() error {
	if !(w.Slip >= 0) || math.IsInf(w.Slip, 0) {
		return fmt.Errorf("winch slip %g m/(N·s): must be non-negative and finite", w.Slip)
	}
	if !(w.ForceLimit >= 0) || math.IsInf(w.ForceLimit, 0) {
		return fmt.Errorf("winch force limit %g N: must be non-negative and finite (0: none)", w.ForceLimit)
	}
	if math.IsNaN(w.Speed) || math.IsInf(w.Speed, 0) {
		return fmt.Errorf("winch speed %g m/s: must be finite", w.Speed)
	}
	return nil
}
