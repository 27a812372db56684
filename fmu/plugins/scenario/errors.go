package scenario

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cablefmu/cablefmu/fmu"
	"github.com/cablefmu/cablefmu/fmu/plugins/port"
)

// Errors collects what is wrong with a config, an error each, so that a
// scenario author sees every mistake at once.
type Errors []error

// Add adds an error.
func (e *Errors) Add(format string, args ...any) { *e = append(*e, fmt.Errorf(format, args...)) }

// Num adds an error if x lies outside r (Range.Check). A name that is
// the path of x's key in the config ("cable.rope.E",
// "suspension.position[0]") makes the error an *fmu.ValueError, placed
// at the value in the scenario's file; other names ("cable "c": rope.E")
// leave it as Range.Check words it.
func (e *Errors) Num(name, unit string, r port.Range, x float64) {
	if err := r.Check(name, unit, x); err != nil {
		e.add(name, err)
	}
}

// Mass adds an error for a body's mass x (kg) outside r. A dynamic
// body's mass has no default: a key left out reads as 0, which is named
// so rather than as a value out of range.
func (e *Errors) Mass(body string, dynamic bool, r port.Range, x float64) {
	if dynamic && x == 0 {
		e.add("", fmt.Errorf("body %q: mass 0 kg or not given: a dynamic body needs its mass, in [%g, %g] kg", body, r.Min, r.Max))
		return
	}
	e.Num(fmt.Sprintf("body %q: mass", body), "kg", r, x)
}

// Vec adds an error for each component of v outside r, named name[k].
func (e *Errors) Vec(name, unit string, r port.Range, v []float64) {
	for k, x := range v {
		e.Num(fmt.Sprintf("%s[%d]", name, k), unit, r, x)
	}
}

// add adds err about the value named name, an *fmu.ValueError if name is
// a path of keys.
func (e *Errors) add(name string, err error) {
	if isPath(name) {
		err = &fmu.ValueError{Path: name, Err: err}
	}
	*e = append(*e, err)
}

// isPath reports whether name is a path of keys and indices, as
// "cable.rope.E" and "suspension.position[0]".
func isPath(name string) bool {
	for _, step := range strings.Split(name, ".") {
		key, indices, indexed := strings.Cut(step, "[")
		if key == "" || strings.Trim(key, "_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") != "" || '0' <= key[0] && key[0] <= '9' {
			return false
		}
		if !indexed {
			continue
		}
		if !strings.HasSuffix(indices, "]") {
			return false
		}
		for _, k := range strings.Split(strings.TrimSuffix(indices, "]"), "][") {
			if k == "" || strings.Trim(k, "0123456789") != "" {
				return false
			}
		}
	}
	return true
}

// Int adds an error if n lies outside [lo, hi], an *fmu.ValueError if
// name is the path of n's key (as Num).
func (e *Errors) Int(name string, n, lo, hi int) {
	if n < lo || n > hi {
		e.add(name, fmt.Errorf("%s %d: must lie in [%d, %d]", name, n, lo, hi))
	}
}

// Name adds an error, placed at the key path (as Num), if the name of a
// what ("body", "cable") cannot start its ports' names: FMI's structured
// names take identifiers (a letter or _, then letters, digits or _),
// joined by dots. An empty name is the caller's to refuse.
func (e *Errors) Name(path, what, name string) {
	if name == "" {
		return
	}
	for _, part := range strings.Split(name, ".") {
		if !identifier(part) {
			e.add(path, fmt.Errorf("%s name %q: want an identifier (a letter or _, then letters, digits or _; dots between such), as it starts its ports' names (%s.…)", what, name, name))
			return
		}
	}
}

// identifier reports whether s is a letter or _ followed by letters,
// digits and _ (ASCII).
func identifier(s string) bool {
	for i, c := range s {
		switch {
		case c == '_', 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return s != ""
}

// Err joins the errors; nil without any.
func (e Errors) Err() error { return errors.Join(e...) }
