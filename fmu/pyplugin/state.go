package pyplugin

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"sort"

	"github.com/go-python/gpython/py"
)

// The plugins' own state is their module globals holding data: numbers,
// strings, booleans, None, and lists, tuples and dicts of them. It is
// encoded with a tag byte per value; floats keep their bits, so a restored
// plugin continues bitwise identically.
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
)

// maxNesting bounds nested containers (and catches a list holding itself).
const maxNesting = 64

// SaveExtra implements fmu.ExtraState.
func (s *simulation) SaveExtra(dst []byte) ([]byte, error) {
	for _, p := range s.plugins {
		names := stateGlobals(p.it.module.Globals)
		dst = binary.AppendUvarint(dst, uint64(len(names)))
		for _, name := range names {
			dst = appendString(dst, name)
			var err error
			if dst, err = appendValue(dst, p.it.module.Globals[name], 0); err != nil {
				return nil, fmt.Errorf("plugin %s: global %s: %w", p.spec.ref.Name, name, err)
			}
		}
	}
	return dst, nil
}

// LoadExtra implements fmu.ExtraState: the data globals become those of
// the saved state (globals created since are removed).
func (s *simulation) LoadExtra(src []byte) error {
	r := &reader{b: src}
	for _, p := range s.plugins {
		n := r.uvarint()
		saved := py.StringDict{}
		for i := uint64(0); i < n && r.err == nil; i++ {
			name := r.string()
			saved[name] = r.value(0)
		}
		if r.err != nil {
			return fmt.Errorf("plugin %s: state: %w", p.spec.ref.Name, r.err)
		}
		g := p.it.module.Globals
		for _, name := range stateGlobals(g) {
			delete(g, name)
		}
		for name, v := range saved {
			g[name] = v
		}
	}
	if len(r.b) != 0 {
		return fmt.Errorf("plugin state: %d bytes too many", len(r.b))
	}
	return nil
}

// stateGlobals lists, sorted, the globals that hold data (not modules,
// functions, classes or API objects, which the plugin's code recreates).
func stateGlobals(g py.StringDict) []string {
	var names []string
	for name, v := range g {
		if len(name) > 1 && name[:2] == "__" {
			continue
		}
		switch x := v.(type) {
		case py.NoneType, py.Bool, py.Int, *py.BigInt, py.Float, py.String, *py.List, py.Tuple, py.StringDict:
			names = append(names, name)
		case *py.Type:
			// gpython represents classes and their instances alike: a
			// class (whose type is type) is code, an instance is data
			// the state cannot hold, so saving reports it.
			if x.Type() != py.TypeType {
				names = append(names, name)
			}
		case *py.Module, *py.Function, *py.Method, *variable:
		default:
			// Anything else cannot be saved: keep it in the list so that
			// saving reports it.
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

func appendString(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

func appendValue(dst []byte, v py.Object, depth int) ([]byte, error) {
	if depth > maxNesting {
		return nil, fmt.Errorf("nested more than %d deep (does a list contain itself?)", maxNesting)
	}
	var err error
	switch x := v.(type) {
	case py.NoneType:
		dst = append(dst, tagNone)
	case py.Bool:
		if x {
			dst = append(dst, tagTrue)
		} else {
			dst = append(dst, tagFalse)
		}
	case py.Int:
		dst = binary.AppendVarint(append(dst, tagInt), int64(x))
	case *py.BigInt:
		dst = appendString(append(dst, tagBigInt), (*big.Int)(x).String())
	case py.Float:
		dst = binary.LittleEndian.AppendUint64(append(dst, tagFloat), math.Float64bits(float64(x)))
	case py.String:
		dst = appendString(append(dst, tagString), string(x))
	case *py.List:
		dst = binary.AppendUvarint(append(dst, tagList), uint64(len(x.Items)))
		for _, it := range x.Items {
			if dst, err = appendValue(dst, it, depth+1); err != nil {
				return nil, err
			}
		}
	case py.Tuple:
		dst = binary.AppendUvarint(append(dst, tagTuple), uint64(len(x)))
		for _, it := range x {
			if dst, err = appendValue(dst, it, depth+1); err != nil {
				return nil, err
			}
		}
	case py.StringDict:
		ks := make([]string, 0, len(x))
		for k := range x {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		dst = binary.AppendUvarint(append(dst, tagDict), uint64(len(ks)))
		for _, k := range ks {
			dst = appendString(dst, k)
			if dst, err = appendValue(dst, x[k], depth+1); err != nil {
				return nil, err
			}
		}
	default:
		return nil, fmt.Errorf("holds a %s: FMU states keep numbers, strings, booleans, None, and lists, tuples and dicts of them", v.Type().Name)
	}
	return dst, nil
}

// reader decodes appendValue's format, remembering the first error.
type reader struct {
	b   []byte
	err error
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
		for i := range items {
			items[i] = r.value(depth + 1)
		}
		if tag == tagTuple {
			return py.Tuple(items)
		}
		return py.NewListFromItems(items)
	case tagDict:
		n := r.uvarint()
		if n > uint64(len(r.b)) {
			r.fail("dict")
			return py.None
		}
		d := py.NewStringDictSized(int(n))
		for i := uint64(0); i < n; i++ {
			k := r.string()
			d[k] = r.value(depth + 1)
		}
		return d
	}
	r.fail(fmt.Sprintf("tag %d", tag))
	return py.None
}
