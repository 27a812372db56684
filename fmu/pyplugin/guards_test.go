package pyplugin_test

// Determinism and Python semantics of the guards: dicts and sets in a
// fixed order however a plugin consumes them, patterns assigned in
// Python's order, strings sized, complex numbers printed as CPython.

import (
	"math"
	"strings"
	"testing"
)

// runCompute runs compute() (which returns a number) once in a step with
// the given operations budget.
func runCompute(t *testing.T, code, operations string) (float64, error) {
	t.Helper()
	sc := withLimits(operations)
	src := "out = output(\"y\", unit=\"1\")\n" + code + "\ndef step(sim):\n    out.value = compute()\n"
	cfg, err := configureDir(t, writeScenario(t, map[string]string{"scenario.json": sc, "p.py": src}))
	if err != nil {
		t.Fatal(err)
	}
	r := start(t, cfg, nil)
	err = r.step()
	return r.get(t, "p.y"), err
}

// sameEveryRun fails if compute() gives different bits in 30 runs.
func sameEveryRun(t *testing.T, code string) {
	t.Helper()
	seen := map[uint64]int{}
	for range 30 {
		v, err := runCompute(t, code, generous)
		if err != nil {
			t.Fatal(err)
		}
		seen[math.Float64bits(v)]++
	}
	if len(seen) > 1 {
		t.Errorf("%d different results in 30 runs: %v", len(seen), seen)
	}
}

func TestSumOfSetIsDeterministic(t *testing.T) {
	sameEveryRun(t, `def compute():
    s = set([0.1 * i + 1e-3 / (i + 1) for i in range(40)])
    return sum(s)
`)
}

func TestKeyTiesAreDeterministic(t *testing.T) {
	sameEveryRun(t, `def k(x):
    return len(x)
def compute():
    d = {"bb": 1, "aa": 2, "cc": 3, "dd": 4, "ee": 5, "ff": 6, "gg": 7}
    a = sorted(d, key=k)[0]
    return d[a] * 100 + d[max(d, key=k)] * 10 + d[min(d, key=k)]
`)
}

func TestSliceStoreFromSetIsDeterministic(t *testing.T) {
	sameEveryRun(t, `def compute():
    z = [0]
    z[0:1] = {3.0, 1.0, 2.0, 5.0, 4.0, 7.0, 6.0, 9.0, 8.0}
    return z[0] * 10 + z[1]
`)
}

func TestPlainPatternsUnpackDictsDeterministically(t *testing.T) {
	sameEveryRun(t, `def compute():
    d = {"p": 1.0, "q": 2.0, "r": 3.0}
    x = a, b, c = d
    (e, f, g), h = d, 1
    n = 0.0
    for p, q, r in [d]:
        n = ord(p) * 1e6 + ord(q) * 1e3 + ord(r)
    return (ord(a) * 1e6 + ord(b) * 1e3 + ord(c)) * 7 + (ord(e) * 1e6 + ord(f) * 1e3 + ord(g)) * 3 + n
`)
}

// CPython: x == 3 (targets are assigned left to right).
func TestNestedStarredKeepsAssignmentOrder(t *testing.T) {
	v, err := runCompute(t, `def compute():
    (x, *y), x = [1, 2], 3
    return x
`, generous)
	if err != nil || v != 3 {
		t.Errorf("got %v, %v; CPython gives 3", v, err)
	}
}

// A set of exceptions iterates (ordering it must not print them: gpython's
// repr of an exception without arguments panics).
func TestSetOfExceptionsIterates(t *testing.T) {
	v, err := runCompute(t, `def compute():
    s = {ValueError(), KeyError()}
    n = 0
    for x in s:
        n += 1
    return n
`, generous)
	if err != nil || v != 2 {
		t.Errorf("got %v, %v; want 2", v, err)
	}
}

// Ordering a set compares objects other than numbers, strings, bytes and
// tuples by their type's name: printing 300 exceptions with a 1 MB message
// at each comparison took seconds in one Go call (a regression hangs the
// test).
func TestSetOfBigExceptionsIsOrderedByType(t *testing.T) {
	v, err := runCompute(t, `def compute():
    big = "x" * 1000000
    s = {ValueError(big) for i in range(300)}
    for x in s:
        pass
    return 7
`, generous)
	if err != nil || v != 7 {
		t.Errorf("got %v, %v; want 7", v, err)
	}
}

// dict(s) makes a list of one string per character in one Go call: it is
// sized as list/tuple/set/sorted are.
func TestDictOfLongStringIsSized(t *testing.T) {
	_, err := runCompute(t, `def compute():
    s = "a" * 10000000
    try:
        d = dict(s)
    except TypeError:
        pass
    return 0
`, generous)
	if err == nil || !strings.Contains(err.Error(), "MemoryError") {
		t.Errorf("dict(s) gave %v; want a MemoryError", err)
	}
}

// Complex numbers print as CPython prints them (gpython: (0+1j)).
func TestComplexPrintsAsPython(t *testing.T) {
	computesAsCPython(t, `def compute():
    text = str([1j, 2+3j, -1.5j, complex(-0.0, -1), complex(1, -0.0), 1e16j, 0j, -0j, 2.5+0j]) + repr(3-4j)
    h = 0
    for i, c in enumerate(text):
        h = (h * 31 + ord(c) * (i % 7 + 1)) % 1000003
    return h * 1000 + len(text) % 1000
`, 638994077)
}
