package multibody_test

import (
	"math"
	"testing"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/core/multibody"
	"github.com/cablefmu/cablefmu/core/rigidcable"
)

// TestVectorKernelsSameRope runs a rigid rope of 30 segments under a load of
// 1000 segments' mass (clamped hook), its top jerked sideways, hauled up
// fast and stopped so that the load is thrown up, the rope goes slack and
// snaps taut, while the winch pays out: once with the vector kernels and
// once with the Go kernels alone, and holds every body's position,
// orientation and velocities after each of its 600 steps (10 s at 1/60 s)
// to the same bits.
func TestVectorKernelsSameRope(t *testing.T) {
	if !multibody.VectorKernels() {
		t.Skip("the vector kernels do not run here (no AVX, another architecture, or -tags purego): the Go kernels alone")
	}
	type frame struct {
		pos, vel, ang [3]uint64
		rot           [4]uint64
	}
	run := func() [][]frame {
		w := multibody.NewWorld(geom.V(0, 0, -9.81))
		w.Solver = &multibody.ActiveSet{Solver: &multibody.Chain{}}
		top := geom.V(0, 0, 20)
		opt := rigidcable.Options{Rope: material.DefaultSteelRope(), Segments: 30}
		c, err := rigidcable.NewStraight(top, top.Sub(geom.V(0, 0, 10)), opt)
		if err != nil {
			t.Fatal(err)
		}
		mass := 1000 * c.Segments[0].Mass
		side := math.Cbrt(mass / 2000)
		hoist := w.AddBody(multibody.NewKinematic("hoist", top))
		load := w.AddBody(multibody.NewBody("load", mass, multibody.BoxInertia(mass, side, side, side), top.Sub(geom.V(0, 0, 10+side/2))))
		c.AttachStart(hoist, geom.Vec3{}, geom.V(0, 0, -1), rigidcable.Sheave)
		c.AttachEnd(load, geom.V(0, 0, side/2), geom.V(0, 0, -1), rigidcable.Clamped)
		c.Prestretch(w.Gravity)
		c.AddTo(w)
		const h = 1.0 / 60
		length := 10.0
		var frames [][]frame
		for s := 0; s < 600; s++ {
			tm := float64(s) * h
			switch {
			case tm < 1:
				hoist.Vel = geom.V(1, 0, 0)
			case tm < 1.5:
				hoist.Vel = geom.V(0, 0, 4)
			default:
				hoist.Vel = geom.Vec3{}
			}
			if tm >= 3 && tm < 5 {
				length += 0.5 * h
				if err := c.SetLength(length, 0.5); err != nil {
					t.Fatal(err)
				}
			} else if err := c.SetLength(length, 0); err != nil {
				t.Fatal(err)
			}
			if err := w.Step(h); err != nil {
				t.Fatalf("step %d: %v", s, err)
			}
			var f []frame
			for _, b := range w.Bodies() {
				bits := func(v geom.Vec3) [3]uint64 {
					return [3]uint64{math.Float64bits(v.X), math.Float64bits(v.Y), math.Float64bits(v.Z)}
				}
				q := b.Rot
				f = append(f, frame{bits(b.Pos), bits(b.Vel), bits(b.AngVel),
					[4]uint64{math.Float64bits(q.W), math.Float64bits(q.X), math.Float64bits(q.Y), math.Float64bits(q.Z)}})
			}
			frames = append(frames, f)
		}
		return frames
	}
	vector := run()
	restore := multibody.UseVectorKernels(false)
	defer restore()
	plain := run()
	for s := range vector {
		for i := range vector[s] {
			if vector[s][i] != plain[s][i] {
				t.Fatalf("step %d, body %d: %+v with the vector kernels, %+v without", s, i, vector[s][i], plain[s][i])
			}
		}
	}
}
