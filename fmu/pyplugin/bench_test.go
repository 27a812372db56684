package pyplugin_test

import (
	"os"
	"strings"
	"testing"
)

// benchStep measures one internal step of the example's hoist with the
// given plugin files (none: the bare model, through the same harness).
func benchStep(b *testing.B, plugins string, files map[string]string) {
	sc, err := os.ReadFile(exampleDir + "/scenario.json")
	if err != nil {
		b.Fatal(err)
	}
	// The plugin list closes the example's scenario: replace it.
	text := string(sc)
	at := strings.Index(text, `"plugins": [`)
	if at < 0 {
		b.Fatal("the example's scenario has no plugin list")
	}
	files["scenario.json"] = text[:at] + `"plugins": [` + plugins + "]\n}\n"
	cfg, err := configureDir(b, writeScenario(b, files))
	if err != nil {
		b.Fatal(err)
	}
	r := start(b, cfg, nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := r.sim.Step(0, r.values, r.values, true); err != nil {
			b.Fatal(err)
		}
	}
}

func example(b *testing.B, name string) string {
	text, err := os.ReadFile(exampleDir + "/" + name)
	if err != nil {
		b.Fatal(err)
	}
	return string(text)
}

// BenchmarkStepNoPlugin is the reference: a plugin that is only called at
// communication points costs nothing per internal step.
func BenchmarkStepNoPlugin(b *testing.B) {
	benchStep(b, `{"name": "idle", "file": "idle.py"}`, map[string]string{"idle.py": "def communication_point(sim):\n    pass\n"})
}

// BenchmarkStepEmptyPlugin: the bare cost of calling a plugin.
func BenchmarkStepEmptyPlugin(b *testing.B) {
	benchStep(b, `{"name": "empty", "file": "empty.py"}`, map[string]string{"empty.py": "def step(sim):\n    pass\n"})
}

// BenchmarkStepController: the example's winch controller, a step of
// about 20 lines calling a helper.
func BenchmarkStepController(b *testing.B) {
	benchStep(b, `{"name": "controller", "file": "controller.py"}`, map[string]string{"controller.py": example(b, "controller.py")})
}

// BenchmarkStepWind: the example's wind drag, 5 lines.
func BenchmarkStepWind(b *testing.B) {
	benchStep(b, `{"name": "wind", "file": "wind.py"}`, map[string]string{"wind.py": example(b, "wind.py")})
}

// BenchmarkStepControllerAndWind: the example as exported.
func BenchmarkStepControllerAndWind(b *testing.B) {
	benchStep(b, `{"name": "controller", "file": "controller.py"}, {"name": "wind", "file": "wind.py"}`,
		map[string]string{"controller.py": example(b, "controller.py"), "wind.py": example(b, "wind.py")})
}

// twentyLines is a plugin of 20 lines: a PI height controller that stops
// hoisting near a tension limit.
const twentyLines = `target = parameter("target", 8.0, unit="m")
kp = parameter("kp", 1.0, unit="1/s")
ki = parameter("ki", 0.1)
limit = parameter("limit", 12000.0, unit="N")
error = output("error", unit="m")
integral = 0.0

def step(sim):
    global integral
    err = target.value - sim.body("load").position[2]
    integral += err * sim.dt
    v = kp.value * err + ki.value * integral
    if v > 0.5:
        v = 0.5
    elif v < -0.5:
        v = -0.5
    if sim.cable("cable").tension > 0.9 * limit.value and v > 0:
        v = 0.0
    sim.winch("winch").speed = -v
    error.value = err
`

// BenchmarkStepTwentyLines: the cost of a typical 20-line plugin.
func BenchmarkStepTwentyLines(b *testing.B) {
	benchStep(b, `{"name": "pi", "file": "pi.py"}`, map[string]string{"pi.py": twentyLines})
}

// BenchmarkStepLoops: tight loops, 300 iterations each of a for
// statement, a list comprehension and a generator expression (what the
// loop guards cost per iteration).
func BenchmarkStepLoops(b *testing.B) {
	benchStep(b, `{"name": "loops", "file": "loops.py"}`, map[string]string{"loops.py": `def step(sim):
    t = 0.0
    for i in range(300):
        t += i
    t += sum([i * 0.5 for i in range(300)])
    t += sum(i * 0.25 for i in range(300))
`})
}

// BenchmarkOperation measures what one operation of the operations budget
// costs on this machine, for the conversion of operations to time in this
// package's README.md: each loop runs until its budget of 10⁶ operations
// stops it, and the time of that call over 10⁶ is the time per operation.
func BenchmarkOperation(b *testing.B) {
	const operations = 1e6
	for _, c := range []struct{ name, body string }{
		{"while arithmetic", "    x = 0.0\n    while True:\n        x = x * 0.5 + 1.0\n"},
		{"for range", "    x = 0.0\n    for i in range(10**15):\n        x += i\n"},
		{"comprehension", "    return [i * 0.5 for i in range(10**15)]\n"},
		{"function calls", "    while True:\n        f(1.0)\n"},
		{"attribute reads", "    while True:\n        v = sim.body('load').position[2] + sim.cable('cable').tension\n"},
	} {
		b.Run(c.name, func(b *testing.B) {
			code := "def f(x):\n    return x * 2.0\n\ndef step(sim):\n" + c.body
			cfg, err := withOperations(b, code, "1e6")
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				r := start(b, cfg, nil)
				b.StartTimer()
				if err := r.step(); err == nil || !strings.Contains(err.Error(), "operations") {
					b.Fatalf("want a stop at the operations budget, got %v", err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/operations, "ns/operation")
		})
	}
}
