package pyplugin_test

import (
	"fmt"
	"strings"
	"testing"
)

// Floor division, remainder and divmod of floats are CPython's, not
// gpython's floor of the quotient (5.0 // 0 was inf, not
// ZeroDivisionError; inf // 2 inf, not nan; -1.0 // inf -0.0, not -1.0):
// each expression's repr (or the class of the exception it raises) is
// CPython 3's. A controller dividing by a step of zero gets the error at
// its line.
var floorCases = []exprCase{
	{`5.0 // 0`, `ZeroDivisionError`},
	{`5 // 0.0`, `ZeroDivisionError`},
	{`0.0 // 0.0`, `ZeroDivisionError`},
	{`float('inf') // 2`, `nan`},
	{`-1.0 // float('inf')`, `-1.0`},
	{`7.5 // 2`, `3.0`},
	{`-7.5 // 2`, `-4.0`},
	{`7.5 // -2`, `-4.0`},
	{`-7.5 // -2`, `3.0`},
	{`7 // 2.0`, `3.0`},
	{`-7 // 2.0`, `-4.0`},
	{`1e300 // 1e-10`, `inf`},
	{`0.0 // -3.0`, `-0.0`},
	{`-0.0 // 3.0`, `-0.0`},
	{`5.0 % 0`, `ZeroDivisionError`},
	{`5 % 0.0`, `ZeroDivisionError`},
	{`7.5 % 2`, `1.5`},
	{`-7.5 % 2`, `0.5`},
	{`7.5 % -2`, `-0.5`},
	{`-7.5 % -2`, `-1.5`},
	{`0.0 % -3.0`, `-0.0`},
	{`-0.0 % 3.0`, `0.0`},
	{`float('inf') % 2`, `nan`},
	{`2 % float('inf')`, `2.0`},
	{`-2 % float('inf')`, `inf`},
	{`-1e-20 % 6.283185307179586`, `6.283185307179586`},
	{`divmod(7.5, 2)`, `(3.0, 1.5)`},
	{`divmod(-7.5, 2)`, `(-4.0, 0.5)`},
	{`divmod(5.0, 0)`, `ZeroDivisionError`},
	{`divmod(7, 2)`, `(3, 1)`},
	{`divmod(-7, 2)`, `(-4, 1)`},
	{`True // 0.5`, `2.0`},
	{`2**1100 // 2.0`, `OverflowError`},
	{`10**20 // 3.0`, `3.333333333333333e+19`},
	{`7 // 2`, `3`},
	{`-7 // 2`, `-4`},
	{`7 % -2`, `-1`},
	{`5 // 0`, `ZeroDivisionError`},
	{`5 % 0`, `ZeroDivisionError`},
	{`True // True`, `1`},
	{`True % 2`, `1`},
	{`-7 // True`, `-7`},
	{`False // True`, `0`},
	{`True // False`, `ZeroDivisionError`},
	{`divmod(True, True)`, `(1, 0)`},
	{`'%s|%d' % (True, True)`, `'True|1'`},
	{`'%s' % False`, `'False'`},
	{`int(True) + int(False)`, `1`},
}

func TestFloorDivisionAsCPython(t *testing.T) {
	var b strings.Builder
	b.WriteString("out = output('y', unit='1')\nbad = []\ndef step(sim):\n    n = 0\n")
	for i, c := range floorCases {
		for _, form := range []string{"x = %s", "x = [0]\n        x[0] = %s\n        x = x[0]"} {
			code := fmt.Sprintf(form, c.expr)
			if strings.HasSuffix(c.want, "Error") {
				fmt.Fprintf(&b, "    try:\n        %s\n        bad.append(%d)\n    except %s:\n        n += 1\n", code, i, c.want)
				continue
			}
			fmt.Fprintf(&b, "    try:\n        %s\n        if repr(x) == %q:\n            n += 1\n        else:\n            bad.append(%d)\n    except Exception:\n        bad.append(%d)\n", code, c.want, i, i)
		}
	}
	// The augmented forms divide as the plain ones.
	b.WriteString("    z = 7.5\n    z //= -2\n    w = -7.5\n    w %= 2\n    if z == -4.0 and w == 0.5:\n        n += 1\n")
	runCases(t, b.String(), floorCases, 2*len(floorCases)+1)
}
