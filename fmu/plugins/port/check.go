package port

import (
	"fmt"
)

// Check returns nil if x lies in r, else an error naming the setting with
// its value, unit and r: "load.mass 1e+300 kg: must lie in [1e-06, 1e+08]
// kg". NaN lies in no range. A finite but absurd number (a size of 1e300)
// would otherwise pass a sign check and fail only in the first step, or
// not at all.
func (r Range) Check(name, unit string, x float64) error {
	if x >= r.Min && x <= r.Max {
		return nil
	}
	if unit != "" {
		unit = " " + unit
	}
	return fmt.Errorf("%s %g%s: must lie in [%g, %g]%s", name, x, unit, r.Min, r.Max, unit)
}
