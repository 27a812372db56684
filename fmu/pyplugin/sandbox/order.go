package sandbox

import (
	"cmp"
	"math"
	"math/big"
	"slices"
	"strings"

	"github.com/go-python/gpython/py"
)

// gpython's dicts and sets are Go maps, which iterate in a new random
// order each time: a plugin summing a dict's values or a set's items would
// give a different last bit from run to run, and an FMU state would not
// replay bitwise. Wherever a plugin can iterate one (for loops,
// comprehensions, the builtins that loop in Go, keys/values/items,
// unpacking, printing) it gets the order below instead: a dict's keys in
// string order, a set's items ordered by value (numbers, then strings,
// bytes, tuples, other objects by their type's name). CPython keeps a dict's insertion
// order; a plugin must not rely on it here.

// dictKeys returns d's keys in order.
func dictKeys(d py.StringDict) []string {
	keys := make([]string, 0, len(d))
	for k := range d {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// setItems returns the items of a set or frozenset in order.
func setItems(s py.Object) (py.Tuple, error) {
	it, err := py.Iter(s)
	if err != nil {
		return nil, err
	}
	var items py.Tuple
	for {
		x, err := py.Next(it)
		if err != nil {
			if py.IsException(py.StopIteration, err) {
				break
			}
			return nil, err
		}
		items = append(items, x)
	}
	slices.SortStableFunc(items, compareItems)
	return items, nil
}

// ordered returns x's items in the order above if x is a dict (its keys)
// or a set, and ok false for anything else.
func ordered(x py.Object) (items py.Tuple, ok bool, err error) {
	switch x := x.(type) {
	case py.StringDict:
		keys := dictKeys(x)
		items = make(py.Tuple, len(keys))
		for i, k := range keys {
			items[i] = py.String(k)
		}
		return items, true, nil
	case *py.Set, *py.FrozenSet:
		items, err := setItems(x)
		return items, true, err
	}
	return nil, false, nil
}

// rank orders the kinds of set items.
func rank(x py.Object) int {
	switch x.(type) {
	case py.Bool, py.Int, *py.BigInt, py.Float:
		return 0
	case py.String:
		return 1
	case py.Bytes:
		return 2
	case py.Tuple:
		return 3
	}
	return 4
}

// numberKind breaks ties between equal numbers of different types
// (gpython keeps 1, 1.0 and True apart in a set).
func numberKind(x py.Object) int {
	switch x.(type) {
	case py.Bool:
		return 0
	case py.Int:
		return 1
	case *py.BigInt:
		return 2
	}
	return 3
}

// compareItems is an order of the items a set can hold: total on numbers,
// strings, bytes and tuples of them. Other objects (exceptions, instances
// of plugin classes) are ordered by their type's name only: printing them
// to compare could run for long or fail, so a set of such objects keeps
// an unspecified order among those of one type.
func compareItems(a, b py.Object) int {
	if c := cmp.Compare(rank(a), rank(b)); c != 0 {
		return c
	}
	switch a := a.(type) {
	case py.Bool, py.Int, *py.BigInt, py.Float:
		if c := compareNumbers(a, b); c != 0 {
			return c
		}
		return cmp.Compare(numberKind(a), numberKind(b))
	case py.String:
		return strings.Compare(string(a), string(b.(py.String)))
	case py.Bytes:
		return strings.Compare(string(a), string(b.(py.Bytes)))
	case py.Tuple:
		t := b.(py.Tuple)
		for i := range min(len(a), len(t)) {
			if c := compareItems(a[i], t[i]); c != 0 {
				return c
			}
		}
		return cmp.Compare(len(a), len(t))
	}
	return strings.Compare(a.Type().Name, b.Type().Name)
}

// compareNumbers orders numbers by value, NaN last, without allocating
// where both are ints or both floats.
func compareNumbers(a, b py.Object) int {
	switch a := a.(type) {
	case py.Int:
		if b, ok := b.(py.Int); ok {
			return cmp.Compare(a, b)
		}
	case py.Float:
		if b, ok := b.(py.Float); ok {
			return compareFloats(float64(a), float64(b))
		}
	}
	if x, ok := integer(a); ok {
		if y, ok := integer(b); ok {
			return x.Cmp(y)
		}
	}
	x, y := numberValue(a), numberValue(b)
	switch {
	case x == nil && y == nil:
		return 0
	case x == nil:
		return 1
	case y == nil:
		return -1
	}
	return x.Cmp(y)
}

// compareFloats orders floats by value, NaN last.
func compareFloats(x, y float64) int {
	switch nx, ny := math.IsNaN(x), math.IsNaN(y); {
	case nx || ny:
		return cmp.Compare(b2i(nx), b2i(ny))
	}
	return cmp.Compare(x, y)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// numberValue is a number as an exact big.Float, nil for NaN.
func numberValue(x py.Object) *big.Float {
	if f, ok := x.(py.Float); ok {
		if math.IsNaN(float64(f)) {
			return nil
		}
		return new(big.Float).SetFloat64(float64(f))
	}
	if n, ok := integer(x); ok {
		return new(big.Float).SetInt(n)
	}
	return nil
}
