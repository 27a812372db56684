package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-python/gpython/ast"
	"github.com/go-python/gpython/compile"
	"github.com/go-python/gpython/parser"
	"github.com/go-python/gpython/py"
)

// Diagnostic is a problem found in a plugin file, at a line of it and,
// where the checks know it, a column (from 1, in characters; 0 if
// unknown).
type Diagnostic struct {
	File   string
	Line   int
	Msg    string
	Column int
}

func (d Diagnostic) String() string {
	if d.Column > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", d.File, d.Line, d.Column, d.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", d.File, d.Line, d.Msg)
}

// CheckError lists the problems of plugin files, one "file:line: message"
// (or "file:line:column: message") per line.
type CheckError []Diagnostic

func (e CheckError) Error() string {
	lines := make([]string, len(e))
	for i, d := range e {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// allowedModules are the modules a plugin may import: plugins compute,
// they do not reach the file system, the clock or the network.
var allowedModules = []string{"math"}

// Source is a checked plugin file, instrumented for the operations budget.
type Source struct {
	file string
	code *py.Code
	// lines maps a line of the instrumented text to the file's line
	// (index 0 unused), for tracebacks.
	lines []int
	// decls and defs give the line of each declaration call
	// (parameter("name", ...)) and of each function definition.
	decls, defs map[string]int
}

// DeclLine is the line of the declaration call of name (1 if none).
func (src *Source) DeclLine(name string) int { return max(src.decls[name], 1) }

// DefLine is the line of the definition of function name (1 if none).
func (src *Source) DefLine(name string) int { return max(src.defs[name], 1) }

// File is the plugin file's name.
func (src *Source) File() string { return src.file }

// Prepare checks a plugin file and compiles it instrumented (see
// instrumentModule): the operations budget, the recursion depth and the memory
// budget are checked where gpython, which has no interrupt and no limits
// of its own, would not.
func Prepare(file string, text []byte, known *Vocabulary) (*Source, error) {
	src := string(text)
	if !strings.HasSuffix(src, "\n") {
		src += "\n"
	}
	mod, err := parser.Parse(bytes.NewBufferString(src), file, py.ExecMode)
	if err != nil {
		return nil, CheckError{syntaxDiagnostic(file, src, err, true)}
	}
	if _, err := compile.Compile(src, file, py.ExecMode, 0, true); err != nil {
		return nil, CheckError{syntaxDiagnostic(file, src, err, false)}
	}
	v := &visitor{file: file, known: known, defined: map[string]bool{}, decls: map[string]int{}, defs: map[string]int{}, modules: map[string]bool{}}
	ast.Walk(mod, v.visit)
	if diags := v.check(); len(diags) > 0 {
		return nil, diags
	}
	text2, lineMap, err := instrumentModule(mod.(*ast.Module))
	var code *py.Code
	if err == nil {
		code, err = compile.Compile(text2, file, py.ExecMode, 0, true)
	}
	if err != nil {
		// The instrumentation keeps the syntax valid; if it did not, say
		// so rather than blame the user's file.
		return nil, fmt.Errorf("%s: instrumenting for the plugin limits: %v", file, err)
	}
	return &Source{file: file, code: code, lines: lineMap, decls: v.decls, defs: v.defs}, nil
}

// syntaxDiagnostic turns a gpython SyntaxError in src into file:line
// form, file:line:column where the error has a column: the parser's
// offset is the byte just after the token it stopped at, the compiler's
// the 0-based byte offset at which the refused statement starts.
func syntaxDiagnostic(file, src string, err error, parsing bool) Diagnostic {
	d := Diagnostic{File: file, Line: 1, Msg: err.Error()}
	var exc *py.Exception
	if errors.As(err, &exc) {
		if n, ok := exc.Dict["lineno"].(py.Int); ok && n > 0 {
			d.Line = int(n)
		}
		if len(exc.Args.(py.Tuple)) > 0 {
			d.Msg = fmt.Sprintf("%s: %v", exc.Base.Name, exc.Args.(py.Tuple)[0])
		}
		if off, ok := exc.Dict["offset"].(py.Int); ok {
			d.Column = column(src, d.Line, int(off), parsing)
		}
	}
	return d
}

// column is the column (from 1, in characters) of a SyntaxError's
// offset in line lineno of src (see syntaxDiagnostic), 0 if the offset
// lies outside the line or, from the parser, is 0 (an error at the
// file's end).
func column(src string, lineno, off int, parsing bool) int {
	lines := strings.SplitAfter(src, "\n")
	if lineno > len(lines) {
		return 0
	}
	line := lines[lineno-1]
	if off < 0 || off > len(strings.TrimRight(line, "\r\n")) || parsing && off == 0 {
		return 0
	}
	if parsing {
		// The token the parser stopped at ends at off: a name, a keyword
		// or a number starts where its letters and digits do; another
		// token is taken at its last character.
		start := off
		for start > 0 {
			r, n := utf8.DecodeLastRuneInString(line[:start])
			if r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				break
			}
			start -= n
		}
		if start < off {
			off = start
		} else {
			_, n := utf8.DecodeLastRuneInString(line[:off])
			off -= n
		}
	}
	if off >= len(strings.TrimRight(line, "\r\n")) {
		return 0
	}
	return 1 + utf8.RuneCountInString(line[:off])
}

type use struct {
	name string
	line int
}

// visitor collects what the checks and the instrumentation need from the
// syntax tree.
type visitor struct {
	file    string
	known   *Vocabulary
	defined map[string]bool // names bound anywhere in the file
	loads   []use           // names read
	attrs   []use           // attribute names used
	diags   CheckError
	decls   map[string]int
	defs    map[string]int
	modules map[string]bool // names imports bind to modules
	stores  []use           // names whose attributes are set
	// sliceStores are the slice stores the instrumentation sizes: the
	// whole target of an assignment or augmented assignment.
	sliceStores map[*ast.Subscript]bool
}

func (v *visitor) errorf(line int, format string, args ...any) {
	v.diags = append(v.diags, Diagnostic{File: v.file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

// protectedNames are the builtins and the module whose meaning the
// instrumentation relies on (it trusts float() and math.f() to give
// floats, and routes str, int, set, … through their checks): a plugin
// may not bind them.
var protectedNames = map[string]bool{"str": true, "bytes": true, "int": true, "float": true, "math": true,
	"set": true, "frozenset": true, "repr": true, "ascii": true, "format": true, "sorted": true, "min": true,
	"max": true, "hash": true, "pow": true, "sum": true, "round": true, "map": true, "filter": true, "zip": true,
	"enumerate": true, "range": true, "print": true, "isinstance": true, "issubclass": true}

// bind records a name the plugin binds, refusing the protected ones.
func (v *visitor) bind(name string, line int) {
	if protectedNames[name] {
		v.errorf(line, "%s is a built-in the plugin runtime's checks rely on: choose another name", name)
	}
	v.defined[name] = true
}

func (v *visitor) visit(n ast.Ast) bool {
	switch n := n.(type) {
	case *ast.Assign:
		for _, t := range n.Targets {
			if sub, ok := t.(*ast.Subscript); ok {
				v.allowSliceStore(sub)
			}
		}
	case *ast.AugAssign:
		if sub, ok := n.Target.(*ast.Subscript); ok {
			v.allowSliceStore(sub)
		}
	case *ast.Subscript:
		if _, ok := n.Slice.(*ast.Slice); ok && n.Ctx == ast.Store && !v.sliceStores[n] {
			v.errorf(n.Lineno, "a slice store inside a tuple, for or with target is not checked against the memory budget: assign the slice in a statement of its own (x[a:b] = value)")
		}
	case *ast.Name:
		if n.Ctx == ast.Load {
			v.loads = append(v.loads, use{string(n.Id), n.Lineno})
		} else {
			v.bind(string(n.Id), n.Lineno)
		}
	case *ast.Attribute:
		if strings.HasPrefix(string(n.Attr), "__") {
			v.errorf(n.Lineno, "attribute %s: plugins do not reach into objects' internals", n.Attr)
			break
		}
		v.attrs = append(v.attrs, use{string(n.Attr), n.Lineno})
		if n.Ctx != ast.Load {
			v.defined[string(n.Attr)] = true
			if name, ok := n.Value.(*ast.Name); ok {
				v.stores = append(v.stores, use{string(name.Id), n.Lineno})
			}
			if sharedType(n.Value) {
				v.errorf(n.Lineno, "setting %s on a built-in or API type would change it for every FMU instance", n.Attr)
			}
		}
	case *ast.Arg:
		v.bind(string(n.Arg), n.Lineno)
	case *ast.ExceptHandler:
		if n.Name != "" {
			v.bind(string(n.Name), n.Lineno)
		}
	case *ast.Global:
		for _, id := range n.Names {
			v.bind(string(id), n.Lineno)
		}
	case *ast.ClassDef:
		v.bind(string(n.Name), n.Lineno)
	case *ast.Lambda:
		v.errorf(n.Lineno, "lambda is not available in plugins: use def (the runtime checks the operations budget and the recursion depth at the start of every def)")
	case *ast.Import:
		for _, a := range n.Names {
			v.importModule(n.Lineno, string(a.Name))
			name := string(a.AsName)
			if name == "" {
				name = strings.Split(string(a.Name), ".")[0]
			}
			v.modules[name] = true
			if name == "math" && a.Name == "math" {
				v.defined[name] = true // import math binds math to math
			} else {
				v.bind(name, n.Lineno)
			}
		}
	case *ast.ImportFrom:
		v.importModule(n.Lineno, string(n.Module))
		for _, a := range n.Names {
			if a.Name == "*" {
				v.errorf(n.Lineno, "from %s import *: name what you import", n.Module)
				continue
			}
			name := string(a.AsName)
			if name == "" {
				name = string(a.Name)
			}
			v.bind(name, n.Lineno)
			v.attrs = append(v.attrs, use{string(a.Name), n.Lineno})
		}
	case *ast.Call:
		if f, ok := n.Func.(*ast.Name); ok && (f.Id == "parameter" || f.Id == "input" || f.Id == "output") && len(n.Args) > 0 {
			if s, ok := n.Args[0].(*ast.Str); ok {
				v.decls[string(s.S)] = n.Lineno
			}
		}
	case *ast.FunctionDef:
		v.bind(string(n.Name), n.Lineno)
		if _, ok := v.defs[string(n.Name)]; !ok {
			v.defs[string(n.Name)] = n.Lineno
		}
	}
	return true
}

// sharedType reports an expression naming a type every instance shares:
// type(x), or a built-in type or module by name.
func sharedType(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Call:
		f, ok := x.Func.(*ast.Name)
		return ok && f.Id == "type"
	case *ast.Name:
		switch x.Id {
		case "float", "int", "str", "list", "dict", "tuple", "bool", "object", "type", "range", "math", "set", "bytes", "Exception", "BaseException":
			return true
		}
	}
	return false
}

func (v *visitor) importModule(line int, name string) {
	for _, m := range allowedModules {
		if name == m {
			return
		}
	}
	v.errorf(line, "import %s: plugins may import only %s", name, strings.Join(allowedModules, ", "))
}

// check reports names and attributes the plugin API, the builtins and the
// file itself do not define: most often a misspelling.
func (v *visitor) check() CheckError {
	for name := range v.defined {
		if strings.HasPrefix(name, reservedPrefix) || name == tickName || name == "RecursionError" {
			v.errorf(1, "the name %s is reserved for the plugin runtime's checks", name)
		}
	}
	for _, u := range v.stores {
		if v.modules[u.name] {
			v.errorf(u.line, "setting an attribute of the module %s would change it for every FMU instance", u.name)
		}
	}
	for _, u := range v.loads {
		if !v.defined[u.name] && !v.known.names[u.name] {
			v.errorf(u.line, "unknown name %q", u.name)
		}
	}
	for _, u := range v.attrs {
		if !v.defined[u.name] && !v.known.attrs[u.name] {
			v.errorf(u.line, "unknown attribute %q: neither the plugin API (%s) nor the built-in types and modules of the plugins' Python have it", u.name, strings.Join(v.known.api, ", "))
		}
	}
	sort.SliceStable(v.diags, func(i, j int) bool { return v.diags[i].Line < v.diags[j].Line })
	return v.diags
}

func (v *visitor) allowSliceStore(sub *ast.Subscript) {
	if v.sliceStores == nil {
		v.sliceStores = map[*ast.Subscript]bool{}
	}
	v.sliceStores[sub] = true
}
