package pyplugin

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"sort"
	"strings"
	"unsafe"

	"github.com/go-python/gpython/py"
)

// The plugins' own state is their module globals holding data (numbers,
// strings, booleans, None, lists, tuples and dicts of them, and the API's
// objects), together with the data attributes of their classes. It is
// encoded with a tag byte per value; floats keep their bits, containers
// are written once and referred to after (two names for one list stay one
// list, a list may contain itself), API objects by name. A restored plugin
// continues bitwise identically.
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
	tagRef      // a container written before, by its number
	tagVariable // a declared variable, by its number
	tagBody     // an API object, by its name
	tagCable
	tagWinch
	tagSim
)

// maxNesting bounds nested containers.
const maxNesting = 64

// SaveExtra implements fmu.ExtraState.
func (s *simulation) SaveExtra(dst []byte) ([]byte, error) {
	for _, p := range s.plugins {
		e := &encoder{dst: dst, seen: map[uintptr]int{}, vars: map[*variable]int{}}
		for k, v := range p.d.vars {
			e.vars[v] = k
		}
		entries := stateEntries(p.it.module.Globals)
		e.dst = binary.AppendUvarint(e.dst, uint64(len(entries)))
		for _, en := range entries {
			e.dst = appendString(e.dst, en.key)
			if err := e.value(en.value, 0); err != nil {
				return nil, fmt.Errorf("plugin %s: %s: %w", p.spec.ref.Name, en.what(), err)
			}
		}
		// Where the schedule of measuring what the plugin keeps stands,
		// so that a restored run measures at the same calls.
		e.dst = binary.AppendUvarint(e.dst, p.it.keptWork)
		e.dst = binary.AppendUvarint(e.dst, p.it.keptDue)
		dst = e.dst
	}
	return dst, nil
}

// LoadExtra implements fmu.ExtraState: the data globals and class
// attributes become those of the saved state (ones created since are
// removed).
func (s *simulation) LoadExtra(src []byte) error {
	r := &reader{b: src, sim: s.plant}
	for _, p := range s.plugins {
		r.vars, r.containers = p.d.vars, nil
		n := r.uvarint()
		saved := map[string]py.Object{}
		for i := uint64(0); i < n && r.err == nil; i++ {
			key := r.string()
			saved[key] = r.value(0)
		}
		keptWork, keptDue := r.uvarint(), r.uvarint()
		if r.err != nil {
			return fmt.Errorf("plugin %s: state: %w", p.spec.ref.Name, r.err)
		}
		// A forged state must not put the next measurement of what the
		// plugin keeps off further than a measurement would.
		if keptDue > max(keptLeast, uint64(p.it.mem.budget)/2) || keptWork > keptDue {
			return fmt.Errorf("plugin %s: state: the next measurement of what the plugin keeps due after %d bytes of work, %d done: damaged", p.spec.ref.Name, keptDue, keptWork)
		}
		p.it.keptWork, p.it.keptDue = keptWork, keptDue
		g := p.it.module.Globals
		for _, en := range stateEntries(g) {
			delete(en.dict, en.name)
		}
		for key, v := range saved {
			class, attr, isAttr := strings.Cut(key, ".")
			if !isAttr {
				g[key] = v
				continue
			}
			t, ok := g[class].(*py.Type)
			if !ok {
				return fmt.Errorf("plugin %s: state has attributes of a class %s the plugin does not define", p.spec.ref.Name, class)
			}
			t.Dict[attr] = v
		}
	}
	if len(r.b) != 0 {
		return fmt.Errorf("plugin state: %d bytes too many", len(r.b))
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
// data (not modules, functions or classes, which the plugin's code
// recreates).
func stateEntries(g py.StringDict) []entry {
	var out []entry
	add := func(d py.StringDict, prefix string) {
		for name, v := range d {
			if strings.HasPrefix(name, "__") || isCode(v) {
				continue
			}
			if t, ok := v.(*py.Type); ok && t.Type() == py.TypeType {
				if prefix == "" {
					// A class of the plugin: its data attributes count.
					for attr, av := range t.Dict {
						if !strings.HasPrefix(attr, "__") && !isCode(av) {
							out = append(out, entry{name + "." + attr, attr, t.Dict, av})
						}
					}
				}
				continue
			}
			out = append(out, entry{prefix + name, name, d, v})
		}
	}
	add(g, "")
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
}

func isCode(v py.Object) bool {
	switch v.(type) {
	case *py.Module, *py.Function, *py.Method, *py.ClassMethod, *py.StaticMethod, *py.Property:
		return true
	}
	return false
}

// encoder writes values, remembering the containers written.
type encoder struct {
	dst  []byte
	seen map[uintptr]int
	vars map[*variable]int
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
		e.dst = appendString(append(e.dst, tagBigInt), (*big.Int)(x).String())
	case py.Float:
		e.dst = binary.LittleEndian.AppendUint64(append(e.dst, tagFloat), math.Float64bits(float64(x)))
	case py.String:
		e.dst = appendString(append(e.dst, tagString), string(x))
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
			e.dst = appendString(e.dst, k)
			if err := e.value(x[k], depth+1); err != nil {
				return err
			}
		}
	case *variable:
		k, ok := e.vars[x]
		if !ok {
			return errors.New("holds a variable of another plugin")
		}
		e.dst = binary.AppendUvarint(append(e.dst, tagVariable), uint64(k))
	case *body:
		e.dst = appendString(append(e.dst, tagBody), x.b.Name())
	case *cable:
		e.dst = appendString(append(e.dst, tagCable), x.c.Name())
	case *winch:
		e.dst = appendString(append(e.dst, tagWinch), x.w.Name())
	case *sim:
		e.dst = append(e.dst, tagSim)
	default:
		return fmt.Errorf("holds a %s: FMU states keep numbers, strings, booleans, None, lists, tuples and dicts of them, and the plugin API's objects", v.Type().Name)
	}
	return nil
}

func appendString(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

// reader decodes the encoder's format, remembering the first error.
type reader struct {
	b          []byte
	err        error
	sim        *sim
	vars       []*variable
	containers []py.Object
}

func (r *reader) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("damaged: %s", what)
	}
	r.b = nil
}

func (r *reader) uvarint() uint64 {
	x, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail("length")
		return 0
	}
	r.b = r.b[n:]
	return x
}

func (r *reader) string() string {
	n := r.uvarint()
	if n > uint64(len(r.b)) {
		r.fail("string")
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

func (r *reader) value(depth int) py.Object {
	if len(r.b) == 0 || depth > maxNesting {
		r.fail("value")
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
			r.fail("int")
			return py.None
		}
		r.b = r.b[n:]
		return py.Int(x)
	case tagBigInt:
		z, ok := new(big.Int).SetString(r.string(), 10)
		if !ok {
			r.fail("int")
			return py.None
		}
		return (*py.BigInt)(z)
	case tagFloat:
		if len(r.b) < 8 {
			r.fail("float")
			return py.None
		}
		x := math.Float64frombits(binary.LittleEndian.Uint64(r.b))
		r.b = r.b[8:]
		return py.Float(x)
	case tagString:
		return py.String(r.string())
	case tagList, tagTuple:
		n := r.uvarint()
		if n > uint64(len(r.b)) {
			r.fail("sequence")
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
		n := r.uvarint()
		if n > uint64(len(r.b)) {
			r.fail("dict")
			return py.None
		}
		d := py.NewStringDictSized(int(n))
		r.containers = append(r.containers, d)
		for i := uint64(0); i < n; i++ {
			k := r.string()
			d[k] = r.value(depth + 1)
		}
		return d
	case tagRef:
		k := r.uvarint()
		if k >= uint64(len(r.containers)) {
			r.fail("reference")
			return py.None
		}
		return r.containers[k]
	case tagVariable:
		k := r.uvarint()
		if k >= uint64(len(r.vars)) {
			r.fail("variable")
			return py.None
		}
		return r.vars[k]
	case tagBody, tagCable, tagWinch:
		name := r.string()
		var obj py.Object
		var ok bool
		switch tag {
		case tagBody:
			obj, ok = r.sim.bodies[name]
		case tagCable:
			obj, ok = r.sim.cables[name]
		default:
			obj, ok = r.sim.winches[name]
		}
		if !ok {
			r.fail("API object " + name)
			return py.None
		}
		return obj
	case tagSim:
		return r.sim
	}
	r.fail(fmt.Sprintf("tag %d", tag))
	return py.None
}
