package pyplugin

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/go-python/gpython/ast"
	"github.com/go-python/gpython/compile"
	"github.com/go-python/gpython/parser"
	"github.com/go-python/gpython/py"
)

// Diagnostic is a problem found in a plugin file, at a line of it.
type Diagnostic struct {
	File string
	Line int
	Msg  string
}

func (d Diagnostic) String() string { return fmt.Sprintf("%s:%d: %s", d.File, d.Line, d.Msg) }

// CheckError lists the problems of plugin files, one "file:line: message"
// per line.
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

// source is a checked plugin file, instrumented for the time budget.
type source struct {
	file string
	code *py.Code
	// lines maps a line of the instrumented text to the file's line
	// (index 0 unused), for tracebacks.
	lines []int
	// decls and defs give the line of each declaration call
	// (parameter("name", ...)) and of each function definition.
	decls, defs map[string]int
}

func declLine(src *source, name string) int { return max(src.decls[name], 1) }
func defLine(src *source, name string) int  { return max(src.defs[name], 1) }

// insertion is text added to the file: before line (a new line indented
// like it) or, when col ≥ 0, at that byte column of the line.
type insertion struct {
	line, col int
	text      string
}

// prepare checks a plugin file and compiles it instrumented: every loop
// iteration and every function call starts with __tick__(), where the
// interpreter checks the time budget and the recursion depth (gpython has
// no interrupt of its own).
func prepare(file string, text []byte, known *vocabulary) (*source, error) {
	src := string(text)
	if !strings.HasSuffix(src, "\n") {
		src += "\n"
	}
	mod, err := parser.Parse(bytes.NewBufferString(src), file, py.ExecMode)
	if err != nil {
		return nil, CheckError{syntaxDiagnostic(file, err)}
	}
	if _, err := compile.Compile(src, file, py.ExecMode, 0, true); err != nil {
		return nil, CheckError{syntaxDiagnostic(file, err)}
	}
	lines := strings.SplitAfter(src, "\n")
	v := &visitor{file: file, known: known, defined: map[string]bool{}, lines: lines, decls: map[string]int{}, defs: map[string]int{}}
	ast.Walk(mod, v.visit)
	if diags := v.check(); len(diags) > 0 {
		return nil, diags
	}
	text2, lineMap := instrument(lines, v.inserts)
	code, err := compile.Compile(text2, file, py.ExecMode, 0, true)
	if err != nil {
		// The instrumentation keeps the syntax valid; if it did not, say
		// so rather than blame the user's file.
		return nil, fmt.Errorf("%s: instrumenting for the time budget: %v", file, err)
	}
	return &source{file: file, code: code, lines: lineMap, decls: v.decls, defs: v.defs}, nil
}

// syntaxDiagnostic turns a gpython SyntaxError into file:line form.
func syntaxDiagnostic(file string, err error) Diagnostic {
	d := Diagnostic{File: file, Line: 1, Msg: err.Error()}
	var exc *py.Exception
	if errors.As(err, &exc) {
		if n, ok := exc.Dict["lineno"].(py.Int); ok && n > 0 {
			d.Line = int(n)
		}
		if len(exc.Args.(py.Tuple)) > 0 {
			d.Msg = fmt.Sprintf("%s: %v", exc.Base.Name, exc.Args.(py.Tuple)[0])
		}
	}
	return d
}

type use struct {
	name string
	line int
}

// visitor collects what the checks and the instrumentation need from the
// syntax tree.
type visitor struct {
	file    string
	known   *vocabulary
	lines   []string
	defined map[string]bool // names bound anywhere in the file
	loads   []use           // names read
	attrs   []use           // attribute names used
	diags   CheckError
	inserts []insertion
	decls   map[string]int
	defs    map[string]int
}

func (v *visitor) errorf(line int, format string, args ...any) {
	v.diags = append(v.diags, Diagnostic{v.file, line, fmt.Sprintf(format, args...)})
}

func (v *visitor) visit(n ast.Ast) bool {
	switch n := n.(type) {
	case *ast.Name:
		if n.Ctx == ast.Load {
			v.loads = append(v.loads, use{string(n.Id), n.Lineno})
		} else {
			v.defined[string(n.Id)] = true
		}
	case *ast.Attribute:
		if strings.HasPrefix(string(n.Attr), "__") {
			v.errorf(n.Lineno, "attribute %s: plugins do not reach into objects' internals", n.Attr)
			break
		}
		v.attrs = append(v.attrs, use{string(n.Attr), n.Lineno})
		if n.Ctx != ast.Load {
			v.defined[string(n.Attr)] = true
			if sharedType(n.Value) {
				v.errorf(n.Lineno, "setting %s on a built-in or API type would change it for every FMU instance", n.Attr)
			}
		}
	case *ast.Arg:
		v.defined[string(n.Arg)] = true
	case *ast.ExceptHandler:
		v.defined[string(n.Name)] = true
	case *ast.Global:
		for _, id := range n.Names {
			v.defined[string(id)] = true
		}
	case *ast.ClassDef:
		v.defined[string(n.Name)] = true
	case *ast.Lambda:
		v.errorf(n.Lineno, "lambda is not available in plugins: use def (the runtime checks the time budget and the recursion depth at the start of every def)")
	case *ast.Import:
		for _, a := range n.Names {
			v.importModule(n.Lineno, string(a.Name))
			name := string(a.AsName)
			if name == "" {
				name = strings.Split(string(a.Name), ".")[0]
			}
			v.defined[name] = true
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
			v.defined[name] = true
			v.attrs = append(v.attrs, use{string(a.Name), n.Lineno})
		}
	case *ast.Call:
		if f, ok := n.Func.(*ast.Name); ok && (f.Id == "parameter" || f.Id == "input" || f.Id == "output") && len(n.Args) > 0 {
			if s, ok := n.Args[0].(*ast.Str); ok {
				v.decls[string(s.S)] = n.Lineno
			}
		}
	case *ast.FunctionDef:
		v.defined[string(n.Name)] = true
		if _, ok := v.defs[string(n.Name)]; !ok {
			v.defs[string(n.Name)] = n.Lineno
		}
		v.tick(n.Body)
	case *ast.While:
		v.tick(n.Body)
	case *ast.For:
		v.tick(n.Body)
	}
	return true
}

// stmtStart returns where a statement's text begins: a decorated
// definition begins at its first decorator's "@".
func stmtStart(st ast.Stmt) (line, col int) {
	line, col = st.GetLineno(), st.GetColOffset()
	var decorators []ast.Expr
	switch d := st.(type) {
	case *ast.FunctionDef:
		decorators = d.DecoratorList
	case *ast.ClassDef:
		decorators = d.DecoratorList
	}
	for _, e := range decorators {
		if l := e.GetLineno(); l < line || (l == line && e.GetColOffset()-1 < col) {
			line, col = l, max(e.GetColOffset()-1, 0)
		}
	}
	return line, col
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

// tick makes a body start with __tick__(). When the body's first
// statement begins its line (after indentation, not continuing the line
// before with a backslash), the call goes on a line of its own before it;
// otherwise the statement follows the header's colon on the same logical
// line, where only simple statements can be, and the call goes right
// before it: "while x: __tick__(); f()".
func (v *visitor) tick(body []ast.Stmt) {
	line, col := stmtStart(body[0])
	text := v.lines[line-1]
	ownLine := strings.TrimSpace(text[:min(col, len(text))]) == ""
	if ownLine && line > 1 && strings.HasSuffix(strings.TrimRight(v.lines[line-2], " \t\r\n"), "\\") {
		ownLine = false
	}
	if ownLine {
		v.inserts = append(v.inserts, insertion{line: line, col: -1, text: "__tick__()"})
		return
	}
	v.inserts = append(v.inserts, insertion{line: line, col: col, text: "__tick__(); "})
}

// check reports names and attributes the plugin API, the builtins and the
// file itself do not define: most often a misspelling.
func (v *visitor) check() CheckError {
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

// instrument applies the insertions and returns the new text with the
// original line of each of its lines.
func instrument(lines []string, ins []insertion) (string, []int) {
	sort.SliceStable(ins, func(i, j int) bool {
		a, b := ins[i], ins[j]
		if a.line != b.line {
			return a.line < b.line
		}
		if (a.col < 0) != (b.col < 0) {
			return a.col < 0 // new lines before same-line text
		}
		return a.col > b.col // right to left keeps columns valid
	})
	var out strings.Builder
	lineMap := []int{0}
	k := 0
	for i, text := range lines {
		line := i + 1
		indent := text[:len(text)-len(strings.TrimLeft(text, " \t"))]
		for ; k < len(ins) && ins[k].line == line && ins[k].col < 0; k++ {
			out.WriteString(indent + ins[k].text + "\n")
			lineMap = append(lineMap, line)
		}
		for ; k < len(ins) && ins[k].line == line; k++ {
			c := min(ins[k].col, len(text)) // gpython's columns count bytes
			text = text[:c] + ins[k].text + text[c:]
		}
		out.WriteString(text)
		lineMap = append(lineMap, line)
	}
	return out.String(), lineMap
}
