package sandbox

import (
	"fmt"
	"sort"
	"strings"

	"github.com/go-python/gpython/py"
)

// Vocabulary is what the static check accepts: global names (builtins and
// the API's functions) and attribute names (the API's and those of
// Python's built-in types and of the modules plugins may import).
type Vocabulary struct {
	names, attrs map[string]bool
	api          []string // the API's attribute names, for messages
}

// NewVocabulary returns the vocabulary of plugins whose API is the
// functions api and the types apiTypes (their attributes).
func NewVocabulary(api map[string]py.Object, apiTypes []*py.Type) *Vocabulary {
	v := &Vocabulary{names: map[string]bool{"__name__": true, "__doc__": true}, attrs: map[string]bool{}}
	it, err := New(&Source{file: "<vocabulary>"}, Limits{}, api)
	if err != nil {
		panic(err) // the interpreter's own modules: a broken build
	}
	for name := range it.ctx.Store().Builtins.Globals {
		if !strings.HasPrefix(name, "__") || name == "__build_class__" {
			v.names[name] = true
		}
	}
	attrs := map[string]bool{}
	for _, t := range apiTypes {
		for name := range t.Dict {
			attrs[name] = true
			v.attrs[name] = true
		}
	}
	for name := range attrs {
		v.api = append(v.api, name)
	}
	sort.Strings(v.api)
	for _, t := range []*py.Type{py.StringType, py.ListType, py.StringDictType, py.TupleType, py.FloatType, py.IntType, py.ObjectType, py.BaseException} {
		for name := range t.Dict {
			v.attrs[name] = true
		}
	}
	for _, m := range allowedModules {
		impl := py.GetModuleImpl(m)
		if impl == nil {
			continue
		}
		for _, meth := range impl.Methods {
			v.attrs[meth.Name] = true
		}
		for name := range impl.Globals {
			v.attrs[name] = true
		}
	}
	return v
}

// Run executes the module's top level (its declarations) with the call's
// limits.
func (it *Interp) Run() error { return it.run() }

// Call calls a plugin function with the call's limits; name names it in
// messages.
func (it *Interp) Call(name string, fn py.Object, args ...py.Object) (py.Object, error) {
	return it.call(name, fn, args...)
}

// Kept measures what the plugin keeps between calls when the counted work
// since the last measurement makes it due (see kept).
func (it *Interp) Kept() error { return it.kept() }

// TakePrinted returns what the plugin printed since the last call of
// TakePrinted, a line per print.
func (it *Interp) TakePrinted() []string {
	out := append([]string(nil), it.printed...)
	it.printed = it.printed[:0]
	return out
}

// Global returns the module global name, after Run.
func (it *Interp) Global(name string) (py.Object, bool) {
	o, ok := it.module.Globals[name]
	return o, ok
}

// LastLine is the plugin's line where err, returned by Run or Call, was
// raised (1 if unknown).
func (it *Interp) LastLine(err error) int { return it.lastLine(err) }

// Hook returns the plugin's function name, if it defines one, checked to
// take one argument (the simulation).
func (it *Interp) Hook(name string) (py.Object, error) {
	obj, ok := it.module.Globals[name]
	if !ok {
		return nil, nil
	}
	if n := argCount(obj); n != 1 {
		return nil, fmt.Errorf("%s must be a function of one argument (the simulation), not %s", name, describe(obj, n))
	}
	return obj, nil
}

func describe(obj py.Object, n int) string {
	if n < 0 {
		return "a " + obj.Type().Name
	}
	return fmt.Sprintf("a function of %d", n)
}

// megabytesToBytes converts a memory budget (MB) to bytes.
func megabytesToBytes(mb float64) int64 { return int64(mb * 1e6) }
