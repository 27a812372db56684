package pyplugin_test

import (
	"math"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/cablefmu/cablefmu/fmu"
)

// scenario is a small hoist with one plugin, "p", in p.py.
const scenario = `{
  "model": "massless", "modelIdentifier": "PluginTest", "description": "test",
  "stopTime": 10, "step": 0.01,
  "ports": ["suspension.x", "suspension.fz", "cable.tension", "load.z", "load.vx", "load.mass"],
  "config": {
    "gravity": 9.81,
    "bodies": [
      {"name": "suspension", "kind": "kinematic", "position": [0, 0, 20]},
      {"name": "load", "kind": "dynamic", "mass": 1000, "size": [1, 1, 1], "hangsFrom": "cable"}
    ],
    "cables": [{"name": "cable", "route": [{"body": "suspension"}, {"body": "load"}], "length0": 10,
      "rope": {"E": 1e11, "poisson": 0.3, "diameter": 0.02, "density": 7850}, "winch": {"name": "winch"}}]
  },
  "plugins": [{"name": "p", "file": "p.py", "operations": 100000}]
}`

// generous is an operations budget the tests of what plugins compute do
// not reach.
const generous = "1e10"

// withPlugin configures the scenario with p.py and a generous operations
// budget. withOperations sets the budget, as the tests of the budget
// itself do.
func withPlugin(t testing.TB, code string) (fmu.Configured, error) {
	return withOperations(t, code, generous)
}

func withOperations(t testing.TB, code, operations string) (fmu.Configured, error) {
	return configureDir(t, writeScenario(t, map[string]string{"scenario.json": withLimits(operations), "p.py": code}))
}

// withLimits is the test scenario with the given limits of p's calls
// (JSON members after "operations": the count, then e.g. `, "timeout": 2`).
func withLimits(limits string) string {
	return strings.Replace(scenario, `"operations": 100000`, `"operations": `+limits, 1)
}

// The exporter's checks refuse broken plugins with file:line messages.
func TestCheckRefusesWithFileAndLine(t *testing.T) {
	cases := []struct{ name, code, want string }{
		{"syntax", "def step(sim):\n    x = = 1\n", "p.py:2:9: SyntaxError: invalid syntax"},
		{"unknown name", "def step(sim):\n    x = 1\n    sim.winch('winch').speed = y\n", `p.py:3: unknown name "y"`},
		{"unknown attribute", "def step(sim):\n    p = sim.body('load').postion\n", `p.py:2: unknown attribute "postion"`},
		{"misspelt declaration", "k = paramter('k', 1.0)\ndef step(sim):\n    pass\n", `p.py:1: unknown name "paramter"`},
		{"lambda", "f = 1\ndef step(sim):\n    g = lambda x: x\n", "p.py:3: lambda is not available"},
		{"import", "import os\ndef step(sim):\n    pass\n", "p.py:1: import os: plugins may import only math"},
		{"no hook", "x = 1\n", "p.py:1: the plugin defines neither step(sim) nor communication_point(sim)"},
		{"hook arity", "x = 1\n\ndef step(sim, t):\n    pass\n", "p.py:3: step must be a function of one argument"},
		{"clash", "a = output('x')\nb = input('x')\ndef step(sim):\n    pass\n", `p.py:2:`},
		{"bad unit", "a = output('x', unit='furlong')\ndef step(sim):\n    pass\n", `p.py:1:`},
		{"min above max", "k = parameter('gain', 1.5, unit='1/s', min=3, max=1)\ndef step(sim):\n    pass\n", `parameter("gain"): min 3 above max 1`},
		{"top-level exception", "x = 1 / 0\ndef step(sim):\n    pass\n", "p.py:1:"},
		{"shared type", "def step(sim):\n    type(sim).time = 42.0\n", "p.py:2: setting time on a built-in or API type"},
		{"dunder", "def step(sim):\n    sim.__class__.time = 42.0\n", "p.py:2: attribute __class__"},
		{"setattr", "def step(sim):\n    setattr(sim, 'x', 1)\n", `p.py:2: unknown name "setattr"`},
		{"init fails", "def init(sim):\n    sim.body('lod')\ndef step(sim):\n    pass\n", `no body "lod" in this scenario (bodies: load, suspension)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := withPlugin(t, c.code)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
			t.Log(err)
		})
	}
}

// A plugin's variables clash with the model's only through their prefix,
// and two plugins of one name are refused by the scenario check.
func TestVariablesArePrefixed(t *testing.T) {
	cfg, err := withPlugin(t, "k = parameter('gain', 2.0, unit='1/s', description='a gain', min=0)\nout = output('y', unit='m')\ndef step(sim):\n    out.value = k.value\n")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, v := range cfg.Variables()[len(cfg.Variables())-5:] {
		names = append(names, v.Name+"["+v.Unit+"]")
	}
	if got := strings.Join(names, " "); got != "p.operations[1] p.memory[MB] p.timeout[s] p.gain[1/s] p.y[m]" {
		t.Errorf("plugin variables %s", got)
	}
}

// An exception in step fails the step with the Python traceback, in the
// plugin file's line numbers.
func TestExceptionGivesTraceback(t *testing.T) {
	cfg, err := withPlugin(t, "def helper(x):\n    return 1 / x\n\ndef step(sim):\n    if sim.time > 0.05:\n        helper(0)\n")
	if err != nil {
		t.Fatal(err)
	}
	r := start(t, cfg, nil)
	for i := 0; i < 10; i++ {
		if err = r.step(); err != nil {
			break
		}
	}
	if err == nil {
		t.Fatal("no error from a plugin dividing by zero")
	}
	msg := err.Error()
	for _, want := range []string{"plugin p: step() in p.py raised an exception", "Traceback (most recent call last):", `File "p.py", line 6, in step`, `File "p.py", line 2, in helper`, "ZeroDivisionError"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
}

// Endless plugins are stopped at their operations budget: loops,
// recursion, a loop that swallows the exception, a builtin consuming a
// huge range. The stop is counted, not timed: the same message, at the
// same line, every time.
func TestEndlessPluginStoppedWithinBudget(t *testing.T) {
	cases := map[string]struct{ code, at string }{
		"while":            {"def step(sim):\n    while True:\n        pass\n", "p.py:5"},
		"same line":        {"def step(sim):\n    while True: pass\n", "p.py:4"},
		"for":              {"def step(sim):\n    for i in range(10**15):\n        x = i\n", "p.py:5"},
		"swallow":          {"def step(sim):\n    while True:\n        try:\n            while True:\n                pass\n        except:\n            pass\n", "p.py:5"},
		"builtin":          {"def step(sim):\n    return sum(range(10**15))\n", "p.py:4"},
		"comprehension":    {"def step(sim):\n    return [i for i in range(10**15)]\n", "p.py:4"},
		"recursion":        {"def f(n):\n    return f(n + 1)\n\ndef step(sim):\n    f(0)\n", ""},
		"nested def first": {"def step(sim):\n    while True:\n        def g():\n            pass\n        g()\n", "p.py:6"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			var first string
			for run := range 2 {
				cfg, err := withOperations(t, "def init(sim):\n    pass\n"+c.code, "100000")
				if err != nil {
					t.Fatal(err)
				}
				r := start(t, cfg, nil)
				err = r.step()
				if err == nil {
					t.Fatal("no error")
				}
				if run == 0 {
					first = err.Error()
					t.Log(first)
				} else if err.Error() != first {
					t.Errorf("run 0 stopped with\n%s\nrun 1 with\n%s", first, err)
				}
			}
			if name == "recursion" {
				if !strings.Contains(first, "maximum recursion depth") {
					t.Errorf("want the recursion limit, got %v", first)
				}
				return
			}
			if want := "ran past its budget of 100000 operations (parameter p.operations) and was stopped at " + c.at; !strings.Contains(first, want) {
				t.Errorf("want %q, got %v", want, first)
			}
		})
	}
}

// Rollback: saving a state, running on, restoring and running again gives
// bitwise the same outputs, plugin globals included.
func TestRollbackWithPluginStateIsExact(t *testing.T) {
	code := `
count = 0
history = []
alias = history
loop = [1]
loop.append(loop)
info = {"peak": 0.0, "name": "x", "flags": (True, None)}
out = output("remembered", unit="1")
outs = [out]
load = None

class Counter:
    n = 0

def init(sim):
    global load
    load = sim.body("load")

def step(sim):
    global count
    count += 1
    Counter.n += 2
    t = sim.cable("cable").tension
    history.append(t)
    if len(alias) > 5:
        del history[0]
    info["peak"] = max(info["peak"], t)
    outs[0].value = count + Counter.n + len(alias) + sum(history) * 1e-3 + info["peak"] + load.position[2] + len(loop[1])
    sim.body("load").apply_force(100.0 * math.sin(count * 0.1), 0.0, 0.0)
    sim.winch("winch").speed = 0.1 * math.cos(count * 0.05)
`
	cfg, err := withPlugin(t, "import math\n"+code)
	if err != nil {
		t.Fatal(err)
	}
	r := start(t, cfg, nil)
	for i := 0; i < 50; i++ {
		if err := r.step(); err != nil {
			t.Fatal(err)
		}
	}
	saved := r.save(t)
	trace := func() []float64 {
		var out []float64
		for i := 0; i < 50; i++ {
			if err := r.step(); err != nil {
				t.Fatal(err)
			}
			out = append(out, r.values...)
		}
		return out
	}
	first := trace()
	r = restored(t, cfg, saved)
	second := trace()
	for i := range first {
		if math.Float64bits(first[i]) != math.Float64bits(second[i]) {
			t.Fatalf("value %d differs after rollback: %v vs %v", i, first[i], second[i])
		}
	}
}

// A name the plugin rebinds to another of its functions is state: a
// state machine held in a function replays from a restored state (it
// kept the function bound at the save's end, and the rollback ran on from
// the wrong state); so does a class attribute rebound so. A restored state
// that rebinds none binds the code's own function again.
func TestRollbackRestoresFunctionsBound(t *testing.T) {
	code := `
o = output("o", unit="1")
def a():
    return 1.0
def b():
    return 2.0
def c():
    return 20.0
class K:
    def f():
        return 100.0
h = a
count = 0
def step(sim):
    global h, count
    count += 1
    o.value = h() + K.f()
    if count == 20:
        h = b
    if count == 30:
        K.f = c
    if count == 40:
        h = a
`
	cfg, err := withPlugin(t, code)
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []int{10, 25, 35} { // saved with h = a, K.f its own; h = b; both rebound
		r := start(t, cfg, nil)
		for i := 0; i < at; i++ {
			if err := r.step(); err != nil {
				t.Fatal(err)
			}
		}
		saved := r.save(t)
		trace := func() []float64 {
			var out []float64
			for i := 0; i < 40; i++ {
				if err := r.step(); err != nil {
					t.Fatal(err)
				}
				out = append(out, r.get(t, "p.o"))
			}
			return out
		}
		first := trace()
		r = restored(t, cfg, saved)
		if second := trace(); !slices.Equal(first, second) {
			t.Errorf("saved after %d steps: %v, after the rollback %v", at, first, second)
		}
	}
	// Built-in functions alike, by the top-level name bound to them (a
	// state machine switching math.floor for math.ceil restored the one
	// of the save's end, silently).
	cfg, err = withPlugin(t, "import math\no = output(\"o\", unit=\"1\")\nfloor = math.floor\nceil = math.ceil\npick = floor\ncount = 0\n\ndef step(sim):\n    global pick, count\n    count += 1\n    o.value = pick(2.5)\n    if count == 5:\n        pick = ceil\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []int{3, 7} {
		r := start(t, cfg, nil)
		for i := 0; i < at; i++ {
			if err := r.step(); err != nil {
				t.Fatal(err)
			}
		}
		saved := r.save(t)
		var first, second []float64
		for i := 0; i < 5; i++ {
			if err := r.step(); err != nil {
				t.Fatal(err)
			}
			first = append(first, r.get(t, "p.o"))
		}
		r = restored(t, cfg, saved)
		for i := 0; i < 5; i++ {
			if err := r.step(); err != nil {
				t.Fatal(err)
			}
			second = append(second, r.get(t, "p.o"))
		}
		if !slices.Equal(first, second) {
			t.Errorf("built-ins, saved after %d steps: %v, after the rollback %v", at, first, second)
		}
	}
	cfg, err = withPlugin(t, "import math\npick = None\n\ndef step(sim):\n    global pick\n    pick = math.trunc\n")
	if err != nil {
		t.Fatal(err)
	}
	r := start(t, cfg, nil)
	if err := r.step(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.sim.(fmu.ExtraState).SaveExtra(nil); err == nil || !strings.Contains(err.Error(), "global pick: holds the") {
		t.Fatalf("a built-in bound under no top-level name: %v, want the save refused naming it", err)
	}
	// A nested function bound at run time is no top-level definition to
	// name: the save fails naming it rather than leaving it out.
	cfg, err = withPlugin(t, "h = None\n\ndef step(sim):\n    global h\n    def inner():\n        return 1.0\n    h = inner\n")
	if err != nil {
		t.Fatal(err)
	}
	r = start(t, cfg, nil)
	if err := r.step(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.sim.(fmu.ExtraState).SaveExtra(nil); err == nil || !strings.Contains(err.Error(), "global h: holds the function") {
		t.Fatalf("a nested function in a global: %v, want the save refused naming it", err)
	}
}

// A global the state cannot hold is refused with its name.
func TestUnsavableGlobalIsReported(t *testing.T) {
	cfg, err := withPlugin(t, "class C:\n    pass\n\nc = None\n\ndef step(sim):\n    global c\n    c = C()\n")
	if err != nil {
		t.Fatal(err)
	}
	r := start(t, cfg, nil)
	if err := r.step(); err != nil {
		t.Fatal(err)
	}
	_, err = r.sim.(fmu.ExtraState).SaveExtra(nil)
	if err == nil || !strings.Contains(err.Error(), "global c: holds a C") {
		t.Fatalf("got %v", err)
	}
}

// The budget instrumentation keeps legal Python legal and working:
// defaults and annotations, methods, decorated defs and
// classes first in a loop, headers over several lines or ending in a
// string, backslash continuations, non-ASCII text before an insertion.
func TestInstrumentationKeepsPythonWorking(t *testing.T) {
	code := `
out = output("y", unit="1")

def deco(f):
    return f

class C:
    def m(self, x):
        return x + 1

def helper(x, k=2.0, *rest, scale: float = 1.0) -> float:
    """Docstring first."""
    return k * x * scale

def step(sim):
    total = helper(1.0) + C().m(1)
    for i in range(2):
        @deco
        def inner():
            return 1
        total += inner()
    n = 0
    while (n <
           3): n += 1
    while len("""
"""): break
    while n < 5: \
        n += 1
    for c in "é": total += len(c)
    if total > 0:
        for j in [1]: total += j
    out.value = total + n
`
	r := stepOnce(t, code)
	// 2 + 2 + 2·1 + 1 ("é") + 1 + n = 5
	if got := r.get(t, "p.y"); got != 13 {
		t.Errorf("plugin computed %g, want 13", got)
	}
}

// Endless loops written in the awkward forms are stopped too.
func TestEndlessAwkwardLoopsStopped(t *testing.T) {
	for name, body := range map[string]string{
		"string header": "    while len(\"\"\"\n\"\"\"): pass\n",
		"multi-line":    "    while (1 <\n           2): pass\n",
		"backslash":     "    while 1: \\\n        pass\n",
		"decorated def": "    while True:\n        @deco\n        def g():\n            pass\n",
	} {
		t.Run(name, func(t *testing.T) {
			cfg, err := withOperations(t, "def deco(f):\n    return f\n\ndef step(sim):\n"+body, "100000")
			if err != nil {
				t.Fatal(err)
			}
			r := start(t, cfg, nil)
			err = r.step()
			if err == nil || !strings.Contains(err.Error(), "ran past its budget of 100000 operations") {
				t.Fatalf("got %v", err)
			}
		})
	}
}

// A plugin that overruns its operations budget fails at the same simulated
// time with the same message on a quiet machine and on one whose cores
// are all busy (two CPU-bound processes per core beside it): the budget
// is counted, not timed.
func TestBudgetStopIsTheSameUnderLoad(t *testing.T) {
	code := "def step(sim):\n    n = 0\n    while n < sim.time * 1000000:\n        n += 1\n"
	stop := func() (float64, string) {
		cfg, err := withOperations(t, code, "100000")
		if err != nil {
			t.Fatal(err)
		}
		r := start(t, cfg, nil)
		for r.t < 1 {
			if err := r.step(); err != nil {
				return r.t, err.Error()
			}
		}
		t.Fatal("no stop in 1 s")
		return 0, ""
	}
	quietT, quietMsg := stop()
	var burners []*exec.Cmd
	for range 2 * runtime.NumCPU() {
		burn := exec.Command("sh", "-c", "while :; do :; done")
		if err := burn.Start(); err != nil {
			t.Fatal(err)
		}
		burners = append(burners, burn)
	}
	loadedT, loadedMsg := stop()
	for _, burn := range burners {
		_ = burn.Process.Kill()
		_ = burn.Wait()
	}
	t.Logf("quiet: t = %g s: %s", quietT, quietMsg)
	if quietT != loadedT || quietMsg != loadedMsg {
		t.Errorf("loaded: t = %g s: %s", loadedT, loadedMsg)
	}
	// n reaches sim.time·10⁶ within 10⁵ operations (one per iteration,
	// the check at the start of the loop's body) up to t = 0.1 s.
	if quietT < 0.09 || quietT > 0.11 || !strings.Contains(quietMsg, "ran past its budget of 100000 operations (parameter p.operations) and was stopped at p.py:4") {
		t.Errorf("stopped at t = %g s: %s", quietT, quietMsg)
	}
}

// The scenario's limits of a plugin's calls are checked: the time budget
// of earlier versions is refused with what replaced it, and operations
// are a whole number in range.
func TestPluginLimitsInTheScenario(t *testing.T) {
	for _, c := range []struct{ limits, want string }{
		{`100000, "budget": 0.05`, `"budget" (a time in seconds) is replaced by "operations"`},
		{`2.5`, "operations 2.5: must be a whole number in [1, 1e+12]"},
		{`-1`, "operations -1: must be a whole number"},
		{`1e13`, "operations 1e+13: must be a whole number"},
		{`100000, "timeout": 0.001`, "timeout 0.001 s: must lie in [0.01, 3600]"},
		{`100000, "timeout": 1e9`, "timeout 1e+09 s: must lie in [0.01, 3600]"},
	} {
		_, err := fmu.ParseScenario([]byte(withLimits(c.limits)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.limits, err, c.want)
		}
	}
	sc, err := fmu.ParseScenario([]byte(withLimits(`7, "timeout": 2.5, "memory": 16`)))
	if err != nil {
		t.Fatal(err)
	}
	if o, m, to := sc.Plugins[0].Limits(); o != 7 || m != 16 || to != 2.5 {
		t.Errorf("limits %g, %g, %g", o, m, to)
	}
	sc, err = fmu.ParseScenario([]byte(strings.Replace(scenario, `, "operations": 100000`, ``, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if o, m, to := sc.Plugins[0].Limits(); o != fmu.DefaultOperations || m != fmu.DefaultMemory || to != fmu.DefaultTimeout {
		t.Errorf("default limits %g, %g, %g", o, m, to)
	}
	// The default wall-clock guard stays above what a large operations
	// budget allows.
	for ops, want := range map[string]float64{"1e7": 50, "1e12": fmu.MaxTimeout} {
		sc, err := fmu.ParseScenario([]byte(withLimits(ops)))
		if err != nil {
			t.Fatal(err)
		}
		if _, _, to := sc.Plugins[0].Limits(); math.Abs(to-want) > 1e-9*want {
			t.Errorf("operations %s: default timeout %g s, want %g", ops, to, want)
		}
	}
	// The parameter set by a master must be whole too.
	cfg, err := withPlugin(t, "def step(sim):\n    pass\n")
	if err != nil {
		t.Fatal(err)
	}
	var values []float64
	for _, v := range cfg.Variables() {
		x := v.Start
		if v.Name == "p.operations" {
			x = 1.5
		}
		values = append(values, x)
	}
	if _, err := cfg.NewSimulation(values); err == nil || !strings.Contains(err.Error(), "p.operations = 1.5: must be a whole number") {
		t.Errorf("operations 1.5 set as a parameter: %v", err)
	}
}

// A plugin saved as UTF-8 with a byte order mark, as Windows editors
// save it, is read without it: it was a syntax error on its first line.
func TestPluginWithByteOrderMark(t *testing.T) {
	cfg, err := withPlugin(t, "\ufeffout = output('y', unit='m')\ndef step(sim):\n    out.value = 2.5\n")
	if err != nil {
		t.Fatal(err)
	}
	r := start(t, cfg, nil)
	if err := r.step(); err != nil {
		t.Fatal(err)
	}
	if got := r.get(t, "p.y"); got != 2.5 {
		t.Errorf("p.y %g, want 2.5", got)
	}
}

// A winch speed beyond what any winch runs is refused at the plugin's
// line, as a ValueError with its traceback: checked only at the step, the
// error named neither the plugin nor its line.
func TestWinchSpeedRefusedAtTheLine(t *testing.T) {
	cfg, err := withPlugin(t, "def step(sim):\n    if sim.time > 0.02:\n        sim.winch('winch').speed = 2000.0\n")
	if err != nil {
		t.Fatal(err)
	}
	r := start(t, cfg, nil)
	for i := 0; i < 10 && err == nil; i++ {
		err = r.step()
	}
	if err == nil {
		t.Fatal("a winch speed of 2000 m/s taken")
	}
	for _, want := range []string{"plugin p: step() in p.py raised an exception", `File "p.py", line 3, in step`, "ValueError", "winch.speed 2000 m/s"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}
