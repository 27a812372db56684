package hmrwire

import (
	"fmt"
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// The cost of Step ([SLNB11] Figs. 7–9): a chain, a net and a wire over
// a cylinder, reported per step, per node (mass nodes and bodies) and
// split into the phases of StepTiming; the solver's own share split into
// symbolic (ordering, analysis), assembly, numeric factorization and
// substitution.

// benchRope is a 10 mm steel rope.
var benchRope = testRope(1.5e7, 0.4, 0.01)

// benchStep steps sys b.N times after a settling second and reports the
// cost per node and the split.
func benchStep(b *testing.B, sys *System, nodes func() int) {
	sys.Timing = &StepTiming{} // from the start: the analysis counts L's nonzeros
	for i := 0; i < 60; i++ {
		if err := sys.Step(benchH); err != nil {
			b.Fatal(err)
		}
	}
	benchSteps(b, sys, nodes, 0, nil)
}

// benchH is the step the benchmarks take (s): the co-simulation's.
const benchH = 1.0 / 60

// benchSteps times b.N steps of sys, settled with its Timing set, and
// reports the cost per step and per node, the split into the phases of
// StepTiming and how many times faster than real time a step of benchH
// runs (x-realtime). If cycle > 0, every cycle steps restart puts the
// system back where the timing began, untimed and uncounted in the split:
// a phase that cannot go on for ever (a winch hauling in) is measured
// over windows of cycle steps.
func benchSteps(b *testing.B, sys *System, nodes func() int, cycle int, restart func()) {
	tm := sys.Timing
	nnz, unknowns := tm.Solver.Nonzeros, tm.Solver.Unknowns
	*tm = StepTiming{}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if cycle > 0 && i > 0 && i%cycle == 0 {
			b.StopTimer()
			kept := *tm
			restart()
			*tm = kept
			b.StartTimer()
		}
		if err := sys.Step(benchH); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	n := float64(b.N)
	per := float64(b.Elapsed().Nanoseconds()) / n
	b.ReportMetric(float64(nodes()), "nodes")
	b.ReportMetric(per/float64(nodes()), "ns/node")
	b.ReportMetric(benchH*1e9/per, "x-realtime")
	s := &tm.Solver
	b.ReportMetric(float64(tm.Contacts.Nanoseconds())/n, "ns-contacts")
	b.ReportMetric(float64(tm.Resolution.Nanoseconds())/n, "ns-resolution")
	b.ReportMetric(float64((s.Ordering+s.Analysis).Nanoseconds())/n, "ns-symbolic")
	b.ReportMetric(float64(s.Assembly.Nanoseconds())/n, "ns-assembly")
	b.ReportMetric(float64(s.Factorization.Nanoseconds())/n, "ns-numeric")
	b.ReportMetric(float64(s.Substitution.Nanoseconds())/n, "ns-solve")
	if s.Nonzeros > 0 { // analysed again while timed
		nnz, unknowns = s.Nonzeros, s.Unknowns
	}
	b.ReportMetric(float64(s.Factorizations)/n, "factorizations/step")
	b.ReportMetric(float64(s.Analyses)/n, "analyses/step")
	b.ReportMetric(float64(s.Reused)/n, "reused/step") // kept analyses taken up
	b.ReportMetric(float64(unknowns), "unknowns")
	b.ReportMetric(float64(nnz), "nnz(L)")
	rest := tm.World - s.Ordering - s.Analysis - s.Assembly - s.Factorization - s.Substitution
	b.ReportMetric(float64(rest.Nanoseconds())/n, "ns-rows+integration")
}

// wireChain stretches a wire of n segments of 0.1 m between two fixed
// points without gravity, at 1 N (below f_crit of its 40 g nodes):
// the multibody chain of Fig. 7, top. Adaptive, it coarsens to its ends.
func wireChain(b *testing.B, n int, adaptive bool) (*System, *Wire) {
	sys := NewSystem(geom.Vec3{})
	L := 0.1 * float64(n)
	a := sys.World.AddBody(multibody.NewStatic("a", geom.Vec3{}))
	c := sys.World.AddBody(multibody.NewStatic("c", geom.V(L, 0, 0)))
	w, err := sys.AddWire(WireSpec{Name: "chain", Rope: benchRope, Spacing: 0.1, Tension: 1,
		Resolution: Resolution{Adaptive: adaptive, MaxMassNodes: n + 1, MinSegment: 0.05},
		Route:      []RoutePoint{{Kind: End, Point: a.Pos, Body: a}, {Kind: End, Point: c.Pos, Body: c}}})
	if err != nil {
		b.Fatal(err)
	}
	return sys, w
}

func BenchmarkWireChain(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprintf("N=%d/uniform", n), func(b *testing.B) {
			sys, w := wireChain(b, n, false)
			benchStep(b, sys, func() int { m, _, _ := w.Counts(); return m })
		})
	}
	b.Run("N=1000/adaptive", func(b *testing.B) {
		sys, w := wireChain(b, 1000, true)
		benchStep(b, sys, func() int { m, _, _ := w.Counts(); return m })
	})
}

// wireNet is a side × side net of 1 kg particles, the border fixed, each
// joined to its neighbours by a wire of `per` segments, without gravity
// and at 1 N: the net of Fig. 7, lower left, with its closed loops.
func wireNet(b *testing.B, side, per int) *System {
	sys := NewSystem(geom.Vec3{})
	const pitch = 0.5
	at := make([][]*multibody.Body, side)
	for i := range at {
		at[i] = make([]*multibody.Body, side)
		for j := range at[i] {
			p := geom.V(pitch*float64(i), pitch*float64(j), 0)
			if i == 0 || j == 0 || i == side-1 || j == side-1 {
				at[i][j] = sys.World.AddBody(multibody.NewStatic("border", p))
			} else {
				at[i][j] = sys.World.AddBody(multibody.NewParticle("knot", 1, p))
			}
		}
	}
	join := func(p, q *multibody.Body) {
		if p.Kind == multibody.Static && q.Kind == multibody.Static {
			return
		}
		if _, err := sys.AddWire(WireSpec{Name: "mesh", Rope: benchRope, Spacing: pitch / float64(per), Tension: 1,
			Resolution: Resolution{MaxMassNodes: per + 1},
			Route:      []RoutePoint{{Kind: End, Point: p.Pos, Body: p}, {Kind: End, Point: q.Pos, Body: q}}}); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; i < side; i++ {
		for j := 0; j < side; j++ {
			if i+1 < side {
				join(at[i][j], at[i+1][j])
			}
			if j+1 < side {
				join(at[i][j], at[i][j+1])
			}
		}
	}
	return sys
}

func BenchmarkWireNet(b *testing.B) {
	for _, side := range []int{8, 16, 32} {
		for _, per := range []int{1, 4} {
			b.Run(fmt.Sprintf("side=%d/segments=%d", side, per), func(b *testing.B) {
				sys := wireNet(b, side, per)
				benchStep(b, sys, func() int { return len(sys.World.Bodies()) })
			})
		}
	}
}

// wireOverCylinder hangs a 100 kg box from each end of a 1 kg wire laid
// over a fixed n-gon cylinder (radius 0.5 m, μ = 0.3): the resting
// contact of Figs. 9–10. Adaptive, the wire keeps only its two end nodes
// and puts a contact node on every edge it wraps.
func wireOverCylinder(b *testing.B, sides int, adaptive bool) (*System, *Wire) {
	sys := NewSystem(geom.V(0, 0, -g0))
	drumBody := sys.World.AddBody(multibody.NewStatic("drum", geom.Vec3{}))
	shape, err := Prism(sides, 0.5, 1)
	if err != nil {
		b.Fatal(err)
	}
	drum, err := NewGeometry("drum", drumBody, shape, geom.Vec3{}, geom.AxisAngle(geom.V(1, 0, 0), -math.Pi/2), 0.3)
	if err != nil {
		b.Fatal(err)
	}
	sys.AddGeometry(drum)
	const m, drop = 100.0, 2.0
	left := sys.World.AddBody(multibody.NewBody("left", m, multibody.BoxInertia(m, 0.3, 0.3, 0.3), geom.V(-0.5, 0, -drop-0.15)))
	right := sys.World.AddBody(multibody.NewBody("right", m, multibody.BoxInertia(m, 0.3, 0.3, 0.3), geom.V(0.5, 0, -drop-0.15)))
	route := []RoutePoint{{Kind: End, Point: geom.V(-0.5, 0, -drop), Body: left}}
	for k := sides / 2; k >= 0; k-- {
		psi := 2 * math.Pi * float64(k) / float64(sides)
		route = append(route, RoutePoint{Kind: Wrap, Point: geom.V(0.5*math.Cos(psi), 0, 0.5*math.Sin(psi)), Geometry: drum})
	}
	route = append(route, RoutePoint{Kind: End, Point: geom.V(0.5, 0, -drop), Body: right})
	length := 2*drop + math.Pi*0.5
	w, err := sys.AddWire(WireSpec{Name: "wire", Rope: testRope(1.5e7, 1/length, 0.01),
		Spacing: 0.25, Tension: m * g0, Resolution: Resolution{Adaptive: adaptive, MaxMassNodes: 64, MinSegment: 0.05}, Route: route})
	if err != nil {
		b.Fatal(err)
	}
	return sys, w
}

func BenchmarkWireOverCylinder(b *testing.B) {
	for _, sides := range []int{16, 32, 64, 128, 256} {
		b.Run(fmt.Sprintf("sides=%d", sides), func(b *testing.B) {
			sys, w := wireOverCylinder(b, sides, true)
			benchStep(b, sys, func() int { m, _, c := w.Counts(); return m + c })
		})
	}
}

// exampleCrane is the example scenario's crane (examples/wire-hoist):
// craneSpec(4, 40), its slack wire refining to at most 50 mass nodes
// (see TestHoistResolutionConvergence).
func exampleCrane() HoistSpec {
	spec := craneSpec(4, 40)
	spec.Resolution.MaxMassNodes = 50
	spec.Rope.Flexible = true // as the example scenario's wire, which gives no bending stiffness
	return spec
}

// BenchmarkWireHoist steps the example crane (exampleCrane: four falls
// of 40 m, a 20 t load, some 220 m of 20 mm rope from the drum to the
// dead end) in the phases of the example's co-simulation, each after
// settling: hanging at rest (the drum held in speed mode), hauling in at
// 1.2 m/s at the drum (speed mode, ramped up as TestHoistKinematics
// does), the boom tip moving at 0.5 m/s (along x, in the reeving's plane,
// as TestHoistSwing moves it) and the load set down on the ground with
// the wire slack (as TestHoistSetDownAndLift sets it down, then 3 s
// more); and set down with the slack wire refining to at most 200 mass
// nodes, which it reaches and leaves some 200 times a second as the
// slack falls swing. Hauling and the boom's move cannot go on for ever,
// and the slack wire moves unevenly: those are timed over windows of
// 10 s, each from the state they were settled in. Each phase but the
// last runs also with the wire bending (bending/) and bending and
// twisting (twisting/), for the costs of bending and torsion.
func BenchmarkWireHoist(b *testing.B) {
	const window = 600 // steps of benchH: 10 s
	// settled settles the crane of spec for a second, Timing set; crane
	// the example's.
	settled := func(b *testing.B, spec HoistSpec) *Hoist {
		ho := newCrane(b, spec)
		ho.Sys.Timing = &StepTiming{}
		ho.run(b, 1, nil)
		return ho
	}
	nodes := func(ho *Hoist) func() int {
		return func() int { m, _, c := ho.Wire.Counts(); return m + c }
	}
	// windowed times ho from its present state over windows, move (the
	// inputs of the phase) set again at each window's start.
	windowed := func(b *testing.B, ho *Hoist, move func()) {
		saved := ho.Sys.SaveState(nil)
		benchSteps(b, ho.Sys, nodes(ho), window, func() {
			if _, err := ho.Sys.LoadState(saved); err != nil {
				b.Fatal(err)
			}
			move()
			// The first step after a restore lays the rows out anew:
			// taken untimed, as a step of the window's start.
			if err := ho.Step(benchH); err != nil {
				b.Fatal(err)
			}
		})
	}
	ground := func(b *testing.B, ho *Hoist) {
		const v = 1.2 // m/s paid out at the drum
		ho.ramp(b, v, 0.5)
		for t := 0.0; ho.LoadBottom().Z > 0.05; t += benchH {
			if t > 60 {
				b.Fatalf("the load did not reach the ground in 60 s: its bottom at %.3f m", ho.LoadBottom().Z)
			}
			ho.run(b, benchH, nil)
		}
		ho.run(b, 1, nil) // paying out 1 s more: the wire goes slack
		ho.ramp(b, 0, 0.2)
		ho.run(b, 3, nil)
		// Windows keep the figure from depending on how long the
		// benchmark runs while the slack wire's resolution changes.
		windowed(b, ho, func() { ho.Drum.Speed = 0 })
	}
	// The phases for the example's flexible wire (unprefixed), the wire
	// bending with the rope's default stiffness (bending/), and bending
	// and twisting under a six-strand rope's torque (twisting/): the
	// differences are the costs of bending and of torsion.
	for _, rope := range []struct {
		prefix string
		spec   func() HoistSpec
	}{
		{"", exampleCrane},
		{"bending/", func() HoistSpec {
			spec := exampleCrane()
			spec.Rope.Flexible = false
			return spec
		}},
		{"twisting/", func() HoistSpec {
			spec := exampleCrane()
			spec.Rope.Flexible, spec.Twist = false, true
			spec.Rope.TorsionalStiffness, spec.Rope.TorqueFactor = 20, material.TorqueFactorSixStrand
			return spec
		}},
	} {
		crane := func(b *testing.B) *Hoist { return settled(b, rope.spec()) }
		b.Run(rope.prefix+"rest", func(b *testing.B) {
			ho := crane(b)
			ho.run(b, 2, nil)
			benchSteps(b, ho.Sys, nodes(ho), 0, nil)
		})
		b.Run(rope.prefix+"haul", func(b *testing.B) {
			const v = 1.2 // m/s at the drum, 0.3 m/s at the hook
			ho := crane(b)
			ho.ramp(b, -v, 1)
			ho.run(b, 2, nil)
			windowed(b, ho, func() { ho.Drum.Speed = -v })
		})
		b.Run(rope.prefix+"slew", func(b *testing.B) {
			vel := geom.V(0.5, 0, 0)
			ho := crane(b)
			ho.BoomTip.Vel = vel
			ho.run(b, 2, nil)
			windowed(b, ho, func() { ho.BoomTip.Vel = vel })
		})
		b.Run(rope.prefix+"ground", func(b *testing.B) { ground(b, crane(b)) })
	}
	b.Run("ground/maxMassNodes=200", func(b *testing.B) {
		spec := exampleCrane()
		spec.Resolution.MaxMassNodes = 200
		ground(b, settled(b, spec))
	})
}
