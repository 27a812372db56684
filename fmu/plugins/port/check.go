package port

import (
	"errors"
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

// Errors collects what is wrong with a config, an error each, so that a
// scenario author sees every mistake at once.
type Errors []error

// Add adds an error.
func (e *Errors) Add(format string, args ...any) { *e = append(*e, fmt.Errorf(format, args...)) }

// Num adds an error if x lies outside r (Range.Check).
func (e *Errors) Num(name, unit string, r Range, x float64) {
	if err := r.Check(name, unit, x); err != nil {
		*e = append(*e, err)
	}
}

// Vec adds an error for each component of v outside r, named name[k].
func (e *Errors) Vec(name, unit string, r Range, v []float64) {
	for k, x := range v {
		e.Num(fmt.Sprintf("%s[%d]", name, k), unit, r, x)
	}
}

// Int adds an error if n lies outside [lo, hi].
func (e *Errors) Int(name string, n, lo, hi int) {
	if n < lo || n > hi {
		e.Add("%s %d: must lie in [%d, %d]", name, n, lo, hi)
	}
}

// Err joins the errors; nil without any.
func (e Errors) Err() error { return errors.Join(e...) }
