package sandbox

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-python/gpython/py"
	_ "github.com/go-python/gpython/stdlib" // the interpreter's builtins, math and the compiler
)

// maxGoFrames bounds the interpreter's call depth, counted in Go frames
// (gpython nests about eight per Python call): deeper Python recursion
// would exhaust the Go stack, which no recover can catch.
const maxGoFrames = 4000

// checkEvery is how many ticks pass between two looks at the clock, the
// stack depth and the heap.
const checkEvery = 16

// removedBuiltins are builtins a plugin cannot use: they would read or
// write files, or run code the budget instrumentation has not seen.
// setattr and delattr could change types every instance shares.
var removedBuiltins = []string{"open", "exec", "eval", "compile", "globals", "locals", "print", "input", "iter", "setattr", "delattr"}

// Interp is one gpython interpreter context running one plugin file: an
// FMU instance owns its interpreters, so instances share nothing.
type Interp struct {
	ctx    py.Context
	src    *Source
	module *py.Module
	// defs are the names the module's top level bound to its functions
	// (globals, "Class.attr"), which FMU states leave to the code.
	defs map[string]py.Object
	// operations is the operations budget of a call, timeout its
	// wall-clock guard; param names the plugin's parameters that set them.
	operations uint64
	timeout    time.Duration
	param      string
	mem        memoryLimit
	started    time.Time
	// ticks counts the call's operations; overrun says which limit
	// stopped it.
	ticks   uint64
	overrun overrun
	// limitErr is a memory limit hit at a tick; every later tick of the
	// call fails with it too.
	limitErr error
	// loopErr is the error of an iterator that a loop took as its end,
	// until the code right after the loop raises it again (__reraise__).
	loopErr error
	// nexts is how many tickingIterator nexts are under way, each inside
	// the one before: generators resuming the generators they wrap.
	nexts int
	pc    [1]uintptr // scratch for the stack depth check
	// printed collects print() output for the FMU log, printedBytes its
	// size in this call.
	printed      []string
	printedBytes int64
	// keptWork is what the calls since the last measurement of what the
	// plugin keeps could have added to it (bytes), keptDue how much makes
	// the next measurement due; both are part of the FMU state.
	keptWork, keptDue uint64
}

// overrun is the limit that stopped a call, if any.
type overrun int

const (
	withinLimits overrun = iota
	pastOperations
	pastTimeout
)

// Limits are what one call of a plugin may use.
type Limits struct {
	operations uint64        // operations (ticks)
	memory     int64         // bytes the heap may grow by
	timeout    time.Duration // wall clock, the last guard
	name       string        // the plugin's name, which prefixes its parameters
}

// NewLimits converts a plugin's limits as the FMU parameters give them
// (operations, MB, s).
func NewLimits(name string, operations, memoryMB, timeout float64) Limits {
	return Limits{operations: uint64(operations), memory: megabytesToBytes(memoryMB), timeout: time.Duration(timeout * float64(time.Second)), name: name}
}

// New prepares a context whose builtins are restricted and carry
// the budget hooks, the guards of the instrumentation and the given API
// functions.
func New(src *Source, lim Limits, api map[string]py.Object) (*Interp, error) {
	it := &Interp{ctx: py.NewContext(py.ContextOpts{}), src: src, operations: lim.operations, timeout: lim.timeout, param: lim.name, mem: newMemoryLimit(lim.memory)}
	it.mem.param = lim.name + ".memory"
	if err := it.guardMath(); err != nil {
		return nil, fmt.Errorf("preparing the plugin interpreter: %w", err)
	}
	b := it.ctx.Store().Builtins.Globals
	for name, obj := range it.guards() {
		b[name] = obj
	}
	for _, name := range removedBuiltins {
		delete(b, name)
	}
	b["__tick__"] = py.MustNewMethod("__tick__", func(py.Object, py.Tuple) (py.Object, error) {
		if err := it.tick(); err != nil {
			return nil, err
		}
		return py.None, nil
	}, 0, "budget check at every loop iteration")
	b["range"] = py.MustNewMethod("range", func(_ py.Object, args py.Tuple) (py.Object, error) {
		r, err := py.Call(py.RangeType, args, nil)
		if err != nil {
			return nil, err
		}
		return &tickingRange{r: r, it: it}, nil
	}, 0, "range(stop) or range(start, stop[, step])")
	b["print"] = py.MustNewMethod("print", func(_ py.Object, args py.Tuple) (py.Object, error) {
		parts := make([]string, len(args))
		// What the call has printed so far stays in memory until the call
		// ends (it goes to the FMU's log then): it counts with this line.
		total := it.printedBytes
		for _, a := range args {
			if err := it.deep(a); err != nil {
				return nil, err
			}
			total += printedSize(a, map[identity]int64{})
		}
		if total >= bigValue {
			if err := it.mem.fits(2*total, "print()"); err != nil {
				return nil, err
			}
		}
		it.printedBytes = total
		for i, a := range args {
			s, err := pyText(a, false)
			if err != nil {
				return nil, err
			}
			parts[i] = s
		}
		it.printed = append(it.printed, strings.Join(parts, " "))
		return py.None, nil
	}, 0, "print(value, ...): writes to the FMU log")
	for name, obj := range api {
		b[name] = obj
	}
	return it, nil
}

// errBudget marks a call stopped at its operations budget or its
// wall-clock guard.
var errBudget = errors.New("call budget exceeded")

// tick counts an operation (a loop iteration, a call, an item of a
// comprehension or an iterator) against the call's operations budget,
// and looks at the clock, the stack depth and the heap now and then.
// Once over the budget every later tick fails too, so that a plugin
// catching the exception cannot keep running. The count alone decides a
// budget stop, so the same plugin, inputs and state stop at the same
// operation on any machine at any load; the clock is only the last guard
// against work no count sees.
func (it *Interp) tick() error { return it.count(true) }

// charge counts n operations of one builtin call at once: a sort, a
// comparison or printing of a large container, a large sequence built;
// so that such a call costs what a loop doing the same work would, and
// the count, not the clock, stops a plugin that makes many of them.
func (it *Interp) charge(n int64) error {
	if n <= 0 {
		return nil
	}
	it.ticks += uint64(n - 1)
	return it.count(false)
}

// count is tick, with the stack depth looked at only if stack: an
// iterator's next counts how deep iterators nest instead
// (tickingIterator), which costs nothing, where the stack walk of every
// checkEvery-th tick doubled the cost of a tight loop.
func (it *Interp) count(stack bool) error {
	it.ticks++
	if it.overrun == withinLimits && it.ticks > it.operations {
		it.overrun = pastOperations
	}
	if it.overrun == withinLimits && it.ticks%checkEvery == 0 {
		if time.Since(it.started) > it.timeout {
			it.overrun = pastTimeout
		} else if stack && runtime.Callers(maxGoFrames, it.pc[:]) > 0 {
			return py.ExceptionNewf(recursionError, "maximum recursion depth exceeded (about %d nested calls)", maxGoFrames/8)
		} else if err := it.mem.guard(); err != nil {
			// Sticky like the operations budget: gpython takes any error of a
			// for loop's iterator as the loop's end.
			it.limitErr = err
		}
	}
	if it.limitErr != nil {
		return it.limitErr
	}
	if it.overrun != withinLimits {
		return py.ExceptionNewf(py.RuntimeError, "plugin stopped: its call ran past %s", it.limitText())
	}
	return nil
}

// limitText names the limit that stopped the call and the parameter that
// sets it.
func (it *Interp) limitText() string {
	if it.overrun == pastTimeout {
		return fmt.Sprintf("its wall-clock timeout of %v (parameter %s.timeout)", it.timeout, it.param)
	}
	return fmt.Sprintf("its budget of %d operations (parameter %s.operations)", it.operations, it.param)
}

// run executes the module's top level (its declarations).
func (it *Interp) run() error {
	return it.guard("module", func() error {
		m, err := py.RunCode(it.ctx, it.src.code, it.src.file, "plugin")
		it.module = m
		if err == nil {
			it.defs = codeBindings(m.Globals)
		}
		return err
	})
}

// call calls a plugin function with the budget.
func (it *Interp) call(name string, fn py.Object, args ...py.Object) (py.Object, error) {
	var res py.Object
	err := it.guard(name+"()", func() error {
		var err error
		res, err = py.Call(fn, py.Tuple(args), nil)
		return err
	})
	return res, err
}

// guard runs f with a fresh budget, turning Python exceptions into errors
// with their traceback and a panic inside the interpreter into an error.
func (it *Interp) guard(what string, f func() error) (err error) {
	it.started, it.ticks, it.overrun, it.limitErr, it.loopErr, it.nexts, it.printedBytes = time.Now(), 0, withinLimits, nil, nil, 0, 0
	it.mem.start()
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s in %s: the interpreter failed: %v", what, it.src.file, r)
		}
	}()
	err = f()
	if err == nil && it.limitErr != nil {
		err = it.limitErr // swallowed by a loop that took it as its end
	}
	if err == nil && it.loopErr != nil {
		err = it.loopErr
	}
	if err == nil && it.overrun == withinLimits && time.Since(it.started) > it.timeout {
		it.overrun = pastTimeout // no tick came after the clock ran out
	}
	if it.overrun != withinLimits {
		return &scriptError{fmt.Sprintf("%s in %s ran past %s and was stopped%s", what, it.src.file, it.limitText(), it.where(err)), errBudget}
	}
	if err != nil {
		return &scriptError{fmt.Sprintf("%s in %s raised an exception\n%s", what, it.src.file, it.traceback(err)), err}
	}
	return nil
}

// keptBytesPerOperation bounds what one counted operation can add to what
// a plugin keeps without being counted as built: a loop pass appends an
// item or keeps a small value; larger values are counted by the kilobyte
// (builtBytes) or, from bigValue on, as built. keptLeast is the least work
// between two measurements (bytes), so that a plugin far below its budget
// is measured rarely.
const (
	keptBytesPerOperation = 256
	keptLeast             = 64 << 10
)

// kept bounds what a plugin keeps from call to call (a global list it
// appends to): the memory budget bounds what each call builds, and
// without this a plugin could grow the process on every call. The values
// reachable from the plugin's globals are measured after a call
// (simulation.call: internal steps, not communication points where a
// plugin has a step hook) once the counted work since the last
// measurement could have added half of what the budget leaves; more than
// the budget fails the call. The work is counted (operations and the
// large values built) and saved with the FMU state, so the same run fails
// at the same call on any machine and after a state is restored.
func (it *Interp) kept() error {
	it.keptWork += it.ticks*keptBytesPerOperation + uint64(it.mem.built)
	if it.module == nil || it.keptWork < it.keptDue {
		return nil
	}
	n, _ := retainedSize(it.module.Globals)
	it.keptWork, it.keptDue = 0, keptLeast
	if n < it.mem.budget {
		it.keptDue = max(keptLeast, uint64(it.mem.budget-n)/2)
	}
	if n > it.mem.budget {
		msg := fmt.Sprintf("the plugin keeps about %.6g MB in its variables from call to call, more than its memory budget of %.6g MB (%s)",
			float64(n)/1e6, float64(it.mem.budget)/1e6, it.mem.param)
		return &scriptError{it.src.file + ": " + msg, py.ExceptionNewf(py.MemoryError, "%s", msg)}
	}
	return nil
}

// scriptError is a failed plugin call: its message carries the traceback,
// Unwrap the Python exception (or errBudget).
type scriptError struct {
	msg   string
	cause error
}

func (e *scriptError) Error() string { return e.msg }
func (e *scriptError) Unwrap() error { return e.cause }

// where names the line a budget stop happened at.
func (it *Interp) where(err error) string {
	var info py.ExceptionInfo
	if !errors.As(err, &info) || info.Traceback == nil {
		return ""
	}
	tb := info.Traceback
	for tb.Next != nil {
		tb = tb.Next
	}
	return fmt.Sprintf(" at %s:%d", tb.Frame.Code.Filename, it.line(tb))
}

// line maps a traceback entry to the plugin file's line.
func (it *Interp) line(tb *py.Traceback) int {
	n := int(tb.Lineno)
	if tb.Frame.Code.Filename == it.src.file && n > 0 && n < len(it.src.lines) {
		return it.src.lines[n]
	}
	return n
}

// traceback formats a Python exception as Python prints it, with the
// plugin file's line numbers.
func (it *Interp) traceback(err error) string {
	var info py.ExceptionInfo
	if !errors.As(err, &info) {
		var exc *py.Exception
		if errors.As(err, &exc) {
			return exceptionLine(exc)
		}
		return err.Error()
	}
	var b strings.Builder
	b.WriteString("Traceback (most recent call last):\n")
	for tb := info.Traceback; tb != nil; tb = tb.Next {
		fmt.Fprintf(&b, "  File %q, line %d, in %s\n", tb.Frame.Code.Filename, it.line(tb), tb.Frame.Code.Name)
	}
	if exc, ok := info.Value.(*py.Exception); ok {
		b.WriteString(exceptionLine(exc))
	} else {
		b.WriteString(info.Error())
	}
	return b.String()
}

// lastLine returns the plugin file's line where an exception was raised,
// for file:line diagnostics.
func (it *Interp) lastLine(err error) int {
	var info py.ExceptionInfo
	if !errors.As(err, &info) {
		return 1
	}
	line := 1
	for tb := info.Traceback; tb != nil; tb = tb.Next {
		if tb.Frame.Code.Filename == it.src.file {
			line = it.line(tb)
		}
	}
	return line
}

func exceptionLine(exc *py.Exception) string {
	// The arguments print recursively in Go: a self-containing one would
	// overflow the stack.
	if printable(exc.Args) != nil {
		return exc.Base.Name + ": (arguments nested too deeply to print)"
	}
	msg, err := py.StrAsString(exc)
	if err != nil || msg == "" {
		return exc.Base.Name
	}
	return exc.Base.Name + ": " + msg
}

// argCount returns the number of positional parameters of a plugin
// function, or -1 if obj is not one.
func argCount(obj py.Object) int {
	if f, ok := obj.(*py.Function); ok {
		return int(f.Code.Argcount)
	}
	return -1
}

// tickingRange is range() whose iteration ticks, so that a loop run by a
// builtin (sum(range(10**12))) or a comprehension stops at the budget.
type tickingRange struct {
	r  py.Object
	it *Interp
}

var tickingRangeType = py.NewType("range", "range(stop) or range(start, stop[, step])")

func (r *tickingRange) Type() *py.Type { return tickingRangeType }

func (r *tickingRange) M__iter__() (py.Object, error) {
	inner, err := py.Iter(r.r)
	if err != nil {
		return nil, err
	}
	return &tickingIterator{inner: inner, it: r.it, loop: true}, nil
}

func (r *tickingRange) M__len__() (py.Object, error)                { return py.Len(r.r) }
func (r *tickingRange) M__getitem__(k py.Object) (py.Object, error) { return py.GetItem(r.r, k) }
func (r *tickingRange) M__repr__() (py.Object, error)               { return py.Repr(r.r) }

type tickingIterator struct {
	inner py.Object
	it    *Interp
	// loop: a for loop or comprehension consumes the iterator, taking
	// any error as its end, so the error is kept for the code right
	// after the loop; yield from raises it itself.
	loop bool
	// unpacks: the loop unpacks each item into a pattern, so an item
	// that is a str, dict or set is given as an iterator over it in one
	// pass and in order (linear).
	unpacks bool
}

var tickingIteratorType = py.NewType("range_iterator", "")

func (i *tickingIterator) Type() *py.Type                { return tickingIteratorType }
func (i *tickingIterator) M__iter__() (py.Object, error) { return i, nil }

func (i *tickingIterator) M__next__() (py.Object, error) {
	err := i.it.count(false)
	if err == nil && i.it.nexts >= MaxNesting {
		err = py.ExceptionNewf(recursionError, "maximum recursion depth exceeded: generators nested more than %d deep", MaxNesting)
	}
	if err != nil {
		if i.loop {
			i.it.loopErr = err
		}
		return nil, err
	}
	i.it.nexts++
	r, err := py.Next(i.inner)
	i.it.nexts--
	if err != nil && i.loop && !py.IsException(py.StopIteration, err) {
		// A loop takes any error of its iterator as its end: kept to be
		// raised again right after it.
		i.it.loopErr = err
	}
	if err == nil && i.unpacks {
		r, err = i.it.linear(r, true)
	}
	if err == nil {
		// An item made of many (a row zip or map built) counts them.
		err = i.it.charge(countedItems(r))
	}
	return r, err
}

// ticking returns an iterator over x whose every next ticks; one that a
// loop consumes (loop) keeps its error for the loop's end.
func (it *Interp) ticking(x py.Object, loop bool) (py.Object, error) {
	if s, ok := x.(py.String); ok {
		return &tickingIterator{inner: &runeIterator{s: string(s)}, it: it, loop: loop}, nil
	}
	if items, ok, err := ordered(x); ok || err != nil {
		return &tickingIterator{inner: py.NewIterator(items), it: it, loop: loop}, err
	}
	inner, err := py.Iter(x)
	if err != nil {
		return nil, err
	}
	if t, ok := inner.(*tickingIterator); ok && t.loop == loop {
		return t, nil // range()'s
	}
	return &tickingIterator{inner: inner, it: it, loop: loop}, nil
}

// linear is x for a Go loop to consume (map, min, unpacking): a str as
// an iterator over its characters in one pass whose every next ticks;
// with inOrder a dict or set as an iterator in the order of order.go
// (min, max, any and all do not depend on the order); anything else as
// it is.
func (it *Interp) linear(x py.Object, inOrder bool) (py.Object, error) {
	if s, ok := x.(py.String); ok {
		return &tickingIterator{inner: &runeIterator{s: string(s)}, it: it}, nil
	}
	if !inOrder {
		return x, nil
	}
	if items, ok, err := ordered(x); ok || err != nil {
		return &tickingIterator{inner: py.NewIterator(items), it: it}, err
	}
	return x, nil
}

// runeIterator iterates a str's characters in one pass. gpython iterates
// a str by index, and each index counts the characters from the start:
// a Go loop over a string of n characters (map, min, x, *y = s) costs n²
// in one call the operations budget cannot interrupt. A character is what
// gpython's index gives: a rune's bytes, or one byte of invalid UTF-8.
type runeIterator struct{ s string }

var runeIteratorType = py.NewType("str_iterator", "")

func (r *runeIterator) Type() *py.Type                { return runeIteratorType }
func (r *runeIterator) M__iter__() (py.Object, error) { return r, nil }

func (r *runeIterator) M__next__() (py.Object, error) {
	if r.s == "" {
		return nil, py.StopIteration
	}
	_, n := utf8.DecodeRuneInString(r.s)
	c := r.s[:n]
	r.s = r.s[n:]
	return py.String(c), nil
}

// lazyGenerator is a generator expression whose end raises the error its
// loop took as its end, if any.
type lazyGenerator struct {
	inner py.Object
	it    *Interp
}

var lazyGeneratorType = py.NewType("generator", "a generator expression")

func (g *lazyGenerator) Type() *py.Type                { return lazyGeneratorType }
func (g *lazyGenerator) M__iter__() (py.Object, error) { return g, nil }

func (g *lazyGenerator) M__next__() (py.Object, error) {
	r, err := py.Next(g.inner)
	if err != nil && g.it.loopErr != nil && py.IsException(py.StopIteration, err) {
		err, g.it.loopErr = g.it.loopErr, nil
	}
	return r, err
}
