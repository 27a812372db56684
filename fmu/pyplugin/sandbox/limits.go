package sandbox

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/go-python/gpython/py"
)

// A plugin runs inside the host's process, so what would only end a
// Python program — running out of memory, recursing without end — must not
// happen at all: Go's out-of-memory and stack-overflow errors are fatal to
// the whole process, and gpython neither sizes what it builds nor limits
// its recursion over containers. The guards below check before the
// operation runs and raise a Python exception instead (MemoryError,
// RecursionError), which the plugin may catch and which otherwise fails the
// call with its traceback.

// MaxIntBits bounds the integers a plugin computes (bits, about 19,700
// decimal digits): a larger power, shift, product or factorial raises
// MemoryError. Beyond it the time a single operation takes could not be
// interrupted by the operations budget.
const MaxIntBits = 1 << 16

// MaxNesting bounds how deeply containers may nest (or contain themselves)
// when an operation recurses over them: comparisons, repr/str and printing,
// sorting, hashing.
const MaxNesting = 1000

// bigValue is the size (bytes) from which an operation's result is checked
// against the heap's growth and not only against the budget itself.
const bigValue = 1 << 20

// maxIntDigits bounds the strings int() reads: a 65,536-bit integer has
// 19,729 decimal digits, and reading ten million takes minutes.
const maxIntDigits = 20000

// maxModPowCost bounds pow(x, y, z): bits(y)·bits(z)² (about 4096-bit
// numbers).
const maxModPowCost = 1 << 36

// recursionError is Python's RecursionError (3.5 and later; gpython has
// only its base, RuntimeError). Created once, never changed.
var recursionError = py.RuntimeError.NewType("RecursionError", "Recursion or nesting too deep.", nil, nil)

// memoryLimit holds a call's memory budget. What decides is counted, so
// that the outcome is the same on any machine at any load and beside any
// other instance: the large values (bigValue bytes or more) the call
// builds, each sized before it is built, add up against the budget,
// garbage included (build). The process's heap is measured only as the
// last guard against growth no count sees (many small values): the
// bytes allocated (cheap to read, but garbage counts) and, once those
// exceed guardFactor budgets, the live heap after a collection compared
// with the live heap before the call (guard). Those counters are the
// process's, so other instances stepping at the same time count there
// too; a plugin within its budget stays far below that guard.
type memoryLimit struct {
	budget int64  // bytes
	param  string // the FMU parameter that sets it, for messages
	built  int64  // bytes of large values this call built
	known  bool   // alloc0 and live0 read in this call
	alloc0 uint64 // bytes allocated when counting began
	live0  uint64 // live heap at the collection before the call
	sample [2]metrics.Sample
}

// guardFactor is how many memory budgets the heap may grow by in one call
// before the last guard stops it.
const guardFactor = 4

func newMemoryLimit(budget int64) memoryLimit {
	m := memoryLimit{budget: budget}
	m.sample[0].Name = "/gc/heap/allocs:bytes"
	m.sample[1].Name = "/gc/heap/live:bytes"
	return m
}

// read returns the bytes allocated so far and the live heap at the last
// collection.
func (m *memoryLimit) read() (alloc, live uint64) {
	metrics.Read(m.sample[:])
	return m.sample[0].Value.Uint64(), m.sample[1].Value.Uint64()
}

// start begins a call.
func (m *memoryLimit) start() { m.known, m.built = false, 0 }

// build counts a large value of n bytes about to be built, and fails when
// the large values this call built would exceed the budget.
func (m *memoryLimit) build(n int64, what string) error {
	if n > m.budget {
		return m.refuse(n, 0, what)
	}
	if m.built+n > m.budget {
		return m.refuse(n, m.built, what)
	}
	m.built += n
	return nil
}

// fits fails when one value of n bytes would exceed the budget: for a
// value being built piece by piece (a formatted string, what a call
// prints), whose pieces are not counted again each time it grows.
func (m *memoryLimit) fits(n int64, what string) error {
	if n > m.budget {
		return m.refuse(n, 0, what)
	}
	return nil
}

// grow is build for a value that grows in place from have to have+n
// bytes (extend, a slice store): the whole value must fit in the budget,
// and the call has built n bytes more.
func (m *memoryLimit) grow(have, n int64, what string) error {
	if have+n > m.budget {
		return m.refuse(have+n, 0, what)
	}
	return m.build(n, what)
}

// guard is the last guard: it fails when the process's live heap has
// grown by more than guardFactor budgets during the call.
func (m *memoryLimit) guard() error {
	alloc, live := m.read()
	if !m.known {
		m.alloc0, m.live0, m.known = alloc, live, true
	}
	limit := guardFactor * m.budget
	if int64(alloc-m.alloc0) <= limit {
		return nil
	}
	runtime.GC()
	alloc, live = m.read()
	grown := int64(0)
	if live > m.live0 {
		grown = int64(live - m.live0)
	}
	if grown > limit {
		return py.ExceptionNewf(py.MemoryError, "the heap grew by about %s during this call, more than %d times the plugin's memory budget of %s (parameter %s): it keeps too many small values",
			megabytes(grown), guardFactor, megabytes(m.budget), m.param)
	}
	m.alloc0 = alloc - uint64(grown)
	return nil
}

func (m *memoryLimit) refuse(extra, built int64, what string) error {
	if built > 0 {
		return py.ExceptionNewf(py.MemoryError, "%s would need about %s more, after %s of large values this call built; the plugin's memory budget is %s (parameter %s)",
			what, megabytes(extra), megabytes(built), megabytes(m.budget), m.param)
	}
	return py.ExceptionNewf(py.MemoryError, "%s would need about %s; the plugin's memory budget is %s (parameter %s)",
		what, megabytes(extra), megabytes(m.budget), m.param)
}

func megabytes(n int64) string { return fmt.Sprintf("%.3g MB", float64(n)/1e6) }

// size estimates the bytes a sequence holds, with ok false for other values.
func size(o py.Object) (n int64, ok bool) {
	const slot = 16 // an interface value per item
	switch o := o.(type) {
	case py.String:
		return int64(len(o)), true
	case py.Bytes:
		return int64(len(o)), true
	case *py.List:
		return slot * int64(len(o.Items)), true
	case py.Tuple:
		return slot * int64(len(o)), true
	}
	return 0, false
}

// integer returns an int or bool operand as a big integer.
func integer(o py.Object) (*big.Int, bool) {
	switch o := o.(type) {
	case py.Int:
		return big.NewInt(int64(o)), true
	case py.Bool:
		if o {
			return big.NewInt(1), true
		}
		return big.NewInt(0), true
	case *py.BigInt:
		return (*big.Int)(o), true
	}
	return nil, false
}

// bits returns the bit length of |x|.
func bits(x *big.Int) int64 { return int64(x.BitLen()) }

// intTooBig is the MemoryError of an integer result beyond MaxIntBits.
func intTooBig(what string, n float64) error {
	return py.ExceptionNewf(py.MemoryError, "%s would have about %.3g bits; plugins compute with integers up to %d bits", what, n, MaxIntBits)
}

// sizeOf returns the bytes of a op b's result where it can be large, or 0.
func (it *Interp) sizeOf(op string, a, b py.Object) (int64, error) {
	switch op {
	case "*", "*=":
		for _, pair := range [2][2]py.Object{{a, b}, {b, a}} {
			if n, ok := size(pair[0]); ok {
				if c, ok := integer(pair[1]); ok && n == 0 && c.BitLen() > 20 {
					// An empty sequence repeated: gpython would loop once
					// per count.
					return 0, errEmptyRepeat
				}
				return repeated(n, pair[1]), nil
			}
		}
		x, okx := integer(a)
		y, oky := integer(b)
		if okx && oky && bits(x)+bits(y) > MaxIntBits {
			return 0, intTooBig("the product", float64(bits(x)+bits(y)))
		}
	case "+", "+=":
		na, oka := size(a)
		nb, okb := size(b)
		if oka && okb {
			return na + nb, nil
		}
	case "**", "**=":
		x, okx := integer(a)
		y, oky := integer(b)
		if okx && oky && y.Sign() > 0 && x.CmpAbs(big.NewInt(1)) > 0 {
			if n := log2(x) * bigFloat(y); n > MaxIntBits {
				return 0, intTooBig("the power", n)
			}
		}
	case "<<", "<<=":
		x, okx := integer(a)
		y, oky := integer(b)
		if okx && oky && x.Sign() != 0 && y.Sign() > 0 {
			if n := float64(bits(x)) + bigFloat(y); n > MaxIntBits {
				return 0, intTooBig("the shift", n)
			}
		}
	case "%", "%=":
		if _, ok := a.(py.String); ok {
			// format sizes each field as it builds it; printing the
			// values visits their items.
			return 0, it.deep(b)
		}
	}
	return 0, nil
}

// errEmptyRepeat marks an empty sequence repeated a huge number of times,
// which binop answers as the sequence repeated once: empty as well.
var errEmptyRepeat = errors.New("empty sequence repeated")

// repeated is the size of a sequence of n bytes repeated count times.
func repeated(n int64, count py.Object) int64 {
	c, ok := integer(count)
	if !ok || c.Sign() <= 0 || n == 0 {
		return 0
	}
	if !c.IsInt64() || float64(n)*float64(c.Int64()) > math.MaxInt64/2 {
		return math.MaxInt64 / 2
	}
	return n * c.Int64()
}

// log2 returns log₂|x|.
func log2(x *big.Int) float64 {
	if bits(x) < 1000 {
		return math.Log2(math.Abs(bigFloat(x)))
	}
	return float64(bits(x))
}

func bigFloat(x *big.Int) float64 {
	f, _ := new(big.Float).SetInt(x).Float64()
	return f
}

// binop computes a op b (or a op= b) once the result's size is known to fit.
func (it *Interp) binop(op string, a, b py.Object) (py.Object, error) {
	n, err := it.sizeOf(op, a, b)
	if err == errEmptyRepeat { // the same empty sequence, at once
		if _, ok := size(a); ok {
			b = py.Int(1)
		} else {
			a = py.Int(1)
		}
		n, err = 0, nil
	}
	if err != nil {
		return nil, err
	}
	if n >= bigValue {
		if err := it.mem.build(n, "the result of "+op); err != nil {
			return nil, err
		}
	}
	if err := it.charge(n / builtBytes); err != nil {
		return nil, err
	}
	if err := it.charge(intWork(op, a, b)); err != nil {
		return nil, err
	}
	if _, text := a.(py.String); !text && (op == "//" || op == "//=" || op == "%" || op == "%=") {
		// gpython's bools do not divide (True // True raised TypeError):
		// as CPython, they divide as the integers they are (a str's %
		// formats them as they are).
		a, b = boolAsInt(a), boolAsInt(b)
	}
	if floatOp(op, a, b) {
		// gpython floors the quotient: 5.0 // 0 was inf, not
		// ZeroDivisionError, and inf // 2 inf, not nan.
		x, y, err := floatPair(a, b)
		if err != nil {
			return nil, err
		}
		floor := op == "//" || op == "//="
		why := "float modulo"
		if floor {
			why = "float floor division by zero"
		}
		div, mod, err := floatDivMod(x, y, why)
		if err != nil {
			return nil, err
		}
		if floor {
			return py.Float(div), nil
		}
		return py.Float(mod), nil
	}
	switch op {
	case "+":
		return py.Add(a, b)
	case "*", "*=":
		// gpython repeats a string by appending it once per count.
		if s, ok := a.(py.String); ok {
			if c, ok := b.(py.Int); ok {
				return py.String(strings.Repeat(string(s), int(max(c, 0)))), nil
			}
		}
		if op == "*=" {
			return py.IMul(a, b)
		}
		return py.Mul(a, b)
	case "**":
		return py.Pow(a, b, py.None)
	case "<<":
		return py.Lshift(a, b)
	case "%", "%=":
		if f, ok := a.(py.String); ok {
			return it.format(string(f), b)
		}
		if op == "%=" {
			return py.IMod(a, b)
		}
		return py.Mod(a, b)
	case "+=":
		return py.IAdd(a, b)
	case "**=":
		return py.IPow(a, b, py.None)
	case "<<=":
		return py.ILshift(a, b)
	case "//":
		return py.FloorDiv(a, b)
	case "//=":
		return py.IFloorDiv(a, b)
	}
	return nil, py.ExceptionNewf(py.SystemError, "unknown operator %q", op)
}

// boolAsInt returns a bool as the integer it is, anything else as it is.
func boolAsInt(o py.Object) py.Object {
	if x, ok := o.(py.Bool); ok {
		if x {
			return py.Int(1)
		}
		return py.Int(0)
	}
	return o
}

// floatOp reports whether a op b is a floor division or a remainder of
// numbers one of which is a float (a str's % is formatting).
func floatOp(op string, a, b py.Object) bool {
	switch op {
	case "//", "//=", "%", "%=":
	default:
		return false
	}
	_, fa := a.(py.Float)
	_, fb := b.(py.Float)
	return (fa || fb) && number(a) && number(b)
}

// number reports whether o is a float or an integer (a bool included).
func number(o py.Object) bool {
	switch o.(type) {
	case py.Float, py.Int, py.Bool, *py.BigInt:
		return true
	}
	return false
}

// floatPair returns numbers a and b as floats, as CPython converts them:
// an integer too large for a float is an OverflowError.
func floatPair(a, b py.Object) (x, y float64, err error) {
	conv := func(o py.Object) (float64, error) {
		switch o := o.(type) {
		case py.Float:
			return float64(o), nil
		case py.Int:
			return float64(o), nil
		case py.Bool:
			if o {
				return 1, nil
			}
			return 0, nil
		case *py.BigInt:
			if f := bigFloat((*big.Int)(o)); !math.IsInf(f, 0) {
				return f, nil
			}
		}
		return 0, py.ExceptionNewf(py.OverflowError, "int too large to convert to float")
	}
	if x, err = conv(a); err == nil {
		y, err = conv(b)
	}
	return x, y, err
}

// floatDivMod is CPython's float divmod (Objects/floatobject.c): the
// remainder from fmod, signed as the divisor, and the quotient from it,
// rounded to the nearest whole number where a/b's rounding put it a hair
// off.
// why is the ZeroDivisionError's message for b = 0.
func floatDivMod(a, b float64, why string) (div, mod float64, err error) {
	if b == 0 {
		return 0, 0, py.ExceptionNewf(py.ZeroDivisionError, "%s", why)
	}
	mod = math.Mod(a, b)
	div = (a - mod) / b
	if mod != 0 {
		if (b < 0) != (mod < 0) {
			mod += b
			div -= 1
		}
	} else {
		mod = math.Copysign(0, b)
	}
	if div != 0 {
		floor := math.Floor(div)
		if div-floor > 0.5 {
			floor++
		}
		div = floor
	} else {
		div = math.Copysign(0, a/b)
	}
	return div, mod, nil
}

// wordMulsPerOperation is how many multiplications of 64-bit words
// count as one operation of the budget: about the time an interpreted
// operation takes.
const wordMulsPerOperation = 64

// mulWork returns the operations a product (or a division) of integers
// of xBits and yBits bits costs: the words multiplied, schoolbook (Go's
// Karatsuba does less for the largest, so the charge errs high).
func mulWork(xBits, yBits float64) int64 {
	return int64((xBits/64 + 1) * (yBits/64 + 1) / wordMulsPerOperation)
}

// intWork returns the operations a op b costs where both are integers
// and one is large: a 4096-bit modular power or a product of two
// 60,000-bit integers takes milliseconds, thousands of operations'
// time, and counted as one, a loop of them ran until the wall-clock
// guard stopped it, at a step that depended on the machine's load.
// Integers of a word cost nothing beyond their operation.
func intWork(op string, a, b py.Object) int64 {
	_, bigA := a.(*py.BigInt)
	_, bigB := b.(*py.BigInt)
	if !bigA && !bigB && op != "**" && op != "**=" {
		return 0 // of words, and a power of words may be large
	}
	x, okx := integer(a)
	y, oky := integer(b)
	if !okx || !oky {
		return 0
	}
	switch op {
	case "*", "*=", "//", "//=", "%", "%=":
		return mulWork(float64(bits(x)), float64(bits(y)))
	case "**", "**=":
		// Squarings up to the result's size: the last one costs as much
		// as all before it together.
		if y.Sign() > 0 && x.CmpAbs(big.NewInt(1)) > 0 {
			n := min(log2(x)*bigFloat(y), MaxIntBits)
			return 2 * mulWork(n, n)
		}
	}
	return 0
}

// deep refuses a container nested deeper than MaxNesting or containing
// itself, before an operation that orders, hashes or prints it: gpython
// recurses over such values on the Go stack, which no recover catches when
// it overflows. It also refuses a value whose walk would visit more than
// MaxVisits items (see walk).
func deep(o py.Object) error { _, err := walk(o, false); return err }

// printable is deep for printing (str, repr, %, print).
func printable(o py.Object) error { return deep(o) }

// walked is deep, or with compared the check of the operands of == and
// != and the sequence right of in, where a set inside costs n² (gpython
// compares sets item by item); it also counts the items the operation
// will visit as operations: one call of a builtin that compares, prints
// or orders a large container costs what a loop over it would.
func (it *Interp) walked(o py.Object, compared bool) error {
	visits, err := walk(o, compared)
	if err != nil {
		return err
	}
	return it.charge(visits - 1)
}

// deep is deep with the visits counted (walked).
func (it *Interp) deep(o py.Object) error { return it.walked(o, false) }

// slotBytes is the size of a sequence's item (an interface value).
const slotBytes = 16

// scannedBytes is how many bytes of a str searched in one Go call (find,
// count, split, replace) count as one operation.
const scannedBytes = 64

// builtBytes is how many bytes of a sequence built in one Go call
// (repeated, concatenated) count as one operation: copying a kilobyte
// takes about what one operation of a loop does.
const builtBytes = 1024

// sortOperations counts a sort of n items as its n·log₂n comparisons.
func sortOperations(n int) int64 {
	if n < 2 {
		return 0
	}
	return int64(n) * int64(bits(big.NewInt(int64(n))))
}

// maxPrintedStr bounds what str() prints when a plugin calls it through a
// name other than str (the named calls are sized against the budget).
const maxPrintedStr = 1 << 26

// MaxItemized bounds the characters (or bytes) of a string that one call
// turns into a container of its characters: list(s), tuple(s), set(s),
// sorted(s) make an object of about 50 bytes for each, in one Go loop.
const MaxItemized = 1 << 20

// itemized refuses a string or bytes longer than MaxItemized as the
// argument of a call that makes an item of each character.
func itemized(o py.Object, call string) error {
	if n := characters(o); n > MaxItemized {
		return py.ExceptionNewf(py.MemoryError, "%s() of a string of %d characters would make an object of each; plugins do that for strings of at most %d", call, n, MaxItemized)
	}
	return nil
}

// characters is the length of a str (in characters) or bytes, 0 for
// anything else.
func characters(o py.Object) int64 {
	switch o := o.(type) {
	case py.String:
		return int64(utf8.RuneCountInString(string(o)))
	case py.Bytes:
		return int64(len(o))
	}
	return 0
}

// MaxVisits bounds the items one operation that recurses over containers
// may visit. The walk of a value counts a container shared by several
// references once per reference, as the operation does: a = [a, a] built
// sixty times is sixty lists that a comparison would visit 2⁶⁰ times, a
// single Go call the operations budget could not interrupt. Compared, a set of n
// items counts n² (gpython compares sets item by item against each
// other). 2²⁴ visits take a fraction of a second.
const MaxVisits = 1 << 24

// walk checks o for deep, compared and printable and returns the visits
// the operation will make (1 for a value that is not a container). It
// keeps its own stack, looks at each container once (copying the items of
// dicts and sets) and counts the visits of the walk it stands for with the
// counts of the containers already seen.
func walk(o py.Object, compared bool) (int64, error) {
	switch o.(type) {
	case *py.List, py.Tuple, py.StringDict, *py.Set, *py.FrozenSet, *py.Exception:
	default:
		return 1 + textWork(o, compared), nil
	}
	type frame struct {
		key    identity
		items  []py.Object
		visits int64 // of the walk below this container
	}
	const onPath = -1
	visits := map[identity]int64{} // onPath, or a finished container's visits
	var stack []frame
	push := func(o py.Object) error {
		key, items := containerItems(o)
		if key.ptr == 0 {
			if len(stack) > 0 {
				stack[len(stack)-1].visits += 1 + textWork(o, compared)
			}
			return nil
		}
		if n, ok := visits[key]; ok {
			if n == onPath {
				return py.ExceptionNewf(recursionError, "a %s that contains itself cannot be compared, printed or sorted", o.Type().Name)
			}
			stack[len(stack)-1].visits += n
			return nil
		}
		if len(stack) >= MaxNesting {
			return py.ExceptionNewf(recursionError, "containers nested more than %d deep cannot be compared, printed or sorted", MaxNesting)
		}
		n := int64(1)
		switch o.(type) {
		case *py.Set, *py.FrozenSet:
			if compared {
				n += int64(len(items)) * int64(len(items))
			}
		}
		visits[key] = onPath
		stack = append(stack, frame{key, items, n})
		return nil
	}
	if err := push(o); err != nil {
		return 0, err
	}
	var total int64
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.visits > MaxVisits {
			return 0, py.ExceptionNewf(recursionError, "this %s would take more than %d steps to compare, print or sort: it holds the same containers many times over (or a large set, which gpython compares item by item)", o.Type().Name, MaxVisits)
		}
		if len(top.items) == 0 {
			visits[top.key] = top.visits
			total = top.visits
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				stack[len(stack)-1].visits += top.visits
			}
			continue
		}
		next := top.items[0]
		top.items = top.items[1:]
		if err := push(next); err != nil {
			return 0, err
		}
	}
	return total, nil
}

// textWork returns the operations of writing a large integer in decimal,
// as printing and formatting it do (a 65,536-bit integer: 0.6 ms), where
// the walk is not a comparison's (comparing is linear in its size).
func textWork(o py.Object, compared bool) int64 {
	x, ok := o.(*py.BigInt)
	if !ok || compared {
		return 0
	}
	b := float64((*big.Int)(x).BitLen())
	return mulWork(b, b)
}

// identity names a container: its address, and for tuples, which share
// their items' array with their slices, also its length.
type identity struct {
	ptr uintptr
	n   int
}

// containerItems returns a container's identity and the items it holds,
// or a zero identity for other values.
func containerItems(o py.Object) (identity, []py.Object) {
	switch c := o.(type) {
	case *py.List:
		return identity{uintptr(unsafe.Pointer(c)), 0}, c.Items
	case py.Tuple:
		if len(c) == 0 {
			return identity{}, nil
		}
		return identity{uintptr(unsafe.Pointer(&c[0])), len(c)}, c
	case py.StringDict:
		items := make([]py.Object, 0, len(c))
		for _, v := range c {
			items = append(items, v)
		}
		return identity{reflect.ValueOf(c).Pointer(), 0}, items
	case *py.Set, *py.FrozenSet:
		var items []py.Object
		_ = py.Iterate(o, func(x py.Object) bool { items = append(items, x); return false })
		return identity{reflect.ValueOf(c).Pointer(), 0}, items
	case *py.Exception:
		// Printing an exception prints its arguments.
		if args, ok := c.Args.(py.Tuple); ok {
			return identity{uintptr(unsafe.Pointer(c)), 0}, args
		}
	}
	return identity{}, nil
}

// method calls obj.name(*args, **kwargs) for the methods that can grow a
// value (replace, extend) or recurse over its items (sort), sized or
// checked first; other objects' methods of those names are called as
// they are.
func (it *Interp) method(obj py.Object, name string, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
	// A method walking a string, a list or a dict in one Go call counts
	// that work as a loop doing it would.
	switch name {
	case "replace", "split", "find", "rfind", "index", "rindex", "count":
		n := countedItems(obj)
		if text, ok := obj.(py.String); ok {
			// gpython searches a str character by character: about
			// 10 ns a byte.
			n = int64(len(text)) / scannedBytes
		}
		if err := it.charge(n); err != nil {
			return nil, err
		}
	case "strip", "lstrip", "rstrip":
		// gpython tests every character against every one of chars:
		// a 0.5 MB string stripped of 0.5 MB of characters ran 81 s in
		// one call, past any budget counted between operations.
		if text, ok := obj.(py.String); ok {
			chars := int64(1)
			if c, ok := firstArg(args).(py.String); ok {
				chars = max(chars, int64(len(c)))
			}
			// The product first: a short string stripped of a long set
			// is work too.
			if err := it.charge((int64(len(text)) + 1) * chars / scannedBytes); err != nil {
				return nil, err
			}
		}
	case "startswith", "endswith":
		// Each affix is compared with the string's part.
		if text, ok := obj.(py.String); ok {
			affixes := int64(1)
			if t, ok := firstArg(args).(py.Tuple); ok {
				affixes = max(affixes, int64(len(t)))
			}
			if err := it.charge((int64(len(text)) + 1) * affixes / scannedBytes); err != nil {
				return nil, err
			}
			if len(kwargs) == 0 {
				ok, err := affix(text, name, args)
				if err != nil {
					return nil, err
				}
				return py.NewBool(ok), nil
			}
		}
	case "extend", "join":
		if err := it.charge(countedItems(firstArg(args))); err != nil {
			return nil, err
		}
	case "keys", "values", "items":
		if d, ok := obj.(py.StringDict); ok {
			// In the fixed order of order.go: the keys are sorted.
			if err := it.charge(int64(len(d))); err != nil {
				return nil, err
			}
		}
	}
	switch name {
	case "replace":
		n, ok := size(obj)
		if _, isList := obj.(*py.List); ok && !isList && len(args) >= 2 {
			old, _ := size(args[0])
			repl, _ := size(args[1])
			count := n + 1 // an empty old string matches between every character
			if old > 0 {
				count = n / old
			}
			if grow := count * (repl - old); grow > 0 && n+grow >= bigValue {
				if err := it.mem.build(n+grow, "replace()"); err != nil {
					return nil, err
				}
			}
		}
	case "split":
		if text, ok := obj.(py.String); ok && len(args) <= 2 {
			var sep, maxsplit py.Object = py.None, py.None
			if len(args) >= 1 {
				sep = args[0]
			} else if v, ok := kwargs["sep"]; ok {
				sep = v
			}
			if len(args) == 2 {
				maxsplit = args[1]
			} else if v, ok := kwargs["maxsplit"]; ok {
				maxsplit = v
			}
			if n := 48 * splitPieces(string(text), sep, maxsplit); n >= bigValue {
				if err := it.mem.build(n, "split()"); err != nil {
					return nil, err
				}
			}
		}
	case "extend":
		if l, ok := obj.(*py.List); ok && len(args) == 1 {
			if n, ok := size(args[0]); ok && 16*int64(len(l.Items))+n >= bigValue {
				if err := it.mem.grow(16*int64(len(l.Items)), n, "extend()"); err != nil {
					return nil, err
				}
			}
		}
	case "sort":
		if l, ok := obj.(*py.List); ok {
			if err := it.deep(obj); err != nil {
				return nil, err
			}
			if err := it.charge(sortOperations(len(l.Items))); err != nil {
				return nil, err
			}
		}
	case "add":
		if _, ok := obj.(*py.Set); ok && len(args) == 1 {
			if err := it.deep(args[0]); err != nil {
				return nil, err
			}
		}
	}
	fn, err := py.GetAttrString(obj, name)
	if err != nil {
		return nil, err
	}
	return py.Call(fn, args, kwargs)
}

// affix answers text.startswith(affix[, start[, end]]) (name
// "startswith") or endswith as Python does: start and end in characters,
// negative from the end and clamped to the string, and Python's TypeError
// for arguments of other types. gpython took a negative start as a Go
// slice index and failed with a runtime error, answered endswith with an
// end wrongly, and took other types of start, end and affix without an
// error.
func affix(text py.String, name string, args py.Tuple) (bool, error) {
	if len(args) < 1 || len(args) > 3 {
		return false, py.ExceptionNewf(py.TypeError, "%s() takes from 1 to 3 arguments (%d given)", name, len(args))
	}
	affixes := py.Tuple{args[0]}
	switch a := args[0].(type) {
	case py.String:
	case py.Tuple:
		affixes = a
	default:
		return false, py.ExceptionNewf(py.TypeError, "%s first arg must be str or a tuple of str, not %s", name, args[0].Type().Name)
	}
	runes := []rune(string(text))
	n := int64(len(runes))
	bound := func(k int, missing int64) (int64, error) {
		if k >= len(args) || args[k] == py.None {
			return missing, nil
		}
		var x *big.Int
		switch v := args[k].(type) {
		case py.Bool:
			x = big.NewInt(0)
			if v {
				x = big.NewInt(1)
			}
		case py.Int, *py.BigInt:
			x, _ = integer(v)
		default:
			return 0, py.ExceptionNewf(py.TypeError, "slice indices must be integers or None or have an __index__ method")
		}
		if !x.IsInt64() {
			if x.Sign() < 0 {
				return 0, nil
			}
			return n + 1, nil
		}
		i := x.Int64()
		if i < 0 {
			i = max(i+n, 0)
		}
		return i, nil
	}
	start, err := bound(1, 0)
	if err != nil {
		return false, err
	}
	end, err := bound(2, n)
	if err != nil {
		return false, err
	}
	end = min(end, n)
	if start > n || start > end {
		return false, nil // Python's answer, even for an empty affix
	}
	part := string(runes[start:end])
	// In order, as Python: an entry that matches answers before a later
	// one that is no str is seen.
	for _, x := range affixes {
		a, ok := x.(py.String)
		if !ok {
			return false, py.ExceptionNewf(py.TypeError, "tuple for %s must only contain str, not %s", name, x.Type().Name)
		}
		if name == "startswith" && strings.HasPrefix(part, string(a)) || name == "endswith" && strings.HasSuffix(part, string(a)) {
			return true, nil
		}
	}
	return false, nil
}

// splitPieces counts the strings text.split(sep, maxsplit) makes (at
// most), each a string header and a list slot: a 60 MB string of single
// letters and spaces splits into 30 million strings in one Go call.
// Without a separator, gpython splits at runs of Unicode white space.
func splitPieces(text string, sep, maxsplit py.Object) int64 {
	var n int64
	if s, ok := sep.(py.String); ok {
		if len(s) == 0 {
			return 0 // an error, raised by the call
		}
		n = int64(strings.Count(text, string(s))) + 1
	} else {
		inField := false
		for _, r := range text {
			space := unicode.IsSpace(r)
			if !space && !inField {
				n++
			}
			inField = !space
		}
	}
	if m, ok := integer(maxsplit); ok && m.Sign() >= 0 && m.IsInt64() {
		n = min(n, m.Int64()+1)
	}
	return n
}

// countedItems is the operations a Go loop over x's items costs: a
// string's or bytes' kilobytes, a list's, tuple's, set's or dict's items
// by sixteen (a copy or a test of an item takes a sixteenth of what an
// operation of a plugin's loop does), 0 for anything else.
func countedItems(x py.Object) int64 {
	switch x := x.(type) {
	case py.String:
		return int64(len(x)) / builtBytes
	case py.Bytes:
		return int64(len(x)) / builtBytes
	case *py.List:
		return int64(len(x.Items)) / 16
	case py.Tuple:
		return int64(len(x)) / 16
	case py.StringDict:
		return int64(len(x)) / 16
	case *py.Set, *py.FrozenSet:
		if n, err := py.Len(x); err == nil {
			if n, ok := n.(py.Int); ok {
				return int64(n) / 16
			}
		}
	}
	return 0
}

// firstArg is a call's first positional argument, or None.
func firstArg(args py.Tuple) py.Object {
	if len(args) == 0 {
		return py.None
	}
	return args[0]
}

// A guard is a function the instrumented code, or a plugin through a
// builtin's name, calls in place of gpython's: it sizes, counts or checks
// what the call will do before it runs (see instrumentModule). Each is
// made for one interpreter, whose budget it charges, from the builtin it
// replaces, if any.
type guard struct {
	name, doc string
	// replaces is the builtin the guard wraps, which make receives ("":
	// the instrumentation's own, which wrap none; a builtin this
	// interpreter does not have leaves its guard out).
	replaces string
	make     func(it *Interp, builtin py.Object) any
}

// guards returns the interpreter's guards by name: the instrumentation's
// own (instrumentGuards), the builtins replaced by checking versions
// (builtinGuards) and their families (deepGuard, nestedGuard, anyAllGuard).
func (it *Interp) guards() map[string]py.Object {
	builtins := it.ctx.Store().Builtins.Globals
	g := map[string]py.Object{"RecursionError": recursionError}
	for _, table := range [][]guard{instrumentGuards, builtinGuards, familyGuards} {
		for _, gd := range table {
			var builtin py.Object
			if gd.replaces != "" {
				if builtin = builtins[gd.replaces]; builtin == nil {
					continue
				}
			}
			g[gd.name] = py.MustNewMethod(gd.name, gd.make(it, builtin), 0, gd.doc)
		}
	}
	return g
}

// checkArgs checks every argument with check.
func checkArgs(args py.Tuple, check func(py.Object) error) error {
	for _, a := range args {
		if err := check(a); err != nil {
			return err
		}
	}
	return nil
}

// instrumentGuards are the functions the instrumented code calls by their
// reserved names.
var instrumentGuards = []guard{
	{name: binopName, doc: "a op b, sized before it is computed", replaces: "", make: func(it *Interp, _ py.Object) any {
		return func(_ py.Object, args py.Tuple) (py.Object, error) {
			op, ok := args[0].(py.String)
			if len(args) != 3 || !ok {
				return nil, py.ExceptionNewf(py.TypeError, "%s(op, a, b)", binopName)
			}
			return it.binop(string(op), args[1], args[2])
		}
	}},
	{name: deepName, doc: "x, once its nesting is checked", replaces: "", make: func(it *Interp, _ py.Object) any {
		return func(_ py.Object, args py.Tuple) (py.Object, error) {
			if len(args) != 1 {
				return nil, py.ExceptionNewf(py.TypeError, "%s(x)", deepName)
			}
			return args[0], it.deep(args[0])
		}
	}},
	{name: cmpName, doc: "x, once it is checked for a comparison", replaces: "", make: func(it *Interp, _ py.Object) any {
		return func(_ py.Object, x py.Object) (py.Object, error) {
			return x, it.walked(x, true)
		}
	}},
	{name: deepSeqName, doc: "x, checked for a comparison if it is a list or tuple", replaces: "", make: func(it *Interp, _ py.Object) any {
		return func(_ py.Object, args py.Tuple) (py.Object, error) {
			if len(args) != 1 {
				return nil, py.ExceptionNewf(py.TypeError, "%s(x)", deepSeqName)
			}
			switch x := args[0].(type) {
			case *py.List, py.Tuple:
				return args[0], it.walked(args[0], true)
			case py.String:
				// A substring search: gpython scans the string.
				return args[0], it.charge(int64(len(x)) / scannedBytes)
			}
			return args[0], nil
		}
	}},
	{name: methodName, doc: "obj.name(...), sized first", replaces: "", make: func(it *Interp, _ py.Object) any {
		return func(_ py.Object, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
			name, ok := args[1].(py.String)
			if len(args) < 2 || !ok {
				return nil, py.ExceptionNewf(py.TypeError, "%s(obj, name, ...)", methodName)
			}
			return it.method(args[0], string(name), args[2:], kwargs)
		}
	}},
	{name: strCallName, doc: "str(x) with x's nesting checked", replaces: "", make: func(it *Interp, _ py.Object) any {
		return func(_ py.Object, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
			if err := checkArgs(args, it.deep); err != nil {
				return nil, err
			}
			if len(args) == 1 {
				if err := it.checkPrinted(args[0], "str()"); err != nil {
					return nil, err
				}
				if len(kwargs) == 0 {
					text, err := pyText(args[0], false)
					return py.String(text), err
				}
			}
			return py.Call(py.StringType, args, kwargs)
		}
	}},
	{name: tockName, doc: "budget check at every iteration of a comprehension", replaces: "", make: func(it *Interp, _ py.Object) any {
		return func(py.Object, py.Tuple) (py.Object, error) {
			// An inner clause of a comprehension ends at its iterator's
			// error; the next iteration of an outer one raises it.
			if err := it.loopErr; err != nil {
				it.loopErr = nil
				return nil, err
			}
			if err := it.tick(); err != nil {
				return nil, err
			}
			return py.True, nil
		}
	}},
	{name: countedName, doc: "x, once the items a Go loop over it will copy or test are counted", replaces: "", make: func(it *Interp, _ py.Object) any {
		return func(_ py.Object, x py.Object) (py.Object, error) {
			return x, it.charge(countedItems(x))
		}
	}},
	{name: keyedName, doc: "obj, a dict seen through a view that refuses keys other than strings", replaces: "", make: func(it *Interp, _ py.Object) any {
		return func(_ py.Object, obj py.Object) (py.Object, error) {
			switch x := obj.(type) {
			case py.StringDict:
				return keyedDict{x}, nil
			case py.String:
				// gpython finds a str's character by counting from the
				// start: a loop indexing a long string is quadratic.
				if err := it.charge(int64(len(x)) / scannedBytes); err != nil {
					return nil, err
				}
			}
			return obj, nil
		}
	}},
	{name: strKeyName, doc: "a key of a dict display, once it is a string", replaces: "", make: func(it *Interp, _ py.Object) any {
		return func(_ py.Object, key py.Object) (py.Object, error) {
			return key, stringKey(key)
		}
	}},
	{name: iterName, doc: "an iterator over x whose every next ticks and keeps its error for the loop's end; with unpacks its items are unpacked in one pass and in order", replaces: "", make: func(it *Interp, _ py.Object) any {
		return func(_ py.Object, args py.Tuple) (py.Object, error) {
			if len(args) < 1 || len(args) > 2 {
				return nil, py.ExceptionNewf(py.TypeError, "%s(x[, unpacks])", iterName)
			}
			t, err := it.ticking(args[0], true)
			if err == nil && len(args) == 2 {
				t.(*tickingIterator).unpacks = true
			}
			return t, err
		}
	}},
	{name: feedName, doc: "an iterator over x whose every next ticks", replaces: "", make: func(it *Interp, _ py.Object) any {
		return func(_ py.Object, arg py.Object) (py.Object, error) {
			return it.ticking(arg, false)
		}
	}},
	{name: reraiseName, doc: "the error a loop took as its end, raised again", replaces: "", make: func(it *Interp, _ py.Object) any {
		return func(_ py.Object, args py.Tuple) (py.Object, error) {
			if err := it.loopErr; err != nil {
				it.loopErr = nil
				return nil, err
			}
			if len(args) == 1 {
				return args[0], nil
			}
			return py.None, nil
		}
	}},
	{name: lazyName, doc: "a generator expression that ends with its loop's error", replaces: "", make: func(it *Interp, _ py.Object) any {
		return func(_ py.Object, arg py.Object) (py.Object, error) {
			return &lazyGenerator{inner: arg, it: it}, nil
		}
	}},
	{name: boundName, doc: "obj.name as a value, its calls sized or checked", replaces: "", make: func(it *Interp, _ py.Object) any {
		return func(_ py.Object, args py.Tuple) (py.Object, error) {
			name, ok := args[1].(py.String)
			if len(args) != 2 || !ok {
				return nil, py.ExceptionNewf(py.TypeError, "%s(obj, name)", boundName)
			}
			attr, err := py.GetAttrString(args[0], string(name))
			if err != nil {
				return nil, err
			}
			switch args[0].(type) {
			case *py.List, py.String, py.Bytes, *py.Set:
			default:
				return attr, nil // a plugin object's own attribute of that name
			}
			obj := args[0]
			return py.MustNewMethod(string(name), func(_ py.Object, a py.Tuple, kw py.StringDict) (py.Object, error) {
				return it.method(obj, string(name), a, kw)
			}, 0, "a method, sized or checked before it runs"), nil
		}
	}},
	{name: sizedName, doc: "a value stored into a slice, sized first", replaces: "", make: func(it *Interp, _ py.Object) any {
		return func(_ py.Object, args py.Tuple) (py.Object, error) {
			if len(args) != 2 {
				return nil, py.ExceptionNewf(py.TypeError, "%s(target, value)", sizedName)
			}
			if n, ok := size(args[1]); ok && n >= bigValue/16 {
				have, _ := size(args[0])
				if err := it.mem.grow(16*have, 16*n, "the slice assignment"); err != nil {
					return nil, err
				}
			}
			if items, ok, err := ordered(args[1]); ok || err != nil {
				return items, err
			}
			return args[1], nil
		}
	}},
	{name: unpackName, doc: "the value of a pattern, a str iterated in one pass, a dict or set in order", replaces: "", make: func(it *Interp, _ py.Object) any {
		return func(_ py.Object, arg py.Object) (py.Object, error) {
			return it.linear(arg, true)
		}
	}},
	{name: starName, doc: "x spread into a call's arguments, a str's length checked", replaces: "", make: func(it *Interp, _ py.Object) any {
		return func(_ py.Object, arg py.Object) (py.Object, error) {
			if n := characters(arg); n > MaxItemized {
				return nil, py.ExceptionNewf(py.MemoryError, "a string of %d characters spread into a call's arguments would make an object of each; plugins do that for strings of at most %d", n, MaxItemized)
			}
			if items, ok, err := ordered(arg); ok || err != nil {
				return items, err
			}
			return arg, nil
		}
	}},
}

// builtinGuards replace builtins whose cost grows with their arguments.
var builtinGuards = []guard{
	// gpython counts a str's characters for its length.
	{name: "len", doc: "len(obj): the number of items of a container", replaces: "len", make: func(it *Interp, length py.Object) any {
		return func(_ py.Object, args py.Tuple) (py.Object, error) {
			if len(args) == 1 {
				if text, ok := args[0].(py.String); ok {
					if err := it.charge(int64(len(text)) / scannedBytes); err != nil {
						return nil, err
					}
				}
			}
			return py.Call(length, args, nil)
		}
	}},
	{name: bytesCallName, doc: "bytes(x) with its size checked", replaces: "bytes", make: func(it *Interp, bytesType py.Object) any {
		return func(_ py.Object, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
			if len(args) == 1 {
				if n, ok := integer(args[0]); ok && n.Sign() > 0 && (!n.IsInt64() || n.Int64() >= bigValue) {
					if !n.IsInt64() {
						return nil, it.mem.refuse(math.MaxInt64/2, 0, "bytes()")
					}
					if err := it.mem.build(n.Int64(), "bytes()"); err != nil {
						return nil, err
					}
				}
			}
			if len(args) == 1 {
				if items, ok, err := ordered(args[0]); ok || err != nil {
					if err != nil {
						return nil, err
					}
					args = py.Tuple{items}
				}
			}
			return py.Call(bytesType, args, kwargs)
		}
	}},
	// pow(a, b) sizes like a ** b; sum adds numbers (of sequences it
	// would copy the growing total once per item, in one Go loop).
	{name: "pow", doc: "pow(x, y[, z]): x**y, or x**y % z", replaces: "pow", make: func(it *Interp, pow py.Object) any {
		return func(_ py.Object, args py.Tuple) (py.Object, error) {
			if len(args) == 2 {
				return it.binop("**", args[0], args[1])
			}
			if len(args) == 3 {
				// Modular exponentiation costs bits(y) multiplications of
				// bits(z)-bit numbers; Go takes a modulus of 0 as none.
				y, oky := integer(args[1])
				z, okz := integer(args[2])
				if okz && z.Sign() == 0 {
					return nil, py.ExceptionNewf(py.ValueError, "pow() 3rd argument cannot be 0")
				}
				if oky && okz && float64(bits(y))*float64(bits(z))*float64(bits(z)) > maxModPowCost {
					return nil, py.ExceptionNewf(py.MemoryError, "pow() with a %d-bit exponent and a %d-bit modulus is beyond what a plugin may compute in one call", bits(y), bits(z))
				}
				if oky && okz {
					// A product and a reduction per bit of the exponent.
					if err := it.charge(2 * int64(bits(y)) * mulWork(float64(bits(z)), float64(bits(z)))); err != nil {
						return nil, err
					}
				}
			}
			return py.Call(pow, args, nil)
		}
	}},
	// The types among them (a plugin may test isinstance(x, set)) stay as
	// they are; the instrumentation routes their calls and their uses as
	// values through these.
	{name: intCallName, doc: "int(x) with the length of a string x checked", replaces: "int", make: func(it *Interp, intType py.Object) any {
		return func(_ py.Object, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
			if len(args) == 1 && len(kwargs) == 0 {
				if b, ok := args[0].(py.Bool); ok {
					return boolAsInt(b), nil // gpython's int() refused a bool
				}
			}
			if len(args) >= 1 {
				if text, ok := args[0].(py.String); ok && len(strings.TrimSpace(string(text))) > maxIntDigits {
					n := len(strings.TrimSpace(string(text)))
					return nil, py.ExceptionNewf(py.ValueError, "int() of a string of %d characters: plugins read integers of at most %d digits (%d bits)", n, maxIntDigits, MaxIntBits)
				}
				if text, ok := args[0].(py.String); ok {
					// Reading digits into an integer costs as a product of
					// the integer by itself (12,000 digits: 1.3 ms).
					b := float64(len(text)) * math.Log2(10)
					if err := it.charge(mulWork(b, b)); err != nil {
						return nil, err
					}
				}
			}
			return py.Call(intType, args, kwargs)
		}
	}},
	{name: "getattr", doc: "getattr(object, name[, default])", replaces: "getattr", make: func(it *Interp, getattr py.Object) any {
		return func(_ py.Object, args py.Tuple) (py.Object, error) {
			if len(args) >= 2 {
				if name, ok := args[1].(py.String); ok && guardedMethods[string(name)] {
					if _, err := py.GetAttrString(args[0], string(name)); err == nil {
						return py.Call(it.ctx.Store().Builtins.Globals[boundName], py.Tuple{args[0], name}, nil)
					}
				}
			}
			return py.Call(getattr, args, nil)
		}
	}},
	// round(x, n) with a huge n would compute 10**|n|; rounding to more
	// digits than a number has changes nothing, to fewer than its
	// magnitude gives zero, so n is clamped to where it still matters.
	// divmod does the work of // and %, charged as theirs (intWork), and
	// of floats as CPython's (floatDivMod).
	{name: "divmod", doc: "divmod(a, b): (a // b, a % b)", replaces: "divmod", make: func(it *Interp, divmod py.Object) any {
		return func(_ py.Object, args py.Tuple) (py.Object, error) {
			if len(args) == 2 {
				args = py.Tuple{boolAsInt(args[0]), boolAsInt(args[1])}
				if err := it.charge(intWork("//", args[0], args[1])); err != nil {
					return nil, err
				}
				if floatOp("//", args[0], args[1]) {
					x, y, err := floatPair(args[0], args[1])
					if err != nil {
						return nil, err
					}
					div, mod, err := floatDivMod(x, y, "float divmod()")
					if err != nil {
						return nil, err
					}
					return py.Tuple{py.Float(div), py.Float(mod)}, nil
				}
			}
			return py.Call(divmod, args, nil)
		}
	}},
	{name: "round", doc: "round(number[, ndigits])", replaces: "round", make: func(it *Interp, round py.Object) any {
		return func(_ py.Object, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
			if nd, ok := kwargs["ndigits"]; ok && len(args) == 1 && len(kwargs) == 1 {
				args, kwargs = py.Tuple{args[0], nd}, nil
			}
			if len(args) == 2 {
				if n, ok := integer(args[1]); ok {
					if x, ok := args[0].(py.Float); ok {
						y := roundFloat(float64(x), n)
						if math.IsInf(float64(y), 0) {
							return nil, py.ExceptionNewf(py.OverflowError, "rounded value too large to represent")
						}
						return y, nil
					}
					limit := int64(400)
					if x, ok := integer(args[0]); ok {
						limit = bits(x)/3 + 2
						// Rounding a large integer divides it by a power of
						// ten of its size.
						if err := it.charge(mulWork(float64(bits(x)), float64(bits(x)))); err != nil {
							return nil, err
						}
					}
					if !n.IsInt64() || n.Int64() > limit || n.Int64() < -limit {
						c := limit
						if n.Sign() < 0 {
							c = -limit
						}
						args = py.Tuple{args[0], py.Int(c)}
					}
				}
			}
			return py.Call(round, args, kwargs)
		}
	}},
	{name: "sum", doc: "sum(iterable[, start]): the sum of numbers", replaces: "sum", make: func(it *Interp, sum py.Object) any {
		return func(_ py.Object, args py.Tuple) (py.Object, error) {
			if len(args) == 2 {
				if _, ok := size(args[1]); ok {
					return nil, py.ExceptionNewf(py.TypeError, "sum() adds numbers; join strings with str.join and lists with list.extend")
				}
			}
			if len(args) >= 1 {
				// A list or tuple is added up in one Go loop: an operation an
				// item, as a loop over it would count.
				if n, ok := size(args[0]); ok {
					if _, isText := args[0].(py.String); !isText {
						if err := it.charge(n / slotBytes); err != nil {
							return nil, err
						}
					}
				}
				// A float sum's last bits depend on the order.
				x, err := it.linear(args[0], true)
				if err != nil {
					return nil, err
				}
				args = append(py.Tuple{x}, args[1:]...)
			}
			return py.Call(sum, args, nil)
		}
	}},
}

// familyGuards replace builtins a few at a time.
var familyGuards = []guard{
	deepGuard("repr"), deepGuard("ascii"), deepGuard("format"), deepGuard("sorted"), deepGuard("min"), deepGuard("max"), deepGuard("hash"),
	nestedGuard("map"), nestedGuard("filter"), nestedGuard("zip"), nestedGuard("enumerate"),
	anyAllGuard("any"), anyAllGuard("all"),
}

// deepGuard replaces a builtin that recurses over its arguments'
// containers in Go by a version that checks them first, so that they are
// checked however it is reached (s = repr; map(repr, xs)).
func deepGuard(name string) guard {
	return guard{name: name, doc: name + "(...) with its arguments' nesting checked", replaces: name, make: func(it *Interp, fn py.Object) any {
		prints := name == "repr" || name == "ascii" || name == "format"
		return func(_ py.Object, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
			if err := checkArgs(args, it.deep); err != nil {
				return nil, err
			}
			if name == "sorted" && len(args) >= 1 {
				if err := itemized(args[0], name); err != nil {
					return nil, err
				}
				if n, err := py.Len(args[0]); err == nil {
					if n, ok := n.(py.Int); ok {
						if err := it.charge(sortOperations(int(n))); err != nil {
							return nil, err
						}
					}
				}
				// Equal keys keep the order they come in (a stable sort).
				if items, ok, err := ordered(args[0]); ok || err != nil {
					if err != nil {
						return nil, err
					}
					args = append(py.Tuple{items}, args[1:]...)
				}
			}
			if (name == "min" || name == "max") && len(args) == 1 {
				// The first of equal items (under a key, or 1 and 1.0)
				// wins: dicts and sets in their fixed order.
				x, err := it.linear(args[0], true)
				if err != nil {
					return nil, err
				}
				args = py.Tuple{x}
			}
			if prints && len(args) >= 1 {
				if err := it.checkPrinted(args[0], name+"()"); err != nil {
					return nil, err
				}
			}
			if (name == "repr" || name == "ascii") && len(args) == 1 && len(kwargs) == 0 {
				text, err := pyText(args[0], true)
				if name == "ascii" {
					text = asciiEscaped(text)
				}
				return py.String(text), err
			}
			return py.Call(fn, args, kwargs)
		}
	}}
}

// nestedGuard replaces a builtin iterator that wraps iterators, which
// recurse on the Go stack when chained (map(f, map(f, ...)) a million
// deep overflows it at the first next), by one that counts the nesting.
func nestedGuard(name string) guard {
	return guard{name: name, doc: name + "(...)", replaces: name, make: func(it *Interp, fn py.Object) any {
		return func(_ py.Object, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
			depth := 0
			for _, a := range args {
				if n, ok := a.(*nestedIterator); ok {
					depth = max(depth, n.depth)
				}
			}
			if depth >= MaxNesting {
				return nil, py.ExceptionNewf(recursionError, "%s() over iterators nested more than %d deep", name, MaxNesting)
			}
			if name == "zip" && len(args) == 0 {
				args = py.Tuple{py.Tuple{}} // gpython's zip() never ends
			}
			// The iterables among the arguments: all of zip's, the
			// first of enumerate's, the others of map's and filter's.
			args = slices.Clone(args)
			for i := range args {
				if name == "zip" || (name == "enumerate") == (i == 0) {
					x, err := it.linear(args[i], true)
					if err != nil {
						return nil, err
					}
					args[i] = x
				}
			}
			made, err := py.Call(fn, args, kwargs)
			if err != nil {
				return nil, err
			}
			inner, err := py.Iter(made) // enumerate is iterable, not an iterator
			if err != nil {
				return nil, err
			}
			return &nestedIterator{inner: inner, depth: depth + 1, it: it}, nil
		}
	}}
}

// anyAllGuard makes any and all go through their iterable in its fixed
// order, counted.
func anyAllGuard(name string) guard {
	return guard{name: name, doc: name + "(iterable)", replaces: name, make: func(it *Interp, fn py.Object) any {
		return func(_ py.Object, arg py.Object) (py.Object, error) {
			x, err := it.linear(arg, false)
			if err != nil {
				return nil, err
			}
			return py.Call(fn, py.Tuple{x}, nil)
		}
	}}
}

// guardMath replaces math.factorial by a version that refuses results
// beyond MaxIntBits and charges its work (as intWork); the module is this
// interpreter's own.
func (it *Interp) guardMath() error {
	if err := py.Import(it.ctx, "math"); err != nil {
		return err
	}
	m, err := it.ctx.GetModule("math")
	if err != nil {
		return err
	}
	factorial := m.Globals["factorial"]
	m.Globals["factorial"] = py.MustNewMethod("factorial", func(_ py.Object, arg py.Object) (py.Object, error) {
		n := 0.0
		if f, ok := arg.(py.Float); ok && float64(f) > 0 && float64(f) == math.Trunc(float64(f)) {
			n = float64(f) // an integral float computes as that integer
		} else if x, ok := integer(arg); ok && x.Sign() > 0 {
			n = bigFloat(x)
		}
		if n > 0 {
			lg, _ := math.Lgamma(n + 1)
			b := lg / math.Ln2
			if b > MaxIntBits {
				return nil, intTooBig("factorial()", b)
			}
			// n products of the growing result by a word: on average
			// half the result's words each.
			if err := it.charge(int64(n * (b/64 + 1) / 2 / wordMulsPerOperation)); err != nil {
				return nil, err
			}
		}
		return py.Call(factorial, py.Tuple{arg}, nil)
	}, 0, "factorial(x): x!")
	return nil
}

// keyedDict is a dict as the object of a subscript: a key gpython's dicts
// cannot take (any but a string) raises KeyError here, named by its repr
// if it is a number or None and by its type otherwise, instead of being
// printed with Go's fmt, which recurses over a nested tuple, list or
// object without limit.
type keyedDict struct{ d py.StringDict }

var keyedDictType = py.NewType("dict", "a dict seen through a key check")

func (k keyedDict) Type() *py.Type { return keyedDictType }

func (k keyedDict) M__getitem__(key py.Object) (py.Object, error) {
	if err := stringKey(key); err != nil {
		return nil, err
	}
	return k.d.M__getitem__(key)
}

func (k keyedDict) M__setitem__(key, value py.Object) (py.Object, error) {
	if err := stringKey(key); err != nil {
		return nil, err
	}
	return k.d.M__setitem__(key, value)
}

func (k keyedDict) M__delitem__(key py.Object) (py.Object, error) {
	if err := stringKey(key); err != nil {
		return nil, err
	}
	return k.d.M__delitem__(key)
}

// stringKey is the KeyError of a dict key that is not a string.
func stringKey(key py.Object) error {
	switch key.(type) {
	case py.String:
		return nil
	case py.Int, *py.BigInt, py.Float, py.Bool, py.NoneType:
		r, err := py.ReprAsString(key)
		if err != nil {
			return err
		}
		return py.ExceptionNewf(py.KeyError, "%s", r)
	}
	return py.ExceptionNewf(py.KeyError, "dictionaries in plugins take string keys, not %s", key.Type().Name)
}

// nestedIterator is the result of map, filter, zip and enumerate: the
// builtin's iterator, with how many such iterators it wraps.
type nestedIterator struct {
	inner py.Object
	depth int
	it    *Interp
}

var nestedIteratorType = py.NewType("iterator", "an iterator over other iterators")

func (n *nestedIterator) Type() *py.Type                { return nestedIteratorType }
func (n *nestedIterator) M__iter__() (py.Object, error) { return n, nil }

// M__next__ ticks: list(zip(*rows)) builds its items in one Go loop,
// which the memory budget stops.
func (n *nestedIterator) M__next__() (py.Object, error) {
	if err := n.it.count(false); err != nil {
		return nil, err
	}
	return py.Next(n.inner)
}

// roundFloat is round(x, n) for a float: x rounded half to even to n
// decimal digits (tens, hundreds, … for n < 0), correctly rounded as
// Python does it (gpython's own gives wrong results for large n).
func roundFloat(x float64, n *big.Int) py.Float {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0) || x == 0:
		return py.Float(x)
	case n.Sign() >= 0:
		if !n.IsInt64() || n.Int64() > 400 { // beyond the digits of the smallest float
			return py.Float(x)
		}
		y, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', int(n.Int64()), 64), 64)
		return py.Float(y)
	case !n.IsInt64() || n.Int64() < -400: // beyond the largest float
		return py.Float(math.Copysign(0, x))
	}
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(-n.Int64()), nil)
	q := new(big.Rat).SetFloat64(x)
	q.Quo(q, new(big.Rat).SetInt(scale))
	// Half to even on the exact quotient.
	whole, rest := new(big.Int).QuoRem(q.Num(), q.Denom(), new(big.Int))
	twice := new(big.Int).Abs(new(big.Int).Lsh(rest, 1))
	if c := twice.Cmp(q.Denom()); c > 0 || (c == 0 && whole.Bit(0) == 1) {
		whole.Add(whole, big.NewInt(int64(q.Num().Sign())))
	}
	y, _ := new(big.Rat).SetInt(whole.Mul(whole, scale)).Float64()
	return py.Float(math.Copysign(y, x))
}

// checkPrinted checks that x prints (str, repr, print, % and format) within
// the memory budget: a list of a thousand references to one megabyte
// string prints as a gigabyte in one Go call. x has passed deep, so the
// walk below ends.
func (it *Interp) checkPrinted(x py.Object, what string) error {
	if n := printedSize(x, map[identity]int64{}); n >= bigValue {
		return it.mem.build(n, what)
	}
	return nil
}

// printedSize estimates the characters x prints as, counting a shared
// container once per reference, as printing does (memo holds the sizes of
// the containers met).
func printedSize(x py.Object, memo map[identity]int64) int64 {
	switch v := x.(type) {
	case py.String:
		return int64(len(v)) + 2
	case py.Bytes:
		return 4*int64(len(v)) + 3
	case *py.BigInt:
		return int64((*big.Int)(v).BitLen())/3 + 2
	case py.Int, py.Float, py.Bool, py.NoneType:
		return 24
	}
	key, items := containerItems(x)
	if key.ptr == 0 {
		return 64 // an object's repr: its type and address
	}
	if n, ok := memo[key]; ok {
		return n
	}
	memo[key] = 0 // deep has ruled out cycles; this only guards against surprises
	var n int64 = 2
	for _, item := range items {
		n = min(n+printedSize(item, memo)+2, math.MaxInt64/4)
	}
	if d, ok := x.(py.StringDict); ok {
		for k := range d {
			n += int64(len(k)) + 4
		}
	}
	memo[key] = n
	return n
}

// retainedSize estimates the bytes of the values reachable from root:
// every container once, its items, the attributes of objects; and how
// many values it looked at (what the walk cost). It walks with its own
// stack, so any nesting is fine.
func retainedSize(root py.Object) (n, values int64) {
	seen := map[identity]bool{}
	stack := []py.Object{root}
	for len(stack) > 0 {
		values++
		o := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch v := o.(type) {
		case py.String:
			n += int64(len(v)) + 16
			continue
		case py.Bytes:
			n += int64(len(v)) + 24
			continue
		case *py.BigInt:
			n += int64((*big.Int)(v).BitLen()/8) + 32
			continue
		case *py.Type:
			// An object of a plugin class: its attributes.
			key := identity{uintptr(unsafe.Pointer(v)), 0}
			if !seen[key] {
				seen[key] = true
				n += 64
				stack = append(stack, v.Dict)
			}
			continue
		}
		key, items := containerItems(o)
		if key.ptr == 0 {
			n += 16
			continue
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		n += 64 + 16*int64(len(items))
		stack = append(stack, items...)
	}
	return n, values
}

// init makes the constructors of str, set and int check their arguments
// themselves, so that they are checked however a plugin reaches them
// (s = str; kinds = (str, int); map(str, xs)) while the names stay the
// types (isinstance, type(x) == str). gpython's types are package-level
// values shared by every interpreter in the process; they are changed
// once here, before any interpreter runs, and never again. The checks are
// pure: nesting (deep) and the digit count of int(); the instance's memory
// budget is added where the calls are spelled out (__plugin_str__, …).
func init() {
	// gpython readies the types made with py.NewType in its own init,
	// before this package's exist: ours (the API's, the guards') would
	// keep no method resolution order, so that the attribute guard below
	// would not see them.
	if err := py.TypeMakeReady(); err != nil {
		panic(fmt.Sprintf("sandbox: %v", err))
	}
	deepNew := func(next py.NewFunc, check func(py.Object) error) py.NewFunc {
		return func(t *py.Type, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
			for _, a := range args {
				if err := check(a); err != nil {
					return nil, err
				}
			}
			return next(t, args, kwargs)
		}
	}
	if next := py.StringType.New; next != nil {
		// Reached as a value (k = str), str() has no instance's memory
		// budget at hand: it refuses what prints as more than
		// maxPrintedStr. It prints as the str guard does (pyText).
		checked := deepNew(next, func(o py.Object) error {
			if err := printable(o); err != nil {
				return err
			}
			if n := printedSize(o, map[identity]int64{}); n > maxPrintedStr {
				return py.ExceptionNewf(py.MemoryError, "str() of a value that prints as %s; str reached as a value prints at most %s", megabytes(n), megabytes(maxPrintedStr))
			}
			return nil
		})
		py.StringType.New = func(t *py.Type, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
			r, err := checked(t, args, kwargs)
			if err != nil || t != py.StringType || len(args) != 1 || len(kwargs) != 0 {
				return r, err
			}
			text, err := pyText(args[0], false)
			return py.String(text), err
		}
	}
	// dict(s) makes a list of s's characters before it fails.
	if py.StringDictType.New != nil {
		py.StringDictType.New = deepNew(py.StringDictType.New, func(o py.Object) error { return itemized(o, "dict") })
	}
	for _, t := range []*py.Type{py.SetType, py.FrozenSetType} {
		if t.New != nil {
			t.New = deepNew(t.New, func(o py.Object) error {
				if err := itemized(o, t.Name); err != nil {
					return err
				}
				return deep(o)
			})
		}
	}
	for _, t := range []*py.Type{py.ListType, py.TupleType} {
		if next := t.New; next != nil {
			checked := deepNew(next, func(o py.Object) error { return itemized(o, t.Name) })
			t.New = func(t *py.Type, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
				if len(args) == 1 {
					if items, ok, err := ordered(args[0]); ok || err != nil {
						if err != nil {
							return nil, err
						}
						args = py.Tuple{items}
					}
				}
				return checked(t, args, kwargs)
			}
		}
	}
	// A dict's keys, values and items in the order of order.go.
	for _, name := range []string{"keys", "values", "items"} {
		name := name
		py.StringDictType.Dict[name] = py.MustNewMethod(name, func(self py.Object, args py.Tuple) (py.Object, error) {
			if len(args) != 0 {
				return nil, py.ExceptionNewf(py.TypeError, "%s() takes no arguments (%d given)", name, len(args))
			}
			d := self.(py.StringDict)
			keys := dictKeys(d)
			out := make(py.Tuple, len(keys))
			for i, k := range keys {
				switch name {
				case "keys":
					out[i] = py.String(k)
				case "values":
					out[i] = d[k]
				default:
					out[i] = py.Tuple{py.String(k), d[k]}
				}
			}
			return py.NewIterator(out), nil
		}, 0, name+"() of the dict, in key order")
	}
	// gpython's classes, their instances and the built-in types are all
	// *py.Type, and an attribute set on one goes through the
	// __setattr__ its lookup finds, if any (py.SetAttrString). Every
	// type's lookup ends in object, an instance's does not look there:
	// so this one guard sees every way a plugin reaches a type
	// (ValueError.x = 1, k = type([]); k.x = 1). A class the plugin
	// defined (a heap type) takes the attribute; a built-in or API type,
	// shared by every instance in the process, refuses it.
	py.ObjectType.Dict["__setattr__"] = py.MustNewMethod("__setattr__", func(_ py.Object, args py.Tuple) (py.Object, error) {
		t, key, err := pluginType(args, 3)
		if err != nil {
			return nil, err
		}
		t.Dict[key] = args[2]
		return py.None, nil
	}, 0, "sets an attribute of a class the plugin defined")
	py.ObjectType.Dict["__delattr__"] = py.MustNewMethod("__delattr__", func(_ py.Object, args py.Tuple) (py.Object, error) {
		t, key, err := pluginType(args, 2)
		if err != nil {
			return nil, err
		}
		if _, ok := t.Dict[key]; !ok {
			return nil, py.ExceptionNewf(py.AttributeError, "'%s' has no attribute '%s'", t.Name, key)
		}
		delete(t.Dict, key)
		return py.None, nil
	}, 0, "deletes an attribute of a class the plugin defined")
	// dict.get prints a key it cannot take (any but a string) as a
	// subscript does (see keyedDict); no such key is in the dict.
	if get, ok := py.StringDictType.Dict["get"].(*py.Method); ok {
		py.StringDictType.Dict["get"] = py.MustNewMethod("get", func(self py.Object, args py.Tuple) (py.Object, error) {
			if len(args) == 1 || len(args) == 2 {
				if _, ok := args[0].(py.String); !ok {
					if len(args) == 2 {
						return args[1], nil
					}
					return py.None, nil
				}
			}
			return get.Call(self, args)
		}, 0, get.Doc)
	}
	if next := py.IntType.New; next != nil {
		py.IntType.New = func(t *py.Type, args py.Tuple, kwargs py.StringDict) (py.Object, error) {
			if len(args) >= 1 {
				if text, ok := args[0].(py.String); ok && len(strings.TrimSpace(string(text))) > maxIntDigits {
					return nil, py.ExceptionNewf(py.ValueError, "int() of a string of %d digits: plugins read integers of at most %d digits (%d bits)",
						len(strings.TrimSpace(string(text))), maxIntDigits, MaxIntBits)
				}
			}
			return next(t, args, kwargs)
		}
	}
}

// pluginType checks the arguments (type, name[, value]) of a type's
// __setattr__ or __delattr__: the type must be a class the plugin defined
// or an instance of one.
func pluginType(args py.Tuple, n int) (*py.Type, string, error) {
	if len(args) != n {
		return nil, "", py.ExceptionNewf(py.TypeError, "expected %d arguments, got %d", n, len(args))
	}
	t, ok := args[0].(*py.Type)
	if !ok {
		return nil, "", py.ExceptionNewf(py.TypeError, "expected a type, got %s", args[0].Type().Name)
	}
	key, err := py.AttributeName(args[1])
	if err != nil {
		return nil, "", err
	}
	// An instance of a plugin's class is a *py.Type whose type is that
	// class; instances of object itself have no attributes.
	if t.Flags&py.TPFLAGS_HEAPTYPE == 0 && (t.ObjectType == nil || t.ObjectType.Flags&py.TPFLAGS_HEAPTYPE == 0) {
		if t.Name == "" {
			return nil, "", py.ExceptionNewf(py.AttributeError, "'%s' object has no attribute '%s'", t.Type().Name, key)
		}
		return nil, "", py.ExceptionNewf(py.TypeError, "cannot set or delete attribute '%s' of the built-in type '%s': it is shared by every FMU instance", key, t.Name)
	}
	return t, key, nil
}
