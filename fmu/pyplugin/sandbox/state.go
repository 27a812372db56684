package sandbox

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"sort"
	"strings"
	"unsafe"

	"github.com/go-python/gpython/py"
)

// A plugin's own state is its module globals holding data (numbers,
// strings, booleans, None, lists, tuples and dicts of them, and the API's
// objects), together with the data attributes of its classes, and the
// names it rebound to other code than its top level bound there (h = b, a
// state machine held in a function), written as the name the top level
// bound that code under. It is
// encoded with a tag byte per value; floats keep their bits, containers
// are written once and referred to after (two names for one list stay one
// list, a list may contain itself), the API's objects as the API's
// Objects write them (from TagAPI on). A restored plugin continues
// bitwise identically.
const (
	tagNone byte = iota
	tagFalse
	tagTrue
	tagInt
	tagBigInt
	tagFloat
	tagString
	tagList
	tagTuple
	tagDict
	tagRef  // a container written before, by its number
	tagFunc // code the plugin's top level bound (a function, a built-in), by that name
	// TagAPI is the first tag of the API's objects (Objects).
	TagAPI
)

// Objects writes and reads the objects of the API a plugin's globals may
// hold (its declared variables, the simulation's bodies): the sandbox
// knows only Python's values.
type Objects interface {
	// Encode appends o's tag (TagAPI or above) and payload, and reports
	// whether o is one of the API's objects; an API object it cannot
	// write is an error.
	Encode(dst []byte, o py.Object) (out []byte, ok bool, err error)
	// Decode reads the payload of an object of tag, or fails r.
	Decode(tag byte, r *Reader) py.Object
}

// maxNesting bounds nested containers.
const maxNesting = 64

// SaveState appends the plugin's state: its data globals and class
// attributes, and where the schedule of measuring what it keeps stands,
// so that a restored run measures at the same calls.
func (it *Interp) SaveState(dst []byte, objs Objects) ([]byte, error) {
	e := &encoder{dst: dst, seen: map[uintptr]int{}, objs: objs, funcs: it.defNames()}
	entries := it.stateEntries(it.module.Globals)
	e.dst = binary.AppendUvarint(e.dst, uint64(len(entries)))
	for _, en := range entries {
		e.dst = AppendString(e.dst, en.key)
		if err := e.value(en.value, 0); err != nil {
			return nil, fmt.Errorf("%s: %w", en.what(), err)
		}
	}
	e.dst = binary.AppendUvarint(e.dst, it.keptWork)
	e.dst = binary.AppendUvarint(e.dst, it.keptDue)
	return e.dst, nil
}

// LoadState reads a state SaveState wrote from r: the data globals and
// class attributes become the saved ones (ones created since are
// removed). Nothing changes if the state is damaged.
func (it *Interp) LoadState(r *Reader, objs Objects) error {
	r.objs, r.containers, r.funcs = objs, nil, it.defs
	n := r.Uvarint()
	saved := map[string]py.Object{}
	for i := uint64(0); i < n && r.err == nil; i++ {
		key := r.String()
		saved[key] = r.value(0)
	}
	keptWork, keptDue := r.Uvarint(), r.Uvarint()
	if r.err != nil {
		return fmt.Errorf("state: %w", r.err)
	}
	// A forged state must not put the next measurement of what the
	// plugin keeps off further than a measurement would.
	if keptDue > max(keptLeast, uint64(it.mem.budget)/2) || keptWork > keptDue {
		return fmt.Errorf("state: the next measurement of what the plugin keeps due after %d bytes of work, %d done: damaged", keptDue, keptWork)
	}
	g := it.module.Globals
	for key := range saved {
		class, _, isAttr := strings.Cut(key, ".")
		if !isAttr {
			// A data global or a name rebound to code; the plugin's
			// classes and modules are not state, and a state naming one
			// is forged.
			if v, ok := g[key]; ok && (isClass(v) || isModule(v)) {
				return fmt.Errorf("state: %s is the plugin's %s, not data: damaged", key, v.Type().Name)
			}
			continue
		}
		if t, ok := g[class].(*py.Type); !ok || !isClass(t) {
			return fmt.Errorf("state has attributes of a class %s the plugin does not define", class)
		}
		if _, plain := saved[class]; plain {
			return fmt.Errorf("state: %s is both a class and a value: damaged", class)
		}
	}
	it.keptWork, it.keptDue = keptWork, keptDue
	for _, en := range it.stateEntries(g) {
		delete(en.dict, en.name)
	}
	// The names the top level bound to code, where the state rebinds none.
	for key, fn := range it.defs {
		if _, ok := saved[key]; ok {
			continue
		}
		class, attr, isAttr := strings.Cut(key, ".")
		if !isAttr {
			g[key] = fn
		} else if t, ok := g[class].(*py.Type); ok {
			t.Dict[attr] = fn
		}
	}
	for key, v := range saved {
		class, attr, isAttr := strings.Cut(key, ".")
		if !isAttr {
			g[key] = v
			continue
		}
		if t, ok := g[class].(*py.Type); ok {
			t.Dict[attr] = v
		}
	}
	return nil
}

// entry is one saved name: a global ("x") or a class attribute ("C.x").
type entry struct {
	key, name string
	dict      py.StringDict
	value     py.Object
}

func (en entry) what() string {
	if strings.Contains(en.key, ".") {
		return "class attribute " + en.key
	}
	return "global " + en.key
}

// stateEntries lists, sorted, the globals and class attributes that hold
// data, or code other than what the plugin's top level bound there (not
// classes and the top level's own bindings of code, which the plugin's
// code recreates).
func (it *Interp) stateEntries(g py.StringDict) []entry {
	var out []entry
	code := func(key string, v py.Object) bool { return isCode(v) && it.defs[key] == v }
	for name, v := range g {
		if strings.HasPrefix(name, "__") || code(name, v) {
			continue
		}
		if isClass(v) {
			// A class of the plugin: its data attributes count.
			t := v.(*py.Type)
			for attr, av := range t.Dict {
				if key := name + "." + attr; !strings.HasPrefix(attr, "__") && !code(key, av) {
					out = append(out, entry{key, attr, t.Dict, av})
				}
			}
			continue
		}
		out = append(out, entry{name, name, g, v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
}

// codeBindings returns the names (globals, "Class.attr") that the
// plugin's top level bound to code (functions, built-in functions,
// methods, modules): what a restored state binds again where the state
// rebinds none of them.
func codeBindings(g py.StringDict) map[string]py.Object {
	out := map[string]py.Object{}
	for name, v := range g {
		if strings.HasPrefix(name, "__") {
			continue
		}
		if isCode(v) {
			out[name] = v
		}
		if isClass(v) {
			for attr, av := range v.(*py.Type).Dict {
				if !strings.HasPrefix(attr, "__") && isCode(av) {
					out[name+"."+attr] = av
				}
			}
		}
	}
	return out
}

// defNames maps each piece of code the plugin's top level bound to the
// name it bound it under (of several, the first in order): a name rebound
// to it is saved as that name.
func (it *Interp) defNames() map[py.Object]string {
	keys := make([]string, 0, len(it.defs))
	for k := range it.defs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := map[py.Object]string{}
	for _, k := range keys {
		if _, ok := out[it.defs[k]]; !ok {
			out[it.defs[k]] = k
		}
	}
	return out
}

func isModule(v py.Object) bool { _, ok := v.(*py.Module); return ok }

// isClass reports whether v is a class the plugin defined.
func isClass(v py.Object) bool {
	t, ok := v.(*py.Type)
	return ok && t.Type() == py.TypeType
}

func isCode(v py.Object) bool {
	switch v.(type) {
	case *py.Module, *py.Function, *py.Method, *py.ClassMethod, *py.StaticMethod, *py.Property:
		return true
	}
	return false
}

// encoder writes values, remembering the containers written; funcs
// names the code the plugin's top level bound (defNames).
type encoder struct {
	dst   []byte
	seen  map[uintptr]int
	objs  Objects
	funcs map[py.Object]string
}

// container writes a reference if c was written before and reports it;
// otherwise it numbers c.
func (e *encoder) container(ptr uintptr) bool {
	if k, ok := e.seen[ptr]; ok {
		e.dst = binary.AppendUvarint(append(e.dst, tagRef), uint64(k))
		return true
	}
	e.seen[ptr] = len(e.seen)
	return false
}

func (e *encoder) value(v py.Object, depth int) error {
	if depth > maxNesting {
		return fmt.Errorf("nested more than %d deep", maxNesting)
	}
	switch x := v.(type) {
	case py.NoneType:
		e.dst = append(e.dst, tagNone)
	case py.Bool:
		if x {
			e.dst = append(e.dst, tagTrue)
		} else {
			e.dst = append(e.dst, tagFalse)
		}
	case py.Int:
		e.dst = binary.AppendVarint(append(e.dst, tagInt), int64(x))
	case *py.BigInt:
		e.dst = AppendString(append(e.dst, tagBigInt), (*big.Int)(x).String())
	case py.Float:
		e.dst = binary.LittleEndian.AppendUint64(append(e.dst, tagFloat), math.Float64bits(float64(x)))
	case py.String:
		e.dst = AppendString(append(e.dst, tagString), string(x))
	case *py.List:
		if e.container(uintptr(unsafe.Pointer(x))) {
			return nil
		}
		e.dst = binary.AppendUvarint(append(e.dst, tagList), uint64(len(x.Items)))
		for _, it := range x.Items {
			if err := e.value(it, depth+1); err != nil {
				return err
			}
		}
	case py.Tuple:
		e.dst = binary.AppendUvarint(append(e.dst, tagTuple), uint64(len(x)))
		for _, it := range x {
			if err := e.value(it, depth+1); err != nil {
				return err
			}
		}
	case py.StringDict:
		if e.container(reflect.ValueOf(x).Pointer()) {
			return nil
		}
		ks := make([]string, 0, len(x))
		for k := range x {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		e.dst = binary.AppendUvarint(append(e.dst, tagDict), uint64(len(ks)))
		for _, k := range ks {
			e.dst = AppendString(e.dst, k)
			if err := e.value(x[k], depth+1); err != nil {
				return err
			}
		}
	case *py.Module, *py.Function, *py.Method, *py.ClassMethod, *py.StaticMethod, *py.Property:
		// Code: by the name the plugin's top level bound it under.
		name, ok := e.funcs[v]
		if !ok {
			what := v.Type().Name
			if f, isFn := x.(*py.Function); isFn {
				what = "function " + f.Name
			}
			return fmt.Errorf("holds the %s, which the plugin's top level binds under no name (a nested function, a built-in function imported only in a function): FMU states keep code by such a name only; bind it at the top level (floor = math.floor)", what)
		}
		e.dst = AppendString(append(e.dst, tagFunc), name)
	default:
		out, ok, err := e.objs.Encode(e.dst, v)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("holds a %s: FMU states keep numbers, strings, booleans, None, lists, tuples and dicts of them, and the plugin API's objects", v.Type().Name)
		}
		e.dst = out
	}
	return nil
}

// AppendString appends s, its length first.
func AppendString(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

// Reader reads plugins' states, remembering the first error.
type Reader struct {
	b          []byte
	err        error
	objs       Objects
	containers []py.Object
	funcs      map[string]py.Object // the plugin's top-level functions by name
}

// NewReader reads b.
func NewReader(b []byte) *Reader { return &Reader{b: b} }

// Rest is how many bytes are left.
func (r *Reader) Rest() int { return len(r.b) }

// Fail marks the state damaged at what.
func (r *Reader) Fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("damaged: %s", what)
	}
	r.b = nil
}

// Uvarint reads a number.
func (r *Reader) Uvarint() uint64 {
	x, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.Fail("length")
		return 0
	}
	r.b = r.b[n:]
	return x
}

// String reads a string.
func (r *Reader) String() string {
	n := r.Uvarint()
	if n > uint64(len(r.b)) {
		r.Fail("string")
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

func (r *Reader) value(depth int) py.Object {
	if len(r.b) == 0 || depth > maxNesting {
		r.Fail("value")
		return py.None
	}
	tag := r.b[0]
	r.b = r.b[1:]
	switch tag {
	case tagNone:
		return py.None
	case tagFalse:
		return py.False
	case tagTrue:
		return py.True
	case tagInt:
		x, n := binary.Varint(r.b)
		if n <= 0 {
			r.Fail("int")
			return py.None
		}
		r.b = r.b[n:]
		return py.Int(x)
	case tagBigInt:
		z, ok := new(big.Int).SetString(r.String(), 10)
		if !ok {
			r.Fail("int")
			return py.None
		}
		return (*py.BigInt)(z)
	case tagFloat:
		if len(r.b) < 8 {
			r.Fail("float")
			return py.None
		}
		x := math.Float64frombits(binary.LittleEndian.Uint64(r.b))
		r.b = r.b[8:]
		return py.Float(x)
	case tagString:
		return py.String(r.String())
	case tagList, tagTuple:
		n := r.Uvarint()
		if n > uint64(len(r.b)) {
			r.Fail("sequence")
			return py.None
		}
		items := make([]py.Object, n)
		if tag == tagTuple {
			for i := range items {
				items[i] = r.value(depth + 1)
			}
			return py.Tuple(items)
		}
		l := py.NewListFromItems(items)
		r.containers = append(r.containers, l) // before its items, which may refer to it
		for i := range l.Items {
			l.Items[i] = r.value(depth + 1)
		}
		return l
	case tagDict:
		n := r.Uvarint()
		if n > uint64(len(r.b)) {
			r.Fail("dict")
			return py.None
		}
		d := py.NewStringDictSized(int(n))
		r.containers = append(r.containers, d)
		for i := uint64(0); i < n; i++ {
			k := r.String()
			d[k] = r.value(depth + 1)
		}
		return d
	case tagFunc:
		name := r.String()
		fn, ok := r.funcs[name]
		if !ok {
			r.Fail("function " + name)
			return py.None
		}
		return fn
	case tagRef:
		k := r.Uvarint()
		if k >= uint64(len(r.containers)) {
			r.Fail("reference")
			return py.None
		}
		return r.containers[k]
	default:
		if tag >= TagAPI && r.objs != nil {
			return r.objs.Decode(tag, r)
		}
	}
	r.Fail(fmt.Sprintf("tag %d", tag))
	return py.None
}
