package sandbox

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-python/gpython/py"
)

// format is Python's printf-style formatting, format % args. gpython hands
// the format to Go's fmt.Sprintf, whose language is not Python's: '%[1]s'
// reads an argument index, a width pads every item of a container, and
// %s of a function prints its globals. Here every field is converted as
// Python does and padded once, and each field's padding and text are
// sized against the memory budget before they are built.
func (it *Interp) format(f string, args py.Object) (py.Object, error) {
	var items []py.Object
	// As in CPython, any argument but a tuple or a string that has items
	// (a dict, a list, bytes) may leave the format's arguments unused, and
	// %(key) looks keys up in it.
	isMap := false
	switch args.(type) {
	case py.Tuple, py.String:
	case py.StringDict, *py.List, py.Bytes:
		isMap = true
	default:
		_, isMap = args.(py.I__getitem__)
	}
	if t, ok := args.(py.Tuple); ok {
		items = t
	} else {
		items = py.Tuple{args}
	}
	next := 0
	arg := func() (py.Object, error) {
		if next >= len(items) {
			return nil, py.ExceptionNewf(py.TypeError, "not enough arguments for format string")
		}
		next++
		return items[next-1], nil
	}
	// Each field's printing is counted against the memory budget as if it
	// were kept (a precision may cut it), every container measured once
	// per call: '%(a).0s' * 10000 would print a large value ten thousand
	// times.
	var printed int64
	memo := map[identity]int64{}
	var b strings.Builder
	grow := func(n int64) error {
		if int64(b.Len())+n >= bigValue {
			return it.mem.fits(int64(b.Len())+n, "the formatted string")
		}
		return nil
	}
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c != '%' {
			j := strings.IndexByte(f[i:], '%')
			if j < 0 {
				j = len(f) - i
			}
			b.WriteString(f[i : i+j])
			i += j - 1
			continue
		}
		i++
		var spec fieldSpec
		var value py.Object
		if i < len(f) && f[i] == '(' {
			depth, j := 1, i+1
			for ; j < len(f) && depth > 0; j++ {
				switch f[j] {
				case '(':
					depth++
				case ')':
					depth--
				}
			}
			if depth > 0 {
				return nil, py.ExceptionNewf(py.ValueError, "incomplete format key")
			}
			if !isMap {
				return nil, py.ExceptionNewf(py.TypeError, "format requires a mapping")
			}
			key := f[i+1 : j-1]
			if d, ok := args.(py.StringDict); ok {
				if value, ok = d[key]; !ok {
					return nil, py.ExceptionNewf(py.KeyError, "'%s'", key)
				}
			} else {
				v, err := py.GetItem(args, py.String(key))
				if err != nil {
					return nil, err
				}
				value = v
			}
			// After a key, positional fields have no arguments left.
			next, i = len(items), j
		}
		for ; i < len(f) && strings.IndexByte("-+ #0", f[i]) >= 0; i++ {
			switch f[i] {
			case '-':
				spec.left = true
			case '+':
				spec.sign = '+'
			case ' ':
				if spec.sign == 0 {
					spec.sign = ' '
				}
			case '#':
				spec.alt = true
			case '0':
				spec.zero = true
			}
		}
		number := func(what string) (int64, error) {
			if i < len(f) && f[i] == '*' {
				i++
				a, err := arg()
				if err != nil {
					return 0, err
				}
				n, ok := integer(a)
				if !ok {
					return 0, py.ExceptionNewf(py.TypeError, "* wants int")
				}
				// Sized like any other field: a width of 10**10 is a
				// MemoryError, beyond an int64 an OverflowError.
				if !n.IsInt64() || n.Int64() > math.MaxInt64/4 || n.Int64() < -math.MaxInt64/4 {
					return 0, py.ExceptionNewf(py.OverflowError, "%s too big", what)
				}
				return n.Int64(), nil
			}
			var n int64
			for ; i < len(f) && f[i] >= '0' && f[i] <= '9'; i++ {
				n = n*10 + int64(f[i]-'0')
				if n > math.MaxInt32 {
					return 0, py.ExceptionNewf(py.ValueError, "%s too big", what)
				}
			}
			return n, nil
		}
		w, err := number("width")
		if err != nil {
			return nil, err
		}
		if w < 0 { // a negative * width pads on the right
			spec.left, w = true, -w
		}
		spec.width = w
		spec.prec = -1
		if i < len(f) && f[i] == '.' {
			i++
			p, err := number("precision")
			if err != nil {
				return nil, err
			}
			spec.prec = max(p, 0)
		}
		if i < len(f) && strings.IndexByte("hlL", f[i]) >= 0 {
			i++ // one length modifier, ignored as in C's printf
		}
		if i >= len(f) {
			return nil, py.ExceptionNewf(py.ValueError, "incomplete format")
		}
		spec.verb = f[i]
		// Only a bare %% is a '%'; with flags or a width it takes an
		// argument and is refused (as CPython does).
		if spec.verb == '%' && f[i-1] == '%' {
			b.WriteByte('%')
			continue
		}
		if value == nil {
			if value, err = arg(); err != nil {
				return nil, err
			}
		}
		if err := grow(max(spec.width, spec.prec)); err != nil {
			return nil, err
		}
		if strings.IndexByte("sra", spec.verb) >= 0 {
			if printed += printedSize(value, memo); printed >= bigValue {
				if err := it.mem.fits(printed, "the formatted string"); err != nil {
					return nil, err
				}
			}
		}
		text, err := it.convert(spec, value)
		if err == errUnsupportedVerb {
			r, _ := utf8.DecodeRuneInString(f[i:])
			return nil, py.ExceptionNewf(py.ValueError, "unsupported format character '%c' (0x%x) at index %d", r, r, i)
		}
		if err != nil {
			return nil, err
		}
		if n := utf8.RuneCountInString(text); int64(n) < spec.width {
			text = spec.pad(text, int(spec.width)-n)
		}
		if err := grow(int64(len(text))); err != nil {
			return nil, err
		}
		b.WriteString(text)
	}
	if next < len(items) && !isMap {
		return nil, py.ExceptionNewf(py.TypeError, "not all arguments converted during string formatting")
	}
	return py.String(b.String()), nil
}

// fieldSpec is one conversion specifier: %[flags][width][.precision]verb.
type fieldSpec struct {
	left, alt, zero bool
	sign            byte // 0, '+' or ' '
	width, prec     int64
	verb            byte
}

// numeric reports whether the conversion pads with zeros after the sign.
func (s fieldSpec) numeric() bool { return strings.IndexByte("diuoxXeEfFgG", s.verb) >= 0 }

// pad widens text by n characters: spaces on the left or right, or zeros
// after the sign and base prefix of a number.
func (s fieldSpec) pad(text string, n int) string {
	switch {
	case s.left:
		return text + strings.Repeat(" ", n)
	case s.zero && s.numeric(): // inf and nan too, as CPython
		head := 0
		if head < len(text) && strings.IndexByte("+- ", text[head]) >= 0 {
			head++
		}
		if s.alt && len(text) >= head+2 && text[head] == '0' && strings.IndexByte("xXo", text[head+1]) >= 0 {
			head += 2
		}
		return text[:head] + strings.Repeat("0", n) + text[head:]
	}
	return strings.Repeat(" ", n) + text
}

// convert formats one value by the specifier, without its width.
func (it *Interp) convert(s fieldSpec, v py.Object) (string, error) {
	switch s.verb {
	case 's', 'r', 'a':
		text, err := pyText(v, s.verb != 's')
		if err != nil {
			return "", err
		}
		if s.verb == 'a' {
			text = asciiEscaped(text)
		}
		if s.prec >= 0 && int64(utf8.RuneCountInString(text)) > s.prec {
			n := 0
			for i := range text {
				if int64(n) == s.prec {
					text = text[:i]
					break
				}
				n++
			}
		}
		return text, nil
	case 'c':
		if t, ok := v.(py.String); ok {
			if utf8.RuneCountInString(string(t)) != 1 {
				return "", py.ExceptionNewf(py.TypeError, "%%c requires int or char")
			}
			return string(t), nil
		}
		n, ok := integer(v)
		if !ok {
			return "", py.ExceptionNewf(py.TypeError, "%%c requires int or char")
		}
		if !n.IsInt64() || n.Int64() < 0 || n.Int64() > utf8.MaxRune {
			return "", py.ExceptionNewf(py.OverflowError, "%%c arg not in range(0x110000)")
		}
		return string(rune(n.Int64())), nil
	case 'd', 'i', 'u', 'o', 'x', 'X':
		n, ok := integer(v)
		if !ok {
			x, isFloat := v.(py.Float)
			switch {
			case isFloat && strings.IndexByte("oxX", s.verb) >= 0:
				return "", py.ExceptionNewf(py.TypeError, "%%%c format: an integer is required, not float", s.verb)
			case isFloat && math.IsNaN(float64(x)):
				return "", py.ExceptionNewf(py.ValueError, "cannot convert float NaN to integer")
			case isFloat && math.IsInf(float64(x), 0):
				return "", py.ExceptionNewf(py.OverflowError, "cannot convert float infinity to integer")
			case isFloat:
				n, _ = new(big.Float).SetFloat64(math.Trunc(float64(x))).Int(nil)
			default:
				return "", py.ExceptionNewf(py.TypeError, "%%%c format: a number is required, not %s", s.verb, v.Type().Name)
			}
		}
		return s.integer(n), nil
	case 'e', 'E', 'f', 'F', 'g', 'G':
		if n, ok := integer(v); ok {
			x, _ := new(big.Float).SetInt(n).Float64()
			if math.IsInf(x, 0) {
				return "", py.ExceptionNewf(py.OverflowError, "int too large to convert to float")
			}
			return s.float(x), nil
		}
		x, err := py.MakeFloat(v)
		if err != nil {
			return "", py.ExceptionNewf(py.TypeError, "must be real number, not %s", v.Type().Name)
		}
		return s.float(float64(x.(py.Float))), nil
	}
	return "", errUnsupportedVerb
}

// errUnsupportedVerb is a conversion character Python does not know.
var errUnsupportedVerb = errors.New("unsupported format character")

// integer formats n for %d, %o, %x or %X with sign, precision (minimum
// digits) and the alternate form's base prefix.
func (s fieldSpec) integer(n *big.Int) string {
	base, prefix := 10, ""
	switch s.verb {
	case 'o':
		base, prefix = 8, "0o"
	case 'x', 'X':
		base, prefix = 16, "0x"
	}
	digits := new(big.Int).Abs(n).Text(base)
	if s.verb == 'X' {
		digits, prefix = strings.ToUpper(digits), "0X"
	}
	if int64(len(digits)) < s.prec {
		digits = strings.Repeat("0", int(s.prec)-len(digits)) + digits
	}
	if s.alt && base != 10 {
		digits = prefix + digits
	}
	return s.signed(n.Sign() < 0, digits)
}

// float formats x for %e, %f or %g (and their upper-case forms) as Python
// does: precision 6 by default, inf and nan spelled out.
func (s fieldSpec) float(x float64) string {
	upper := s.verb == 'E' || s.verb == 'F' || s.verb == 'G'
	var digits string
	switch {
	case math.IsNaN(x):
		digits = "nan"
	case math.IsInf(x, 0):
		digits = "inf"
	default:
		prec := s.prec
		if prec < 0 {
			prec = 6
		}
		verb := s.verb | 0x20 // lower case
		if verb == 'g' && prec == 0 {
			prec = 1
		}
		digits = strconv.FormatFloat(math.Abs(x), verb, int(prec), 64)
		if s.alt {
			digits = alternateForm(math.Abs(x), verb, int(prec), digits)
		}
	}
	if upper {
		digits = strings.ToUpper(digits)
	}
	return s.signed(math.Signbit(x) && !math.IsNaN(x), digits)
}

// alternateForm is digits (x formatted by verb e, f or g and prec) in the
// alternate form of '#': always a decimal point, and for g the trailing
// zeros kept.
func alternateForm(x float64, verb byte, prec int, digits string) string {
	if verb == 'g' {
		// g is e with prec-1 digits where the exponent is below -4 or
		// at least prec, else f with prec-1-exponent digits.
		e := strconv.FormatFloat(x, 'e', prec-1, 64)
		exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
		if exp < -4 || exp >= prec {
			digits, verb = e, 'e'
		} else {
			digits, verb = strconv.FormatFloat(x, 'f', prec-1-exp, 64), 'f'
		}
	}
	if strings.IndexByte(digits, '.') >= 0 {
		return digits
	}
	if i := strings.IndexByte(digits, 'e'); verb == 'e' && i >= 0 {
		return digits[:i] + "." + digits[i:]
	}
	return digits + "."
}

// floatRepr is Python's repr (and str) of a float: the shortest digits
// that read back as x, in exponent form below 1e-4 and from 1e16 on.
func floatRepr(x float64) string {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	e := strconv.FormatFloat(x, 'e', -1, 64)
	exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	if exp < -4 || exp >= 16 {
		mant, rest, _ := strings.Cut(e, "e")
		sign := rest[0]
		digits := strings.TrimLeft(rest[1:], "0")
		if len(digits) < 2 {
			digits = strings.Repeat("0", 2-len(digits)) + digits
		}
		return mant + "e" + string(sign) + digits
	}
	f := strconv.FormatFloat(x, 'f', -1, 64)
	if !strings.ContainsAny(f, ".") {
		f += ".0"
	}
	return f
}

// signed puts the sign (or the flag's '+' or ' ') before digits.
func (s fieldSpec) signed(negative bool, digits string) string {
	switch {
	case negative:
		return "-" + digits
	case s.sign != 0:
		return string(s.sign) + digits
	}
	return digits
}

// asciiEscaped escapes the characters of a repr beyond ASCII as ascii()
// does: \xhh, \uhhhh or \Uhhhhhhhh.
func asciiEscaped(text string) string {
	var b strings.Builder
	for _, r := range text {
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case r <= 0xff:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r <= 0xffff:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	return b.String()
}

// pyText is Python's str of v, or its repr if repr. gpython prints floats
// its own way (1.23456789123e+08, +Inf, 0.0 for -0.0), a one-item tuple
// without its comma and an empty set as {}, also inside containers, and
// dicts and sets in a random order (see order.go). The caller has checked
// v's nesting (printable).
func pyText(v py.Object, repr bool) (string, error) {
	var b strings.Builder
	err := writeText(&b, v, repr)
	return b.String(), err
}

func writeText(b *strings.Builder, v py.Object, repr bool) error {
	items := func(xs []py.Object) error {
		for i, x := range xs {
			if i > 0 {
				b.WriteString(", ")
			}
			if err := writeText(b, x, true); err != nil {
				return err
			}
		}
		return nil
	}
	switch x := v.(type) {
	case py.Float:
		b.WriteString(floatRepr(float64(x)))
		return nil
	case py.Complex:
		b.WriteString(complexRepr(complex128(x)))
		return nil
	case *py.List:
		b.WriteByte('[')
		err := items(x.Items)
		b.WriteByte(']')
		return err
	case py.Tuple:
		b.WriteByte('(')
		err := items(x)
		if len(x) == 1 {
			b.WriteByte(',')
		}
		b.WriteByte(')')
		return err
	case py.StringDict:
		b.WriteByte('{')
		for i, k := range dictKeys(x) {
			if i > 0 {
				b.WriteString(", ")
			}
			key, err := py.ReprAsString(py.String(k))
			if err != nil {
				return err
			}
			b.WriteString(key + ": ")
			if err := writeText(b, x[k], true); err != nil {
				return err
			}
		}
		b.WriteByte('}')
		return nil
	case *py.Set, *py.FrozenSet:
		xs, err := setItems(x)
		if err != nil {
			return err
		}
		_, frozen := x.(*py.FrozenSet)
		switch {
		case len(xs) == 0 && frozen:
			b.WriteString("frozenset()")
		case len(xs) == 0:
			b.WriteString("set()")
		case frozen:
			b.WriteString("frozenset({")
			err = items(xs)
			b.WriteString("})")
		default:
			b.WriteByte('{')
			err = items(xs)
			b.WriteByte('}')
		}
		return err
	}
	var o py.Object
	var err error
	if repr {
		o, err = py.Repr(v)
	} else {
		o, err = py.Str(v)
	}
	if err != nil {
		return err
	}
	s, ok := o.(py.String)
	if !ok {
		return py.ExceptionNewf(py.TypeError, "__str__ returned non-string (type %s)", o.Type().Name)
	}
	b.WriteString(string(s))
	return nil
}

// complexRepr is Python's repr of a complex number: its parts as floats
// without a trailing .0, the real part left out when it is +0.
func complexRepr(z complex128) string {
	part := func(x float64) string { return strings.TrimSuffix(floatRepr(x), ".0") }
	re, im := real(z), imag(z)
	sign := "+"
	if math.Signbit(im) && !math.IsNaN(im) {
		sign, im = "-", -im
	}
	if re == 0 && !math.Signbit(re) {
		if sign == "-" {
			return "-" + part(im) + "j"
		}
		return part(im) + "j"
	}
	return "(" + part(re) + sign + part(im) + "j)"
}
