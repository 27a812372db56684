package pyplugin_test

import (
	"fmt"
	"strings"
	"testing"
)

// The % operator formats as Python does, not as Go's fmt.Sprintf that
// gpython hands it to: each expression's expected value (or the class of
// the exception it raises) is CPython 3's.
var percentCases = []exprCase{
	{`'%s' % 'abc'`, `'abc'`},
	{`'%5s|%-5s|' % ('ab', 'cd')`, `'   ab|cd   |'`},
	{`'%.2s' % 'abcdef'`, `'ab'`},
	{`'%r' % 'a\'b'`, `'"a\'b"'`},
	{`'%a' % 'caf\xe9 \u20ac'`, `"'caf\\xe9 \\u20ac'"`},
	{`'%d %i %u' % (3, -4, 5)`, `'3 -4 5'`},
	{`'%5d|%-5d|%05d' % (42, 42, 42)`, `'   42|42   |00042'`},
	{`'%+d % d %+05d' % (7, 7, -7)`, `'+7  7 -0007'`},
	{`'%.3d' % 5`, `'005'`},
	{`'%x %X %o' % (255, 255, 8)`, `'ff FF 10'`},
	{`'%#x %#X %#o' % (255, 255, 8)`, `'0xff 0XFF 0o10'`},
	{`'%#06x' % 31`, `'0x001f'`},
	{`'%d' % 3.99`, `'3'`},
	{`'%d' % -3.99`, `'-3'`},
	{`'%d' % True`, `'1'`},
	{`'%s' % True`, `'True'`},
	{`'%f' % 1.5`, `'1.500000'`},
	{`'%.2f|%10.3f|%-10.1f|' % (3.14159, 2.5, -1.25)`, `'3.14|     2.500|-1.2      |'`},
	{`'%e %E' % (12345.678, 0.000123)`, `'1.234568e+04 1.230000E-04'`},
	{`'%g %g %g %g' % (1e6, 1e-5, 0.5, 123456789.0)`, `'1e+06 1e-05 0.5 1.23457e+08'`},
	{`'%G' % 1e-10`, `'1E-10'`},
	{`'%.0f %.0e %#.0f' % (2.5, 2.5, 3.0)`, `'2 2e+00 3.'`},
	{`'%#g' % 1.5`, `'1.50000'`},
	{`'%f %f %F' % (float('inf'), float('-inf'), float('nan'))`, `'inf -inf NAN'`},
	{`'%08.3f' % -3.14159`, `'-003.142'`},
	{`'%c%c' % (65, 'z')`, `'Az'`},
	{`'%c' % 8364`, `'€'`},
	{`'%%d %s %%' % 'x'`, `'%d x %'`},
	{`'%(a)s and %(b)05.1f' % {'a': 'one', 'b': 2.25}`, `'one and 002.2'`},
	{`'%s' % {'k': 1}`, `"{'k': 1}"`},
	{`'%*d|%-*d|%.*f' % (5, 1, 4, 2, 2, 3.14159)`, `'    1|2   |3.14'`},
	{`'%*d' % (-5, 1)`, `'1    '`},
	{`'%s' % [1, 'a', (2.5, None)]`, `"[1, 'a', (2.5, None)]"`},
	{`'%s' % ((1, 2),)`, `'(1, 2)'`},
	{`'%r' % ((1, 'x'),)`, `"(1, 'x')"`},
	{`'%10.4s|' % 'abcdefgh'`, `'      abcd|'`},
	{`'%ld %hd %Lf' % (1, 2, 3.0)`, `'1 2 3.000000'`},
	{`'%d' % 123456789012345678901234567890`, `'123456789012345678901234567890'`},
	{`'%x' % -255`, `'-ff'`},
	{`'%s %s' % (1e300, 1e-300)`, `'1e+300 1e-300'`},
	{`'%s' % 0.1`, `'0.1'`},
	{`'%5s|' % '\u20ac'`, `'    €|'`},
	{`'%[1]s' % ('a',)`, `ValueError`},
	{`'%s %s' % ('a',)`, `TypeError`},
	{`'%s' % ('a', 'b')`, `TypeError`},
	{`'%d' % 'x'`, `TypeError`},
	{`'%x' % 1.5`, `TypeError`},
	{`'%q' % 1`, `ValueError`},
	{`'%' % ()`, `ValueError`},
	{`'%(a)s' % ('x',)`, `TypeError`},
	{`'%(zz)s' % {'a': 1}`, `KeyError`},
	{`'%c' % 'ab'`, `TypeError`},
	{`'%d' % float('nan')`, `ValueError`},
	{`'%f' % 'x'`, `TypeError`},
	// Go's fmt pads every item of a container and prints a function's
	// globals.
	{`len('%999999s' % ([0] * 100000,))`, `999999`},
	{`len('%s' % (step,)) < 100`, `True`},
	{`'%s %d' % (1.5, 2.0)`, `'1.5 2'`},
	// Zero padding of hexadecimal digits, inf and nan; the alternate form;
	// floats printed as Python prints them; which arguments may be left
	// unused.
	{`'%02X %05x %#06X' % (10, 10, 255)`, `'0A 0000a 0X00FF'`},
	{`'%010f|%+010f|%-8f|' % (float('inf'), float('inf'), float('nan'))`, `'0000000inf|+000000inf|nan     |'`},
	{`'%010.3f' % float('nan')`, `'0000000nan'`},
	{`'%f %e' % (True, 3)`, `'1.000000 3.000000e+00'`},
	{`'%f' % 10**400`, `OverflowError`},
	{`'abc' % []`, `'abc'`},
	{`'abc' % b'x'`, `'abc'`},
	{`'abc' % 5`, `TypeError`},
	{`'%(a)s %s' % {'a': 1}`, `TypeError`},
	{`'%lls' % 'a'`, `ValueError`},
	{`'%5%' % ()`, `TypeError`},
	{`'%5%|' % (1,)`, `ValueError`},
	{`'%s %r %s %s' % (-0.0, 1e16, 1e-5, 123456789012345678.0)`, `'-0.0 1e+16 1e-05 1.2345678901234568e+17'`},
	{`'%s %s %s' % (float('inf'), float('-inf'), 0.1 + 0.2)`, `'inf -inf 0.30000000000000004'`},
	{`'%#.3g|%#g|%#.0e|%#.0f|%#x' % (1.0, 123456789.0, 2.0, 3.0, 0)`, `'1.00|1.23457e+08|2.e+00|3.|0x0'`},
	{`'%#.3g' % 0.0001234`, `'0.000123'`},
	{`'%d' % 1e300`, `'1000000000000000052504760255204420248704468581108159154915854115511802457988908195786371375080447864043704443832883878176942523235360430575644792184786706982848387200926575803737830233794788090059368953234970799945081119038967640880074652742780142494579258788820056842838115669472196386865459400540160'`},
	{`'%(a)s' % [1]`, `TypeError`},
	{`'%s %s' % {'a': 1}`, `TypeError`},
	{`'%hd' % 3`, `'3'`},
}

func TestPercentFormatsAsCPython(t *testing.T) {
	var b strings.Builder
	b.WriteString("out = output('y', unit='1')\nbad = []\ndef step(sim):\n    n = 0\n")
	for i, c := range percentCases {
		if strings.HasSuffix(c.want, "Error") {
			fmt.Fprintf(&b, "    try:\n        x = %s\n        bad.append(%d)\n    except %s:\n        n += 1\n", c.expr, i, c.want)
			continue
		}
		fmt.Fprintf(&b, "    if (%s) == %s:\n        n += 1\n    else:\n        bad.append(%d)\n", c.expr, c.want, i)
	}
	runCases(t, b.String(), percentCases, len(percentCases))
}

// exprCase is an expression a plugin evaluates and what CPython 3 gives:
// its value, or the class of the exception it raises.
type exprCase struct{ expr, want string }

// runCases runs a plugin whose step counts the cases it finds as CPython
// in n, appends the indices of the others to bad, and ends with
// "out.value = n" and a ValueError listing bad: each case it lists is an
// error, and so is a count other than want.
func runCases(t *testing.T, code string, cases []exprCase, want int) {
	t.Helper()
	code += "    out.value = n\n    if bad:\n        raise ValueError(repr(bad))\n"
	cfg, err := withPlugin(t, code)
	if err != nil {
		t.Fatal(err)
	}
	r := start(t, cfg, nil)
	if err := r.step(); err != nil {
		for _, f := range strings.Fields(strings.Trim(lastLine(err.Error())[len("ValueError: "):], "[]")) {
			var i int
			if _, e := fmt.Sscanf(strings.Trim(f, ","), "%d", &i); e == nil && i < len(cases) {
				t.Errorf("%s: want %s", cases[i].expr, cases[i].want)
			}
		}
		t.Fatal(err)
	}
	if got := r.get(t, "p.y"); int(got) != want {
		t.Errorf("%g of %d cases as CPython", got, want)
	}
}
