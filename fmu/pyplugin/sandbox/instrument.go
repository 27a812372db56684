package sandbox

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-python/gpython/ast"
	"github.com/go-python/gpython/py"
)

// The instrumentation rewrites a checked plugin's syntax tree into Python
// text that gpython compiles: the same program, with the checks gpython
// lacks put where they must run (see the guard builtins in limits.go):
//
//   - every function body, loop body and comprehension iteration starts
//     with a tick: the operations budget and the recursion depth;
//   - the operations that can build a huge value in one go — sequence
//     repetition and concatenation, integer powers and shifts, string
//     formatting, and their augmented assignments — go through
//     __binop__, which sizes the result against the memory budget before
//     it is built;
//   - operands of comparisons and arguments of repr-like builtins go
//     through __deep__, which refuses cyclic or too deeply nested
//     containers (gpython recurses over them on the Go stack, whose
//     overflow no recover catches);
//   - the object of a subscript goes through __keyed__, which shows a
//     dict through a view that refuses keys other than strings, and
//     the keys of dict displays through __strkey__ (gpython prints a key
//     its dicts cannot take into the KeyError with Go's fmt,
//     recursively);
//   - calls of the few methods that can multiply a value's size
//     (str.replace, list.extend, list.sort) go through __method__;
//   - what every for loop and comprehension iterates over goes through
//     __iter__, whose every next ticks before it resumes the iterator
//     (generators that wrap generators a million deep resume each other
//     on the Go stack before any body's tick runs) and keeps the error of
//     the iterator: gpython's loops take any error as their end. Right
//     after the loop the error is raised again: in the else branch of a
//     for statement, at the next iteration of a comprehension's outer
//     clause (__tock__), around a comprehension's value (__reraise__), and
//     at the end of a generator expression's values (__lazy__). What
//     yield from iterates over ticks too (__feed__), its errors raised as
//     they come.
//
// Every expression is printed fully parenthesized, so that precedence
// never depends on the printer; every statement starts a line of its own,
// and lines maps each printed line to the file's line of its statement.

// Names of the guard builtins the instrumented text calls.
// A plugin may not bind them (visitor.check).
const (
	reservedPrefix = "__plugin_"
	tickName       = "__tick__"           // __tick__(): None
	tockName       = "__plugin_tock__"    // __plugin_tock__(): True, a tick inside a comprehension's conditions
	binopName      = "__plugin_binop__"   // __plugin_binop__(op, a, b): a op b, sized first
	deepName       = "__plugin_deep__"    // __plugin_deep__(x): x, once its nesting is checked
	cmpName        = "__plugin_cmp__"     // __plugin_cmp__(x): x, checked as __deep__ does for a comparison (sets count n²)
	methodName     = "__plugin_method__"  // __plugin_method__(obj, name, *args, **kwargs): obj.name(...), sized first
	strCallName    = "__plugin_str__"     // str(...) with its argument checked
	bytesCallName  = "__plugin_bytes__"   // bytes(...) with its size checked
	intCallName    = "__plugin_int__"     // int(...) with a string's length checked
	boundName      = "__plugin_bound__"   // __plugin_bound__(obj, name): a guarded method as a value
	sizedName      = "__plugin_sized__"   // __plugin_sized__(target, value): value, sized for a slice store
	deepSeqName    = "__plugin_deepseq__" // __plugin_deepseq__(x): x, checked if a list or tuple (the right of in)
	iterName       = "__plugin_iter__"    // __plugin_iter__(x): an iterator over x whose every next ticks and keeps its error
	reraiseName    = "__plugin_reraise__" // __plugin_reraise__([v]): v, or the error a loop took as its end
	lazyName       = "__plugin_lazy__"    // __plugin_lazy__(g): generator expression g, ending with the error its loop took as its end
	feedName       = "__plugin_feed__"    // __plugin_feed__(x): an iterator over x whose every next ticks (yield from)
	keyedName      = "__plugin_keyed__"   // __plugin_keyed__(obj): obj, a dict seen through a key check (the object of a subscript)
	countedName    = "__plugin_counted__" // __plugin_counted__(x): x, once the items a Go loop over it will copy or test are counted as operations
	strKeyName     = "__plugin_strkey__"  // __plugin_strkey__(k): k, once it is a string (a key of a dict display)
	unpackName     = "__plugin_unpack__"  // __plugin_unpack__(v): v for a pattern with a starred item, a str iterated in one pass
	starName       = "__plugin_star__"    // __plugin_star__(x): x spread into a call's arguments, a str's length checked
	tempPrefix     = "__plugin_t"         // temporaries of augmented assignments and starred patterns
)

// guardedOps are the binary operators whose result can be far larger than
// their operands, or whose work on large integers grows as the product of
// their sizes (charged by intWork), with the text __binop__ receives.
var guardedOps = map[ast.OperatorNumber]string{
	ast.Add:      "+",
	ast.Mult:     "*",
	ast.Pow:      "**",
	ast.LShift:   "<<",
	ast.Modulo:   "%",
	ast.FloorDiv: "//",
}

// guardedMethods are the methods of built-in types whose result or effect
// can grow a value far beyond its operands (replace), double it (extend),
// multiply the objects it holds (split) or recurse over containers (sort
// compares, a set's add hashes).
var guardedMethods = map[string]bool{"replace": true, "extend": true, "sort": true, "add": true, "split": true,
	"keys": true, "values": true, "items": true, "join": true, "find": true, "rfind": true, "index": true, "rindex": true, "count": true,
	"strip": true, "lstrip": true, "rstrip": true, "startswith": true, "endswith": true}

// printer writes instrumented Python text.
type printer struct {
	b     strings.Builder
	lines []int // printed line → file line; index 0 unused
	temps int
	err   error
}

// instrumentModule prints mod instrumented, with the file line of every
// printed line.
func instrumentModule(mod *ast.Module) (string, []int, error) {
	p := &printer{lines: []int{0}}
	p.stmts(mod.Body, 0, nil)
	return p.b.String(), p.lines, p.err
}

func (p *printer) line(indent, fileLine int, text string) {
	p.b.WriteString(strings.Repeat("    ", indent))
	p.b.WriteString(text)
	p.b.WriteByte('\n')
	p.lines = append(p.lines, fileLine)
}

// stmts prints a block; a non-nil tick is printed first (at the line of
// the block's first statement).
func (p *printer) stmts(body []ast.Stmt, indent int, tick *string) {
	if tick != nil && len(body) > 0 {
		p.line(indent, body[0].GetLineno(), *tick)
	}
	for _, s := range body {
		p.stmt(s, indent)
	}
}

var tickCall = tickName + "()"

func (p *printer) stmt(s ast.Stmt, ind int) {
	ln := s.GetLineno()
	switch s := s.(type) {
	case *ast.FunctionDef:
		for _, d := range s.DecoratorList {
			p.line(ind, d.GetLineno(), "@"+p.expr(d))
		}
		head := "def " + string(s.Name) + "(" + p.arguments(s.Args, true) + ")"
		if s.Returns != nil {
			head += " -> " + p.expr(s.Returns)
		}
		p.line(ind, ln, head+":")
		p.stmts(s.Body, ind+1, &tickCall)
	case *ast.ClassDef:
		for _, d := range s.DecoratorList {
			p.line(ind, d.GetLineno(), "@"+p.expr(d))
		}
		args := p.callArgs(s.Bases, s.Keywords, s.Starargs, s.Kwargs)
		p.line(ind, ln, "class "+string(s.Name)+"("+args+"):")
		p.stmts(s.Body, ind+1, nil)
	case *ast.Return:
		if s.Value == nil {
			p.line(ind, ln, "return")
		} else {
			p.line(ind, ln, "return "+p.expr(s.Value))
		}
	case *ast.Delete:
		p.line(ind, ln, "del "+p.exprs(s.Targets))
	case *ast.Assign:
		if slices.ContainsFunc(s.Targets, flattened) || len(s.Targets) > 1 && slices.ContainsFunc(s.Targets, pattern) && !pattern(s.Value) {
			// Each target takes the value from a temporary, the patterns
			// through unpackName.
			tmp := p.temp()
			p.line(ind, ln, tmp+" = "+p.expr(s.Value))
			for _, t := range s.Targets {
				switch {
				case flattened(t):
					p.unpackLines(ind, ln, t, tmp)
				case pattern(t):
					p.line(ind, ln, p.target(t)+" = "+unpackName+"("+tmp+")")
				default:
					p.stmt(&ast.Assign{StmtBase: s.StmtBase, Targets: []ast.Expr{t}, Value: &ast.Name{Id: ast.Identifier(tmp), Ctx: ast.Load}}, ind)
				}
			}
			p.line(ind, ln, "del "+tmp)
			return
		}
		var b strings.Builder
		value := p.expr(s.Value)
		if len(s.Targets) == 1 && pattern(s.Targets[0]) && !pattern(s.Value) {
			// a, b = d unpacks a dict in the order of order.go.
			value = unpackName + "(" + value + ")"
		}
		for _, t := range s.Targets {
			b.WriteString(p.target(t) + " = ")
			if sub, ok := t.(*ast.Subscript); ok {
				if _, ok := sub.Slice.(*ast.Slice); ok {
					// xs[len(xs):] = xs doubles a list: the value is
					// sized against the memory budget first, with the
					// target's size where reading it has no side effects.
					target := "None"
					if _, ok := sub.Value.(*ast.Name); ok {
						target = p.expr(sub.Value)
					}
					value = sizedName + "(" + target + ", " + value + ")"
				}
			}
		}
		p.line(ind, ln, b.String()+value)
	case *ast.AugAssign:
		p.augAssign(s, ind)
	case *ast.For:
		if flattened(s.Target) {
			tmp := p.temp()
			p.line(ind, ln, "for "+tmp+" in "+iterName+"("+p.expr(s.Iter)+"):")
			p.unpackLines(ind+1, ln, s.Target, tmp)
		} else {
			p.line(ind, ln, "for "+p.target(s.Target)+" in "+p.loopIter(s.Target, s.Iter)+":")
		}
		p.stmts(s.Body, ind+1, &tickCall)
		p.line(ind, ln, "else:")
		p.line(ind+1, ln, reraiseName+"()")
		p.stmts(s.Orelse, ind+1, nil)
	case *ast.While:
		p.line(ind, ln, "while "+p.expr(s.Test)+":")
		p.stmts(s.Body, ind+1, &tickCall)
		p.orelse(s.Orelse, ind, ln)
	case *ast.If:
		p.line(ind, ln, "if "+p.expr(s.Test)+":")
		p.stmts(s.Body, ind+1, nil)
		p.orelse(s.Orelse, ind, ln)
	case *ast.With:
		items := make([]string, len(s.Items))
		type later struct {
			target ast.Expr
			tmp    string
		}
		var unpack []later
		for i, it := range s.Items {
			items[i] = p.expr(it.ContextExpr)
			switch {
			case it.OptionalVars != nil && flattened(it.OptionalVars):
				tmp := p.temp()
				items[i] += " as " + tmp
				unpack = append(unpack, later{it.OptionalVars, tmp})
			case it.OptionalVars != nil:
				items[i] += " as " + p.target(it.OptionalVars)
			}
		}
		p.line(ind, ln, "with "+strings.Join(items, ", ")+":")
		for _, u := range unpack {
			p.unpackLines(ind+1, ln, u.target, u.tmp)
		}
		p.stmts(s.Body, ind+1, nil)
	case *ast.Raise:
		text := "raise"
		if s.Exc != nil {
			text += " " + p.expr(s.Exc)
			if s.Cause != nil {
				text += " from " + p.expr(s.Cause)
			}
		}
		p.line(ind, ln, text)
	case *ast.Try:
		p.line(ind, ln, "try:")
		p.stmts(s.Body, ind+1, nil)
		for _, h := range s.Handlers {
			text := "except"
			if h.ExprType != nil {
				text += " " + p.expr(h.ExprType)
				if h.Name != "" {
					text += " as " + string(h.Name)
				}
			}
			p.line(ind, h.Lineno, text+":")
			p.stmts(h.Body, ind+1, nil)
		}
		if len(s.Orelse) > 0 {
			p.line(ind, s.Orelse[0].GetLineno(), "else:")
			p.stmts(s.Orelse, ind+1, nil)
		}
		if len(s.Finalbody) > 0 {
			p.line(ind, s.Finalbody[0].GetLineno(), "finally:")
			p.stmts(s.Finalbody, ind+1, nil)
		}
	case *ast.Assert:
		text := "assert " + p.expr(s.Test)
		if s.Msg != nil {
			text += ", " + p.expr(s.Msg)
		}
		p.line(ind, ln, text)
	case *ast.Import:
		p.line(ind, ln, "import "+aliases(s.Names))
	case *ast.ImportFrom:
		p.line(ind, ln, "from "+strings.Repeat(".", s.Level)+string(s.Module)+" import "+aliases(s.Names))
	case *ast.Global:
		p.line(ind, ln, "global "+identifiers(s.Names))
	case *ast.Nonlocal:
		p.line(ind, ln, "nonlocal "+identifiers(s.Names))
	case *ast.ExprStmt:
		p.line(ind, ln, p.expr(s.Value))
	case *ast.Pass:
		p.line(ind, ln, "pass")
	case *ast.Break:
		p.line(ind, ln, "break")
	case *ast.Continue:
		p.line(ind, ln, "continue")
	default:
		p.fail("statement %T", s)
	}
}

// orelse prints an else block of a loop or an if.
func (p *printer) orelse(body []ast.Stmt, ind, ln int) {
	if len(body) == 0 {
		return
	}
	p.line(ind, body[0].GetLineno(), "else:")
	p.stmts(body, ind+1, nil)
}

// augAssign prints t op= v. A guarded operator becomes t = __binop__("op=",
// t, v), which computes in place where Python does (a list's +=), its
// target's parts evaluated once through temporaries.
func (p *printer) augAssign(s *ast.AugAssign, ind int) {
	ln := s.Lineno
	op, guarded := guardedOps[s.Op]
	if !guarded {
		p.line(ind, ln, p.target(s.Target)+" "+operator(s.Op)+"= "+p.expr(s.Value))
		return
	}
	call := func(current string) string {
		return binopName + "(" + strconv.Quote(op+"=") + ", " + current + ", " + p.expr(s.Value) + ")"
	}
	switch t := s.Target.(type) {
	case *ast.Name:
		p.line(ind, ln, string(t.Id)+" = "+call(string(t.Id)))
	case *ast.Attribute:
		obj := p.temp()
		p.line(ind, ln, obj+" = "+p.expr(t.Value))
		ref := obj + "." + string(t.Attr)
		p.line(ind, ln, ref+" = "+call(ref))
	case *ast.Subscript:
		obj, key := p.temp(), p.temp()
		p.line(ind, ln, obj+" = "+keyedName+"("+p.expr(t.Value)+")")
		p.line(ind, ln, key+" = "+p.sliceValue(t.Slice))
		ref := obj + "[" + key + "]"
		p.line(ind, ln, ref+" = "+call(ref))
	default:
		p.fail("augmented assignment to %T", s.Target)
	}
}

func (p *printer) temp() string {
	p.temps++
	return fmt.Sprintf("%s%d", tempPrefix, p.temps)
}

func (p *printer) fail(format string, args ...any) {
	if p.err == nil {
		p.err = fmt.Errorf("instrumenting: unexpected "+format, args...)
	}
}

func aliases(names []*ast.Alias) string {
	parts := make([]string, len(names))
	for i, a := range names {
		parts[i] = string(a.Name)
		if a.AsName != "" {
			parts[i] += " as " + string(a.AsName)
		}
	}
	return strings.Join(parts, ", ")
}

func identifiers(names []ast.Identifier) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = string(n)
	}
	return strings.Join(parts, ", ")
}

func (p *printer) exprs(es []ast.Expr) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = p.expr(e)
	}
	return strings.Join(parts, ", ")
}

// target prints an assignment target: names, attributes, subscripts,
// starred names and (nested) tuples and lists of them.
func (p *printer) target(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.Tuple:
		return "(" + p.targets(t.Elts) + ")"
	case *ast.List:
		return "[" + p.targets(t.Elts) + "]"
	case *ast.Starred:
		return "*" + p.target(t.Value)
	}
	return p.expr(e)
}

// starred reports whether target e is a tuple or list pattern with a
// starred item at any depth. gpython unpacks a str into such a pattern
// by indexing it, and each index counts the characters from the start:
// quadratic in one Go call, hours for a few megabytes. The value of each
// such pattern passes through unpackName, which iterates a str in one
// pass (see flattened).
func starred(e ast.Expr) bool {
	for _, x := range elements(e) {
		if _, ok := x.(*ast.Starred); ok || starred(x) {
			return true
		}
	}
	return false
}

// elements returns the items of a tuple or list, nil for anything else.
func elements(e ast.Expr) []ast.Expr {
	switch t := e.(type) {
	case *ast.Tuple:
		return t.Elts
	case *ast.List:
		return t.Elts
	}
	return nil
}

// loopIter prints the iterator of a loop over iter into target: a
// pattern target unpacks each item, so the items that are strs, dicts or
// sets come in one pass and in order (unpackName's work, done by the
// iterator).
func (p *printer) loopIter(target, iter ast.Expr) string {
	if pattern(target) {
		return iterName + "(" + p.expr(iter) + ", True)"
	}
	return iterName + "(" + p.expr(iter) + ")"
}

// flattened reports whether target e is unpacked pattern by pattern
// through temporaries (unpackings): a pattern with a starred item, or
// with a nested pattern, whose value gpython's unpacking would take as
// it is (a str indexed from the start for each character, a dict or set
// in a random order).
func flattened(e ast.Expr) bool {
	return starred(e) || slices.ContainsFunc(elements(e), pattern)
}

// pattern reports whether e is a tuple or list (a target pattern, or a
// display as a value).
func pattern(e ast.Expr) bool {
	switch e.(type) {
	case *ast.Tuple, *ast.List:
		return true
	}
	return false
}

// unpacking is one assignment of a flattened starred pattern: target =
// value, through unpackName if unpack.
type unpacking struct {
	target, value string
	unpack        bool
}

func (u unpacking) text() string {
	if u.unpack {
		return unpackName + "(" + u.value + ")"
	}
	return u.value
}

// unpackings flattens starred pattern t, whose value is in the variable
// value: the pattern is unpacked into one temporary per item, then each
// item's target is assigned from its temporary in order, nested patterns
// likewise, so that targets are assigned left to right, depth first, as
// Python assigns them.
func (p *printer) unpackings(t ast.Expr, value string) []unpacking {
	var elts []ast.Expr
	open, end := "(", ")"
	switch t := t.(type) {
	case *ast.Tuple:
		elts = t.Elts
	case *ast.List:
		elts, open, end = t.Elts, "[", "]"
	}
	parts := make([]string, len(elts))
	items := make([]ast.Expr, len(elts))
	for i, e := range elts {
		parts[i] = p.temp()
		items[i] = e
		if st, ok := e.(*ast.Starred); ok {
			items[i] = st.Value
			parts[i] = "*" + parts[i]
		}
	}
	text := strings.Join(parts, ", ")
	if len(elts) == 1 {
		text += ","
	}
	out := []unpacking{{open + text + end, value, true}}
	for i, e := range items {
		tmp := strings.TrimPrefix(parts[i], "*")
		switch {
		case flattened(e):
			out = append(out, p.unpackings(e, tmp)...)
		case pattern(e):
			out = append(out, unpacking{p.target(e), tmp, true})
		default:
			out = append(out, unpacking{p.target(e), tmp, false})
		}
	}
	return out
}

// unpackLines prints the assignments of variable value to starred
// pattern t, and deletes the temporaries (a top-level one would keep the
// whole value).
func (p *printer) unpackLines(ind, ln int, t ast.Expr, value string) {
	us := p.unpackings(t, value)
	var temps []string
	for _, u := range us {
		p.line(ind, ln, u.target+" = "+u.text())
		if u.value != value {
			temps = append(temps, u.value)
		}
	}
	p.line(ind, ln, "del "+strings.Join(temps, ", "))
}

func (p *printer) targets(es []ast.Expr) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = p.target(e)
	}
	s := strings.Join(parts, ", ")
	if len(es) == 1 {
		s += ","
	}
	return s
}

// arguments prints a def's parameter list.
func (p *printer) arguments(a *ast.Arguments, annotations bool) string {
	var parts []string
	arg := func(x *ast.Arg) string {
		s := string(x.Arg)
		if annotations && x.Annotation != nil {
			s += ": " + p.expr(x.Annotation)
		}
		return s
	}
	firstDefault := len(a.Args) - len(a.Defaults)
	for i, x := range a.Args {
		s := arg(x)
		if i >= firstDefault {
			s += "=" + p.expr(a.Defaults[i-firstDefault])
		}
		parts = append(parts, s)
	}
	if a.Vararg != nil {
		parts = append(parts, "*"+arg(a.Vararg))
	} else if len(a.Kwonlyargs) > 0 {
		parts = append(parts, "*")
	}
	for i, x := range a.Kwonlyargs {
		s := arg(x)
		if i < len(a.KwDefaults) && a.KwDefaults[i] != nil {
			s += "=" + p.expr(a.KwDefaults[i])
		}
		parts = append(parts, s)
	}
	if a.Kwarg != nil {
		parts = append(parts, "**"+arg(a.Kwarg))
	}
	return strings.Join(parts, ", ")
}

// callArgs prints a call's arguments, each positional one through wrap.
func (p *printer) callArgs(args []ast.Expr, kws []*ast.Keyword, star, kwargs ast.Expr) string {
	var parts []string
	for _, a := range args {
		parts = append(parts, p.expr(a))
	}
	for _, k := range kws {
		parts = append(parts, string(k.Arg)+"="+p.expr(k.Value))
	}
	if star != nil {
		parts = append(parts, "*"+starName+"("+p.expr(star)+")")
	}
	if kwargs != nil {
		parts = append(parts, "**"+p.expr(kwargs))
	}
	return strings.Join(parts, ", ")
}

// deepBuiltins are the builtins that recurse over their arguments'
// containers in Go (repr, ordering, hashing): their arguments are checked.
// The functions among them (repr, sorted, …) are replaced in the
// builtins by checking versions (interp.guards), and the types' own
// constructors check too (guardTypes); the calls rewritten here add the
// instance's memory budget.
var deepBuiltins = map[string]bool{"set": true, "frozenset": true}

// countedBuiltins are the builtins that copy or test their argument's
// items in one Go loop: their arguments are counted (countedName).
var countedBuiltins = map[string]bool{"list": true, "tuple": true, "dict": true, "any": true, "all": true}

func (p *printer) expr(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.BoolOp:
		op := " and "
		if e.Op == ast.Or {
			op = " or "
		}
		return "(" + strings.Join(p.each(e.Values), op) + ")"
	case *ast.BinOp:
		// A float operand makes the result a number, except on the
		// right of %, which formats a string on the left; a float's //
		// and % go through the guard all the same, which divides as
		// CPython does (floatDivMod).
		plainNumber := (floatTyped(e.Left) || (floatTyped(e.Right) && e.Op != ast.Modulo)) && e.Op != ast.FloorDiv && e.Op != ast.Modulo
		if op, ok := guardedOps[e.Op]; ok && !plainNumber {
			return binopName + "(" + strconv.Quote(op) + ", " + p.expr(e.Left) + ", " + p.expr(e.Right) + ")"
		}
		return "(" + p.expr(e.Left) + " " + operator(e.Op) + " " + p.expr(e.Right) + ")"
	case *ast.UnaryOp:
		ops := map[ast.UnaryOpNumber]string{ast.Invert: "~", ast.Not: "not ", ast.UAdd: "+", ast.USub: "-"}
		return "(" + ops[e.Op] + p.expr(e.Operand) + ")"
	case *ast.Lambda:
		return "(lambda " + p.arguments(e.Args, false) + ": " + p.expr(e.Body) + ")"
	case *ast.IfExp:
		return "(" + p.expr(e.Body) + " if " + p.expr(e.Test) + " else " + p.expr(e.Orelse) + ")"
	case *ast.Dict:
		parts := make([]string, len(e.Keys))
		for i := range e.Keys {
			parts[i] = p.strKey(e.Keys[i]) + ": " + p.expr(e.Values[i])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case *ast.Set:
		// Adding an item hashes it, recursively for tuples.
		items := make([]string, len(e.Elts))
		for i, x := range e.Elts {
			items[i] = p.deepExpr(x)
		}
		return "{" + strings.Join(items, ", ") + "}"
	case *ast.ListComp:
		return reraiseName + "([" + p.expr(e.Elt) + p.comprehension(e.Generators) + "])"
	case *ast.SetComp:
		return reraiseName + "({" + p.deepExpr(e.Elt) + p.comprehension(e.Generators) + "})"
	case *ast.DictComp:
		return reraiseName + "({" + p.strKey(e.Key) + ": " + p.expr(e.Value) + p.comprehension(e.Generators) + "})"
	case *ast.GeneratorExp:
		return lazyName + "((" + p.expr(e.Elt) + p.comprehension(e.Generators) + "))"
	case *ast.Yield:
		if e.Value == nil {
			return "(yield)"
		}
		return "(yield " + p.expr(e.Value) + ")"
	case *ast.YieldFrom:
		return "(yield from " + feedName + "(" + p.expr(e.Value) + "))"
	case *ast.Compare:
		return p.compare(e)
	case *ast.Call:
		return p.call(e)
	case *ast.Num:
		return p.number(e.N)
	case *ast.Str:
		return p.str(string(e.S))
	case *ast.Bytes:
		return bytesLiteral(e.S)
	case *ast.NameConstant:
		switch e.Value {
		case py.None:
			return "None"
		case py.True:
			return "True"
		case py.False:
			return "False"
		}
		p.fail("constant %v", e.Value)
		return "None"
	case *ast.Ellipsis:
		return "..."
	case *ast.Attribute:
		if guardedMethods[string(e.Attr)] && e.Ctx == ast.Load {
			// A guarded method taken as a value (e = xs.extend); calls
			// of it are routed in call.
			return boundName + "(" + p.expr(e.Value) + ", " + strconv.Quote(string(e.Attr)) + ")"
		}
		if _, ok := e.Value.(*ast.Num); ok {
			return "(" + p.expr(e.Value) + ")." + string(e.Attr) // 5.real would read as a float
		}
		return p.expr(e.Value) + "." + string(e.Attr)
	case *ast.Subscript:
		if i, ok := e.Slice.(*ast.Index); ok && (isScalarLiteral(i.Value) || floatTyped(i.Value)) {
			return p.expr(e.Value) + "[" + p.slice(e.Slice) + "]"
		}
		// gpython's dicts print a key they cannot take (any but a
		// string) into the KeyError with Go's fmt, which recurses over a
		// nested tuple, list or object on the Go stack: a dict is
		// subscripted through a view that refuses such keys first. A
		// slice read copies items in one Go loop: they are counted.
		value := p.expr(e.Value)
		if _, ok := e.Slice.(*ast.Slice); ok && e.Ctx == ast.Load {
			value = countedName + "(" + value + ")"
		}
		return keyedName + "(" + value + ")[" + p.slice(e.Slice) + "]"
	case *ast.Starred:
		return "*" + p.expr(e.Value)
	case *ast.Name:
		return string(e.Id)
	case *ast.List:
		return "[" + p.exprs(e.Elts) + "]"
	case *ast.Tuple:
		s := p.exprs(e.Elts)
		if len(e.Elts) == 1 {
			s += ","
		}
		return "(" + s + ")"
	}
	p.fail("expression %T", e)
	return "None"
}

func (p *printer) each(es []ast.Expr) []string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = p.expr(e)
	}
	return parts
}

// strKey prints the key of a dict display or comprehension through the
// string check, unless it is a string literal.
func (p *printer) strKey(k ast.Expr) string {
	if _, ok := k.(*ast.Str); ok {
		return p.expr(k)
	}
	return strKeyName + "(" + p.expr(k) + ")"
}

// deepExpr prints x through the nesting check unless it is plainly a
// number.
func (p *printer) deepExpr(x ast.Expr) string {
	if floatTyped(x) || isScalarLiteral(x) {
		return p.expr(x)
	}
	return deepName + "(" + p.expr(x) + ")"
}

// comprehension prints the for/if clauses, their iterables through
// __iter__; each iteration of each clause ticks through an always-true
// first condition.
func (p *printer) comprehension(gens []ast.Comprehension) string {
	var b strings.Builder
	for _, g := range gens {
		if flattened(g.Target) {
			// A clause over a one-item tuple assigns each pattern.
			tmp := p.temp()
			b.WriteString(" for " + tmp + " in " + iterName + "(" + p.expr(g.Iter) + ")")
			b.WriteString(" if " + tockName + "()")
			for _, u := range p.unpackings(g.Target, tmp) {
				b.WriteString(" for " + u.target + " in (" + u.text() + ",)")
			}
		} else {
			b.WriteString(" for " + p.target(g.Target) + " in " + p.loopIter(g.Target, g.Iter))
			b.WriteString(" if " + tockName + "()")
		}
		for _, c := range g.Ifs {
			b.WriteString(" if " + p.expr(c))
		}
	}
	return b.String()
}

// compare prints a comparison with its operands checked for nesting
// where it tests equality or membership (gpython does not order
// containers, and identity does not look inside them), except operands
// that are plainly numbers.
func (p *printer) compare(e *ast.Compare) string {
	deep := false
	for _, op := range e.Ops {
		switch op {
		case ast.Eq, ast.NotEq, ast.In, ast.NotIn:
			deep = true
		}
	}
	// A container compared with a number or None is not walked; in a
	// chain (a == b == 1) the other comparisons still are. A sequence a
	// number is looked for in is: that compares it with every item, work
	// the operations budget counts.
	if len(e.Ops) == 1 && e.Ops[0] != ast.In && e.Ops[0] != ast.NotIn {
		for _, x := range []ast.Expr{e.Left, e.Comparators[0]} {
			if isScalarLiteral(x) || floatTyped(x) {
				deep = false
			}
		}
	}
	operand := p.expr
	if deep {
		operand = func(x ast.Expr) string {
			if floatTyped(x) || isScalarLiteral(x) {
				return p.expr(x)
			}
			return cmpName + "(" + p.expr(x) + ")"
		}
	}
	cmp := map[ast.CmpOp]string{ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
		ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in"}
	var b strings.Builder
	b.WriteString("(" + operand(e.Left))
	for i, op := range e.Ops {
		right := operand(e.Comparators[i])
		if deep && (op == ast.In || op == ast.NotIn) && strings.HasPrefix(right, cmpName+"(") {
			// A dict or set finds the left operand by its hash: only a
			// sequence compares it with every item.
			right = deepSeqName + strings.TrimPrefix(right, cmpName)
		}
		b.WriteString(" " + cmp[op] + " " + right)
	}
	return b.String() + ")"
}

// call prints a call, routing the guarded ones through their checks.
func (p *printer) call(e *ast.Call) string {
	if a, ok := e.Func.(*ast.Attribute); ok && guardedMethods[string(a.Attr)] {
		args := p.callArgs(e.Args, e.Keywords, e.Starargs, e.Kwargs)
		if args != "" {
			args = ", " + args
		}
		return methodName + "(" + p.expr(a.Value) + ", " + strconv.Quote(string(a.Attr)) + args + ")"
	}
	fn := p.expr(e.Func)
	if n, ok := e.Func.(*ast.Name); ok {
		switch {
		case n.Id == "str":
			fn = strCallName
		case n.Id == "bytes":
			fn = bytesCallName
		case n.Id == "int":
			fn = intCallName
		case deepBuiltins[string(n.Id)] || countedBuiltins[string(n.Id)]:
			guard := ast.Identifier(deepName)
			if countedBuiltins[string(n.Id)] {
				guard = countedName
			}
			args := make([]ast.Expr, len(e.Args))
			for i, a := range e.Args {
				args[i] = &ast.Call{Func: &ast.Name{Id: guard, Ctx: ast.Load}, Args: []ast.Expr{a}}
			}
			return fn + "(" + p.callArgs(args, e.Keywords, e.Starargs, e.Kwargs) + ")"
		}
	}
	return fn + "(" + p.callArgs(e.Args, e.Keywords, e.Starargs, e.Kwargs) + ")"
}

func (p *printer) slice(s ast.Slicer) string {
	switch s := s.(type) {
	case *ast.Index:
		return p.expr(s.Value)
	case *ast.Slice:
		var b strings.Builder
		if s.Lower != nil {
			b.WriteString(p.expr(s.Lower))
		}
		b.WriteString(":")
		if s.Upper != nil {
			b.WriteString(p.expr(s.Upper))
		}
		if s.Step != nil {
			b.WriteString(":" + p.expr(s.Step))
		}
		return b.String()
	case *ast.ExtSlice:
		parts := make([]string, len(s.Dims))
		for i, d := range s.Dims {
			parts[i] = p.slice(d)
		}
		return strings.Join(parts, ", ")
	}
	p.fail("slice %T", s)
	return ""
}

// sliceValue prints a subscript's key as a value to keep in a temporary.
func (p *printer) sliceValue(s ast.Slicer) string {
	switch s := s.(type) {
	case *ast.Index:
		return p.expr(s.Value)
	case *ast.Slice:
		part := func(e ast.Expr) string {
			if e == nil {
				return "None"
			}
			return p.expr(e)
		}
		return "slice(" + part(s.Lower) + ", " + part(s.Upper) + ", " + part(s.Step) + ")"
	}
	p.fail("augmented assignment to an extended slice")
	return "None"
}

func operator(op ast.OperatorNumber) string {
	return map[ast.OperatorNumber]string{ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Modulo: "%",
		ast.Pow: "**", ast.LShift: "<<", ast.RShift: ">>", ast.BitOr: "|", ast.BitXor: "^", ast.BitAnd: "&",
		ast.FloorDiv: "//"}[op]
}

// number prints a numeric literal so that it reads back as the same value.
func (p *printer) number(n ast.Object) string {
	switch n := n.(type) {
	case py.Int:
		return strconv.FormatInt(int64(n), 10)
	case *py.BigInt:
		return (*big.Int)(n).String()
	case py.Float:
		return floatLiteral(float64(n))
	case py.Complex:
		return "(" + floatLiteral(imag(complex128(n))) + "j)"
	}
	p.fail("number %T", n)
	return "0"
}

func floatLiteral(f float64) string {
	if math.IsInf(f, 0) {
		return "1e999" // a literal only overflows to +Inf
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".en") {
		s += ".0"
	}
	return s
}

// str prints a string literal: printable characters as they are, the
// others escaped.
func (p *printer) str(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			p.fail("string literal that is not valid UTF-8")
			return "''"
		}
		i += size
		switch {
		case r == '\\' || r == '\'':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\x%02x", r)
		case r < 0x80:
			b.WriteRune(r)
		default:
			fmt.Fprintf(&b, "\\U%08x", r)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

func bytesLiteral(s py.Bytes) string {
	var b strings.Builder
	b.WriteString("b'")
	for _, c := range []byte(s) {
		if c == '\\' || c == '\'' {
			b.WriteByte('\\')
			b.WriteByte(c)
		} else if c >= 0x20 && c < 0x7f {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "\\x%02x", c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// floatFunctions are the math functions that return a float whatever
// their arguments.
var floatFunctions = map[string]bool{"sqrt": true, "sin": true, "cos": true, "tan": true, "asin": true, "acos": true,
	"atan": true, "atan2": true, "sinh": true, "cosh": true, "tanh": true, "asinh": true, "acosh": true, "atanh": true,
	"exp": true, "log": true, "hypot": true, "degrees": true, "radians": true, "fabs": true, "copysign": true,
	"fmod": true, "pow": true, "erf": true, "erfc": true, "gamma": true, "lgamma": true, "ldexp": true, "fsum": true}

// floatTyped reports an expression that is a float whatever its operands
// hold (a float literal, a true division, float(), a math function, or
// arithmetic with one of those): it can never be a sequence or a big
// integer, so operations on it need no sizing.
func floatTyped(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.Num:
		_, ok := e.N.(py.Float)
		return ok
	case *ast.UnaryOp:
		return (e.Op == ast.USub || e.Op == ast.UAdd) && floatTyped(e.Operand)
	case *ast.BinOp:
		switch e.Op {
		case ast.Div:
			return true
		case ast.Add, ast.Sub, ast.Mult, ast.Pow, ast.FloorDiv:
			// float op x is a float or an error, never a sequence.
			return floatTyped(e.Left) || floatTyped(e.Right)
		case ast.Modulo:
			return floatTyped(e.Left) // 'text' % 1.5 formats
		}
	case *ast.Call:
		switch f := e.Func.(type) {
		case *ast.Name:
			return f.Id == "float"
		case *ast.Attribute:
			if m, ok := f.Value.(*ast.Name); ok && m.Id == "math" {
				return floatFunctions[string(f.Attr)]
			}
		}
	}
	return false
}

// isScalarLiteral reports a number, None, True or False literal.
func isScalarLiteral(e ast.Expr) bool {
	switch e.(type) {
	case *ast.Num, *ast.NameConstant:
		return true
	}
	return false
}
