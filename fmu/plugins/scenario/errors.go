package scenario

import (
	"errors"
	"fmt"

	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// Errors collects what is wrong with a config, an error each, so that a
// scenario author sees every mistake at once.
type Errors []error

// Add adds an error.
func (e *Errors) Add(format string, args ...any) { *e = append(*e, fmt.Errorf(format, args...)) }

// Num adds an error if x lies outside r (Range.Check).
func (e *Errors) Num(name, unit string, r port.Range, x float64) {
	if err := r.Check(name, unit, x); err != nil {
		*e = append(*e, err)
	}
}

// Vec adds an error for each component of v outside r, named name[k].
func (e *Errors) Vec(name, unit string, r port.Range, v []float64) {
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
