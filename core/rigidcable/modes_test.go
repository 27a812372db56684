package rigidcable

import (
	"fmt"
	"github.com/cablefmu/cablefmu/core/closedform"
	"math"
	"math/cmplx"
	"sort"
	"testing"
	"time"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/core/multibody"
	"gonum.org/v1/gonum/dsp/fourier"
	"gonum.org/v1/gonum/mat"
)

// continuum is the reference for the rope's transverse modes in one plane:
// the string–beam μ ÿ = (T y′)′ − (EI y″)″ on 0 ≤ x ≤ L, x measured from
// the top, pinned there (y = 0, y″ = 0), with an optional point mass at the
// bottom, which is free (T y′ = −M ÿ, y″ = 0, (EI y″)′ = 0) or pinned.
// Frequencies and shapes come from a fine finite-difference discretisation
// (lumped masses, tension per interval, bending energy ½ EI κ² per
// interior node), which converges to the ODE at O(Δ²); with EI = 0 it
// reproduces the Bessel closed forms (TestContinuumReference).
type continuum struct {
	length, mu, ei, endMass float64
	tension                 func(x float64) float64 // N, at x from the top
	pinnedEnd               bool                    // bottom pinned, not free
}

// modes returns the k lowest frequencies (Hz) and their shapes, each a
// function of x (linear interpolation between nodes), scaled to a
// largest value of 1.
func (c continuum) modes(k int) ([]float64, []func(float64) float64) {
	const n = 400 // intervals
	d := c.length / float64(n)
	// Unknowns: nodes 1 … n (node 0 pinned), less node n if pinned.
	m := n
	if c.pinnedEnd {
		m = n - 1
	}
	mass := make([]float64, m)
	for i := range mass {
		mass[i] = c.mu * d
	}
	if !c.pinnedEnd {
		mass[m-1] = c.mu*d/2 + c.endMass
	}
	stiff := mat.NewSymDense(m, nil)
	add := func(i, j int, v float64) { // node indices; node 0 and a pinned node n drop out
		if i < 1 || j < 1 || i > m || j > m {
			return
		}
		stiff.SetSym(i-1, j-1, stiff.At(i-1, j-1)+v)
	}
	for e := 0; e < n; e++ { // string: ½ T (y_(e+1) − y_e)²/Δ
		k := c.tension((float64(e)+0.5)*d) / d
		add(e, e, k)
		add(e+1, e+1, k)
		add(e, e+1, -k)
	}
	for i := 1; i < n; i++ { // beam: ½ EI ((y_(i−1) − 2y_i + y_(i+1))/Δ²)² Δ
		k := c.ei / (d * d * d)
		w := [3]float64{1, -2, 1}
		for a := 0; a < 3; a++ {
			for b := a; b < 3; b++ {
				add(i-1+a, i-1+b, k*w[a]*w[b])
			}
		}
	}
	// Mass-normalized symmetric problem D^(−½) K D^(−½).
	sym := mat.NewSymDense(m, nil)
	for i := 0; i < m; i++ {
		for j := i; j < m; j++ {
			sym.SetSym(i, j, stiff.At(i, j)/math.Sqrt(mass[i]*mass[j]))
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(sym, true) {
		panic("continuum: eigendecomposition failed")
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return vals[order[a]] < vals[order[b]] })
	freqs := make([]float64, k)
	shapes := make([]func(float64) float64, k)
	for q := 0; q < k; q++ {
		col := order[q]
		freqs[q] = math.Sqrt(math.Max(vals[col], 0)) / (2 * math.Pi)
		y := make([]float64, n+1) // nodes 0 … n
		big := 0.0
		for i := 0; i < m; i++ {
			y[i+1] = vecs.At(i, col) / math.Sqrt(mass[i])
			if math.Abs(y[i+1]) > math.Abs(big) {
				big = y[i+1]
			}
		}
		for i := range y {
			y[i] /= big
		}
		shapes[q] = func(x float64) float64 {
			u := math.Min(math.Max(x/d, 0), float64(n))
			i := math.Min(math.Floor(u), float64(n-1))
			f := u - i
			return y[int(i)]*(1-f) + y[int(i)+1]*f
		}
	}
	return freqs, shapes
}

// besselJ0Zero returns the n-th positive zero of J0 (n ≥ 1) by Newton's
// method from McMahon's estimate (n − ¼)π (J0′ = −J1).
func besselJ0Zero(n int) float64 {
	x := (float64(n) - 0.25) * math.Pi
	for i := 0; i < 50; i++ {
		dx := math.J0(x) / math.J1(x)
		x += dx
		if math.Abs(dx) < 1e-14 {
			break
		}
	}
	return x
}

// The string–beam continuum reference reproduces, within 0.1 %, the
// closed forms it stands in for: the hanging chain's Bessel modes at
// EI = 0, the chain with an end mass at EI = 0 (closedform.HangingModes), and the
// pinned–pinned string–beam with the default rope's EI.
func TestContinuumReference(t *testing.T) {
	r := material.DefaultSteelRope()
	mu := r.LinearDensity()
	check := func(name string, got, want []float64) {
		for k := range want {
			if math.Abs(got[k]/want[k]-1) > 1e-3 {
				t.Errorf("%s, mode %d: continuum %.5f Hz, closed form %.5f Hz, want within 0.1 %%", name, k+1, got[k], want[k])
			}
		}
	}
	limp := r
	limp.BendingStiffness = 1e-12
	got, _ := hangingReference(limp, 0).modes(3)
	var want []float64
	for k := 1; k <= 3; k++ {
		want = append(want, besselJ0Zero(k)/2*math.Sqrt(gravity/rigLength)/(2*math.Pi))
	}
	check("hanging chain", got, want)
	load := mu * rigLength
	got, _ = hangingReference(limp, load).modes(3)
	want, err := closedform.HangingModes(rigLength, mu, load, gravity, 3)
	if err != nil {
		t.Fatal(err)
	}
	for k := range want {
		want[k] /= 2 * math.Pi
	}
	check("chain with end mass", got, want)
	const tension = 2000.0
	got, _ = continuum{length: rigLength, mu: mu, ei: r.Bending(), pinnedEnd: true, tension: func(float64) float64 { return tension }}.modes(6)
	want = want[:0]
	for n := 1; n <= 6; n++ {
		k := float64(n) * math.Pi / rigLength
		want = append(want, float64(n)/(2*rigLength)*math.Sqrt(tension/mu)*math.Sqrt(1+r.Bending()/tension*k*k))
	}
	check("taut string–beam", got, want)
}

// doublePendulum returns the two planar modes of a box hung from a pivot
// by a straight rod: rod length l (m) and mass mr (kg, uniform), box mass m
// (kg) with moment of inertia ic (kg·m²) about its centre, hinged to the
// rod's end at the distance a (m) above its centre. Coordinates θ1 (rod)
// and θ2 (box) from the vertical; the linearized Lagrangian gives
// K φ = ω² M φ with
//
//	M = [[m l² + mr l²/3, m l a], [m l a, m a² + ic]],
//	K = [[(m + mr/2) g l, 0], [0, m g a]]
//
// (the compound double pendulum, rod hinged at the pivot, box hinged to the
// rod's end; derived here). It returns the frequencies (Hz) ascending and the
// modes' (θ1, θ2) shapes.
func doublePendulum(l, mr, m, ic, a, g float64) ([2]float64, [2][2]float64) {
	m11, m12, m22 := m*l*l+mr*l*l/3, m*l*a, m*a*a+ic
	k11, k22 := (m+mr/2)*g*l, m*g*a
	a2 := m11*m22 - m12*m12
	a1 := -(k11*m22 + k22*m11)
	a0 := k11 * k22
	disc := math.Sqrt(a1*a1 - 4*a2*a0)
	var f [2]float64
	var phi [2][2]float64
	for i, lam := range [2]float64{(-a1 - disc) / (2 * a2), (-a1 + disc) / (2 * a2)} {
		f[i] = math.Sqrt(lam) / (2 * math.Pi)
		// (k11 − λ m11) φ1 − λ m12 φ2 = 0
		phi[i] = [2]float64{lam * m12, k11 - lam*m11}
	}
	return f, phi
}

// Mode measurements run at the step the tests are about, h = 1/60 s; modes
// below 1/(10h) = 6 Hz must come out within 3 % of their closed forms,
// modes above are logged only.
const (
	modeH   = 1.0 / 60
	modeTol = 0.03
	gravity = 9.81
)

// modeLimit is the frequency (Hz) below which modes are asserted.
const modeLimit = 1 / (10 * modeH)

// checkMode asserts the measured frequency got (Hz) against the reference
// want (Hz), named ref, within modeTol when want is below modeLimit, and
// logs it either way.
func checkMode(t *testing.T, name string, got, want float64, ref string) {
	t.Helper()
	dev := got/want - 1
	switch {
	case want >= modeLimit && got < want/2:
		// The spectrum's largest peak is at the drift, not near the
		// mode: the mode decayed within its first periods (taut string,
		// N = 20, mode 4: about −30 % amplitude per period at 6.3 Hz).
		t.Logf("%s: no peak near the %s %.4f Hz (largest at %.4f Hz: the step damps the mode out within its first periods; above 1/(10h), not asserted)", name, ref, want, got)
	case want >= modeLimit:
		t.Logf("%s: %.4f Hz, %s %.4f Hz (%+.2f %%; above 1/(10h), not asserted)", name, got, ref, want, 100*dev)
	case math.Abs(dev) > modeTol:
		t.Errorf("%s: %.4f Hz, %s %.4f Hz (%+.2f %%), want within %.0f %%", name, got, ref, want, 100*dev, 100*modeTol)
	default:
		t.Logf("%s: %.4f Hz, %s %.4f Hz (%+.2f %%)", name, got, ref, want, 100*dev)
	}
}

// peakFrequency returns the frequency (Hz) of the largest peak of the
// spectrum of q sampled every dt seconds: the mean removed, a Hann window,
// an FFT zero-padded eightfold to find the peak's bin, then the maximum of
// the windowed discrete-time Fourier transform near it by golden-section
// search. For one dominant sinusoid of a few periods this is accurate to a
// small fraction of a percent (TestPeakFrequency).
func peakFrequency(q []float64, dt float64) float64 {
	n := len(q)
	mean := 0.0
	for _, v := range q {
		mean += v / float64(n)
	}
	x := make([]float64, n)
	for k, v := range q {
		x[k] = (v - mean) * 0.5 * (1 - math.Cos(2*math.Pi*float64(k)/float64(n-1)))
	}
	padded := make([]float64, 8*n)
	copy(padded, x)
	fft := fourier.NewFFT(len(padded))
	coeff := fft.Coefficients(nil, padded)
	best := 1
	for i := 1; i < len(coeff); i++ {
		if cmplx.Abs(coeff[i]) > cmplx.Abs(coeff[best]) {
			best = i
		}
	}
	power := func(f float64) float64 {
		var re, im float64
		for k, v := range x {
			s, c := math.Sincos(2 * math.Pi * f * float64(k) * dt)
			re += v * c
			im -= v * s
		}
		return re*re + im*im
	}
	bin := 1 / (float64(len(padded)) * dt)
	lo, hi := (float64(best)-1)*bin, (float64(best)+1)*bin
	const phi = 0.6180339887498949
	a, b := hi-phi*(hi-lo), lo+phi*(hi-lo)
	pa, pb := power(a), power(b)
	for i := 0; i < 40; i++ {
		if pa > pb {
			hi, b, pb = b, a, pa
			a = hi - phi*(hi-lo)
			pa = power(a)
		} else {
			lo, a, pa = a, b, pb
			b = lo + phi*(hi-lo)
			pb = power(b)
		}
	}
	return (lo + hi) / 2
}

// The frequency estimator finds a damped sinusoid of 5 periods with a
// 20 % component of another frequency and a drift to within 0.1 %.
func TestPeakFrequency(t *testing.T) {
	const dt = modeH
	for _, f := range []float64{0.13, 0.9, 4.4, 11} {
		q := make([]float64, int(5/f/dt))
		for k := range q {
			tm := float64(k) * dt
			q[k] = math.Exp(-0.01*tm)*math.Sin(2*math.Pi*f*tm+0.3) + 0.2*math.Cos(2*math.Pi*2.7*f*tm) + 0.01*tm
		}
		if got := peakFrequency(q, dt); math.Abs(got/f-1) > 1e-3 {
			t.Errorf("peak of a %.3f Hz sinusoid found at %.5f Hz, want within 0.1 %%", f, got)
		}
	}
}

// rope is a cable of the test with its end body, if any.
type rope struct {
	world *multibody.World
	cable *Cable
	load  *multibody.Body
	// along returns the distance (m) along the rope from its start of a
	// world point; across is the direction of the measured motion.
	along  func(geom.Vec3) float64
	across geom.Vec3
}

// newHangingRope returns the 10 m rope of material r in n segments hanging
// from a static point by a pinned (ball) joint, in static equilibrium
// (Prestretch), g = 9.81 m/s²; with a point load of load kg on a pinned
// joint at its end unless load is zero.
func newHangingRope(t *testing.T, r material.Rope, n int, load float64) *rope {
	t.Helper()
	w := multibody.NewWorld(geom.V(0, 0, -gravity))
	w.Solver = &multibody.ActiveSet{Solver: &multibody.Chain{}}
	top := geom.V(0, 0, rigLength)
	c, err := NewStraight(top, geom.Vec3{}, Options{Rope: r, Segments: n})
	if err != nil {
		t.Fatal(err)
	}
	anchor := w.AddBody(multibody.NewStatic("anchor", top))
	c.AttachStart(anchor, geom.Vec3{}, geom.V(0, 0, -1), Pinned)
	var end *multibody.Body
	if load > 0 {
		end = w.AddBody(multibody.NewParticle("load", load, geom.Vec3{}))
		c.AttachEnd(end, geom.Vec3{}, geom.V(0, 0, -1), Pinned)
	}
	c.Prestretch(w.Gravity)
	c.AddTo(w)
	return &rope{world: w, cable: c, load: end, along: func(p geom.Vec3) float64 { return top.Z - p.Z }, across: geom.V(1, 0, 0)}
}

// bodies returns the rope's dynamic bodies: segments and load.
func (r *rope) bodies() []*multibody.Body {
	if r.load != nil {
		return append(r.cable.Segments[:len(r.cable.Segments):len(r.cable.Segments)], r.load)
	}
	return r.cable.Segments
}

// kick sets the rope moving across at speed·φ(x), x along the rope: each
// segment's ends get the shape's velocities exactly (the segment's centre
// their mean, its spin their difference over its length), so that the
// joints start closed and at rest relative to each other.
func (r *rope) kick(shape func(float64) float64, speed float64) {
	l := r.cable.SegmentLength
	for _, b := range r.cable.Segments {
		pa, pb := b.PointWorld(geom.V(-l/2, 0, 0)), b.PointWorld(geom.V(l/2, 0, 0))
		ua, ub := r.across.Scale(speed*shape(r.along(pa))), r.across.Scale(speed*shape(r.along(pb)))
		d := b.Rot.Rotate(axis)
		b.Vel = ua.Add(ub).Scale(0.5)
		b.AngVel = d.Cross(ub.Sub(ua)).Scale(1 / l)
	}
	if r.load != nil {
		r.load.Vel = r.across.Scale(speed * shape(r.along(r.load.Pos)))
	}
}

// modeFrequency excites the mode of shape φ (largest value 1) and
// frequency want (Hz) at the amplitude amp (m), runs seconds, and returns the frequency
// (Hz) of the modal coordinate q = Σ m φ(x) u / Σ m φ(x)², u the bodies'
// displacement across from where they started.
func (r *rope) modeFrequency(t *testing.T, shape func(float64) float64, want, amp, seconds float64) float64 {
	t.Helper()
	bodies := r.bodies()
	rest := make([]geom.Vec3, len(bodies))
	weight := make([]float64, len(bodies))
	norm := 0.0
	for i, b := range bodies {
		rest[i] = b.Pos
		weight[i] = b.Mass * shape(r.along(b.Pos))
		norm += weight[i] * shape(r.along(b.Pos))
	}
	r.kick(shape, 2*math.Pi*want*amp)
	q := make([]float64, int(math.Round(seconds/modeH)))
	for k := range q {
		if err := r.world.Step(modeH); err != nil {
			t.Fatalf("t = %.2f s: %v", float64(k+1)*modeH, err)
		}
		for i, b := range bodies {
			q[k] += weight[i] * b.Pos.Sub(rest[i]).Dot(r.across) / norm
		}
	}
	return peakFrequency(q, modeH)
}

// hangingReference returns the string–beam continuum of the 10 m rope r
// hanging under g with a point load of load kg at its free end.
func hangingReference(r material.Rope, load float64) continuum {
	mu := r.LinearDensity()
	return continuum{length: rigLength, mu: mu, ei: r.Bending(), endMass: load,
		tension: func(x float64) float64 { return gravity * (load + mu*(rigLength-x)) }}
}

// Hanging rope without load, top pinned, bottom free: the heavy chain's
// modes ω_n = (z_n/2)√(g/L), z_n the zeros of J0 (D. Bernoulli, 1732;
// with s from the free end, μÿ = (μ g s y′)′ has the shapes J0(z_n √(s/L))),
// n = 1–3, for N = 20 and 50 at h = 1/60 s.
//
// The closed form is the limp chain's. The default rope (EI = 0.1 of a
// solid bar, 78.5 N·m²) is not limp here: the tension falls to zero at the
// free end, and over the bending length (EI/(μg))^(1/3) ≈ 1.5 m the rope's
// bending dominates; the continuum with EI (package-internal reference,
// which reproduces the Bessel values at EI = 0) puts modes 2 and 3 at +9 %
// and +31 %. So the rope is measured twice:
//   - a nearly limp rope (EI = 1e-4 of a solid bar, 0.08 N·m²; the
//     continuum with that EI is within 0.2 % of Bessel) against the Bessel
//     closed form;
//   - the default rope against the string–beam continuum with its EI.
//
// At N = 50 the short upper segments turn faster under the rope's weight
// than the step resolves, and the step takes their turning stiffness in
// (the log gives how many); this test therefore also bounds its effect.
//
// Each mode is excited alone (its shape's velocities, 1 cm amplitude) and
// measured by projecting the segments' sideways displacement on the shape
// over 40 s.
func TestHangingRopeModes(t *testing.T) {
	start := time.Now()
	limp := material.DefaultSteelRope()
	limp.BendingStiffness = 1e-4 * limp.SolidBending()
	for _, tc := range []struct {
		name   string
		rope   material.Rope
		bessel bool
	}{{"limp rope (EI 1e-4 solid)", limp, true}, {"default rope (EI 0.1 solid)", material.DefaultSteelRope(), false}} {
		ref := "string–beam continuum"
		if tc.bessel {
			ref = "Bessel closed form"
		}
		freqs, shapes := hangingReference(tc.rope, 0).modes(3)
		for k := range freqs {
			chain := besselJ0Zero(k+1) / 2 * math.Sqrt(gravity/rigLength) / (2 * math.Pi)
			t.Logf("%s, mode %d: Bessel %.4f Hz, continuum with EI = %.3g N·m² %.4f Hz (%+.2f %%)", tc.name, k+1, chain, tc.rope.Bending(), freqs[k], 100*(freqs[k]/chain-1))
			if tc.bessel {
				freqs[k] = chain
			}
		}
		for _, n := range []int{20, 50} {
			for k := range freqs {
				r := newHangingRope(t, tc.rope, n, 0)
				got := r.modeFrequency(t, shapes[k], freqs[k], 0.01, 40)
				checkMode(t, fmt.Sprintf("%s, N = %d, mode %d (turning taken in: %d bodies)", tc.name, n, k+1, r.world.Turned()), got, freqs[k], ref)
			}
		}
	}
	t.Logf("runtime %.1f s", time.Since(start).Seconds())
}

// newTautRope returns the 10 m rope r in n segments stretched along x
// between two static points 10 m apart under the tension T (N), gravity
// off, pinned (ball joints) at both ends. The segments are made
// L/(1 + T/EA) long and placed at their stretched positions, and every
// joint starts with the tension, so the rope starts in equilibrium.
func newTautRope(t *testing.T, r material.Rope, n int, tension float64) *rope {
	t.Helper()
	w := multibody.NewWorld(geom.Vec3{})
	w.Solver = &multibody.ActiveSet{Solver: &multibody.Chain{}}
	strain := tension / r.AxialStiffness()
	c, err := NewStraight(geom.Vec3{}, geom.V(rigLength/(1+strain), 0, 0), Options{Rope: r, Segments: n})
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range c.Segments {
		b.Pos = geom.V((float64(i)+0.5)*rigLength/float64(n), 0, 0)
	}
	a := w.AddBody(multibody.NewStatic("anchor", geom.Vec3{}))
	b := w.AddBody(multibody.NewStatic("far anchor", geom.V(rigLength, 0, 0)))
	c.AttachStart(a, geom.Vec3{}, axis, Pinned)
	c.AttachEnd(b, geom.Vec3{}, axis, Pinned)
	for _, j := range c.Joints {
		j.force = tension
	}
	c.AddTo(w)
	return &rope{world: w, cable: c, along: func(p geom.Vec3) float64 { return p.X }, across: geom.V(0, 1, 0)}
}

// Taut string: the rope stretched between two fixed points under a
// tension T = μ (2 L f₁)² that puts the limp string's fundamental at
// f₁ = 1.5 Hz (T ≈ 2.2 kN, 90 times the rope's weight; gravity off):
// f_n = (n/2L)√(T/μ). The rope's own bending stiffness EI adds the
// pinned–pinned beam term exactly: y = sin(nπx/L) solves μÿ = T y″ − EI y⁗
// with y = y″ = 0 at both ends, at f_n √(1 + (EI/T)(nπ/L)²), which is what
// is asserted (+0.2 % over the string for
// n = 1, +1.6 % for n = 3, +6 % for n = 6). Modes 1–6 for N = 20 and 50;
// 1–3 lie below 1/(10h) and are asserted.
//
// The amplitude is 0.1 mm: a steel string's tension rises with the square
// of the amplitude (the Kirchhoff–Carrier stretch ½∫y′², ΔT/T =
// (EA/T)(A nπ/L)²/4 = 0.036 n² at 1 cm), which would raise the
// frequencies by percents; at 0.1 mm it is 4e-6 n².
//
// At this tension every segment turns faster than the step resolves, and
// the step takes its turning stiffness in (stability.TurnShare): its
// inertia lowers the modes by about (ωh)² s/2, the largest shift of all
// the mode tests (mode 3, ωh = 0.47: −1.8 %).
func TestTautStringModes(t *testing.T) {
	start := time.Now()
	r := material.DefaultSteelRope()
	mu := r.LinearDensity()
	const f1 = 1.5
	tension := mu * math.Pow(2*rigLength*f1, 2)
	for _, n := range []int{20, 50} {
		for mode := 1; mode <= 6; mode++ {
			k := float64(mode) * math.Pi / rigLength
			str := float64(mode) / (2 * rigLength) * math.Sqrt(tension/mu)
			want := str * math.Sqrt(1+r.Bending()/tension*k*k)
			s := newTautRope(t, r, n, tension)
			got := s.modeFrequency(t, func(x float64) float64 { return math.Sin(k * x) }, want, 1e-4, 10)
			checkMode(t, fmt.Sprintf("N = %d, mode %d (string %.3f Hz; turning taken in: %d bodies)", n, mode, str, s.world.Turned()), got, want, "string–beam closed form")
		}
	}
	t.Logf("runtime %.1f s", time.Since(start).Seconds())
}

// Heavy-rope pendulum: the default rope with a point load of the rope's
// own mass (24.7 kg) on a pinned joint at its end, top pinned: modes 1–3
// of the heavy chain with an end mass (closedform.HangingModes) for N = 20 and 50.
// The rope's bending adds +0.0, +1.2 and +4.6 % (string–beam continuum with
// the end mass, which reproduces the closed form at EI = 0): the continuum
// with EI is what is asserted, the closed form is logged beside it. 1 cm
// amplitude, 40 s.
func TestHeavyRopePendulumModes(t *testing.T) {
	start := time.Now()
	r := material.DefaultSteelRope()
	load := r.LinearDensity() * rigLength
	freqs, shapes := hangingReference(r, load).modes(3)
	closed, err := closedform.HangingModes(rigLength, r.LinearDensity(), load, gravity, 3)
	if err != nil {
		t.Fatal(err)
	}
	for k := range freqs {
		closed[k] /= 2 * math.Pi
		t.Logf("mode %d: closed form (EI = 0) %.4f Hz, continuum with EI = %.1f N·m² %.4f Hz (%+.2f %%)", k+1, closed[k], r.Bending(), freqs[k], 100*(freqs[k]/closed[k]-1))
	}
	for _, n := range []int{20, 50} {
		for k := range freqs {
			s := newHangingRope(t, r, n, load)
			got := s.modeFrequency(t, shapes[k], freqs[k], 0.01, 40)
			checkMode(t, fmt.Sprintf("N = %d, mode %d (closed form with EI = 0: %.4f Hz, %+.2f %%; turning taken in: %d bodies)", n, k+1, closed[k], 100*(got/closed[k]-1), s.world.Turned()), got, freqs[k], "string–beam continuum")
		}
	}
	t.Logf("runtime %.1f s", time.Since(start).Seconds())
}

// boxPendulum is the rope of n segments pinned at a static top and clamped
// to the middle of the top face of a box (side, mass) hanging below it.
type boxPendulum struct {
	world     *multibody.World
	cable     *Cable
	box       *multibody.Body
	top       geom.Vec3
	side      float64
	ropeLimit float64 // stretched rope length at rest, m
}

func newBoxPendulum(t *testing.T, r material.Rope, n int, mass, side float64) *boxPendulum {
	t.Helper()
	w := multibody.NewWorld(geom.V(0, 0, -gravity))
	w.Solver = &multibody.ActiveSet{Solver: &multibody.Chain{}}
	top := geom.V(0, 0, rigLength+side)
	c, err := NewStraight(top, top.Sub(geom.V(0, 0, rigLength)), Options{Rope: r, Segments: n})
	if err != nil {
		t.Fatal(err)
	}
	anchor := w.AddBody(multibody.NewStatic("anchor", top))
	box := w.AddBody(multibody.NewBody("box", mass, multibody.BoxInertia(mass, side, side, side), geom.V(0, 0, side/2)))
	c.AttachStart(anchor, geom.Vec3{}, geom.V(0, 0, -1), Pinned)
	c.AttachEnd(box, geom.V(0, 0, side/2), geom.V(0, 0, -1), Clamped)
	c.Prestretch(w.Gravity)
	c.AddTo(w)
	p := &boxPendulum{world: w, cable: c, box: box, top: top, side: side}
	p.ropeLimit = top.Z - p.hinge().Z
	return p
}

// hinge returns the world position of the rope's attachment on the box.
func (p *boxPendulum) hinge() geom.Vec3 { return p.box.PointWorld(geom.V(0, 0, p.side/2)) }

// angles returns the rope's angle θ1 (its end's sideways offset over its
// length) and the box's tilt θ2 (rad), both positive for the box's centre
// moving along +x.
func (p *boxPendulum) angles() (float64, float64) {
	up := p.box.Rot.Rotate(geom.V(0, 0, 1))
	return (p.hinge().X - p.top.X) / p.ropeLimit, math.Atan2(-up.X, up.Z)
}

// kick sets the pendulum moving at the angular rates (θ1′, θ2′): the rope
// as a straight rod turning about its top, the box turning about its
// attachment point, which moves with the rope's end.
func (p *boxPendulum) kick(w1, w2 float64) {
	l := p.cable.SegmentLength
	for _, b := range p.cable.Segments {
		da, db := p.top.Z-b.PointWorld(geom.V(-l/2, 0, 0)).Z, p.top.Z-b.PointWorld(geom.V(l/2, 0, 0)).Z
		b.Vel = geom.V(w1*(da+db)/2, 0, 0)
		b.AngVel = b.Rot.Rotate(axis).Cross(geom.V(w1*(db-da)/l, 0, 0))
	}
	p.box.Vel = geom.V(w1*p.ropeLimit+w2*p.side/2, 0, 0)
	p.box.AngVel = geom.V(0, -w2, 0)
}

// Box-on-rope double pendulum: the 1 m, 1000 kg cube clamped under the
// default rope (N = 20 and 50; top pinned), excited in one of its two
// planar modes at 1 cm, 40 s, measured by the modal coordinates
// Φ⁻¹(θ1, θ2) of the closed form's mode shapes.
//
// Closed form: doublePendulum with the rope as a straight rod of its own
// mass (24.7 kg, 2.5 % of the box's: it moves mode 1 by +0.2 %, mode 2 by
// −0.6 %), the box's I = m s²/6 about its centre and its hinge a = s/2
// above the centre. The clamp adds a bending boundary layer: near the box
// the rope obeys EI y⁗ = T y″, so in the box's frame it leaves the clamp
// as y = θ(x − λ(1 − e^(−x/λ))), λ = √(EI/T), whose straight part points
// at the box's axis λ above the clamp (the tensioned beam's bending length).
// The rope thus acts as a rod of length L − λ hinged at a + λ above the
// box's centre. With the rope's EI = 78.5 N·m² and T = m g, λ = 9 cm,
// which raises mode 2 from 0.880 to 0.958 Hz (+8.8 %); this corrected
// closed form is asserted, the plain one logged.
//
// Segments of 0.5 m cannot resolve the 9 cm boundary layer; the clamp
// joint carries it (Joint.bendStiffness; with the plain end-joint
// stiffness EI/(l/2) mode 2 came out −5.3 % at N = 20 and −2.7 % at
// N = 50, at any step). Under the 1 t load every segment turns faster than
// h = 1/60 s resolves, and the step takes its turning stiffness in. Mode 1
// and mode 2 are asserted within 3 % at the default step and mode 2 also
// at h = 1/600 s; the bend stiffening of earlier versions (β h² T²/m at
// every joint) put mode 2 at +15.5 % (N = 20) and +22.7 % (N = 50).
//
// A perfectly flexible rope (EI = 0, N = 20, the default step) has no
// boundary layer, λ = 0: the box hangs from a hinge, and both modes are
// asserted against the plain closed form (measured: 0.00 % and −0.02 %,
// undamped over the 40 s).
func TestBoxDoublePendulumModes(t *testing.T) {
	const boxModeKept = 0.7
	start := time.Now()
	r := material.DefaultSteelRope()
	const mass, side = 1000.0, 1.0
	ic := mass * side * side / 6
	mr := r.LinearDensity() * rigLength
	for _, run := range []struct {
		n        int
		h        float64 // s
		flexible bool
	}{{20, modeH, false}, {50, modeH, false}, {20, modeH / 10, false}, {50, modeH / 10, false}, {20, modeH, true}} {
		n, h, r := run.n, run.h, r
		r.Flexible = run.flexible
		probe := newBoxPendulum(t, r, n, mass, side)
		length, tension := probe.ropeLimit, mass*gravity
		lambda := math.Sqrt(r.Bending() / tension) // 0 for the flexible rope: the plain closed form
		want, phi := doublePendulum(length-lambda, mr, mass, ic, side/2+lambda, gravity)
		plain, _ := doublePendulum(length, mr, mass, ic, side/2, gravity)
		// Modal coordinates q = Φ⁻¹ θ.
		det := phi[0][0]*phi[1][1] - phi[1][0]*phi[0][1]
		inv := [2][2]float64{{phi[1][1] / det, -phi[1][0] / det}, {-phi[0][1] / det, phi[0][0] / det}}
		for k := range want {
			if h != modeH && k == 0 {
				continue // mode 1 is asserted at the default step
			}
			p := newBoxPendulum(t, r, n, mass, side)
			scale := 0.01 / math.Max(math.Abs(phi[k][0])*length, math.Abs(phi[k][1])*side/2)
			w := 2 * math.Pi * want[k] * scale
			p.kick(w*phi[k][0], w*phi[k][1])
			q := make([]float64, int(40/modeH))
			turned := 0
			sub := int(math.Round(modeH / h))
			for i := range q {
				for range sub {
					if err := p.world.Step(h); err != nil {
						t.Fatalf("N = %d, h = %.4g s, flexible %v, mode %d, t = %.2f s: %v", n, h, run.flexible, k+1, float64(i+1)*modeH, err)
					}
				}
				th1, th2 := p.angles()
				q[i] = inv[k][0]*th1 + inv[k][1]*th2
				turned = max(turned, p.world.Turned())
			}
			got := peakFrequency(q, modeH)
			// The amplitude of the last 5 s against the first 5 s.
			early, late := 0.0, 0.0
			for i, v := range q {
				if float64(i)*modeH < 5 {
					early = math.Max(early, math.Abs(v))
				} else if float64(i)*modeH >= 35 {
					late = math.Max(late, math.Abs(v))
				}
			}
			name := fmt.Sprintf("N = %d, h = %.4g s, flexible %v, mode %d (plain closed form, λ = 0: %.4f Hz, %+.2f %%; amplitude after 35 s %.2f of the first; turning taken in: %d bodies)",
				n, h, run.flexible, k+1, plain[k], 100*(got/plain[k]-1), late/early, turned)
			checkMode(t, name, got, want[k], "closed form with the rope's λ")
			if late < boxModeKept*early {
				t.Errorf("%s: amplitude after 35 s %.3f of the first 5 s', want at least %.2f", name, late/early, boxModeKept)
			}
		}
	}
	t.Logf("runtime %.1f s", time.Since(start).Seconds())
}

// catenary returns the static position, relative to the pinned top, of the
// point at unstretched arc length σ (m) from the top of a heavy rope
// (weight per length w = μg, length L, axial stiffness EA) carrying at its
// free end the vertical load V0 (N) and the horizontal pull H (N, along
// +x). With s = L − σ from the end, the tension's components are H and
// V(s) = V0 + w s, so tan θ = H/V(s) from the vertical, and integrating
// dx = (H/T) ds, dz = −(V/T) ds, T = √(H² + V²), over the stretched
// ds (1 + T/EA) gives the heavy elastic catenary (H. M. Irvine, Cable
// Structures, 1981, the elastic catenary):
//
//	x = (H/w)(asinh(V(L)/H) − asinh(V(s)/H)) + H σ/EA,
//	z = −(√(H² + V(L)²) − √(H² + V(s)²))/w − (V0 σ + w (L² − s²)/2)/EA.
func catenary(sigma, length, w, v0, h, ea float64) geom.Vec3 {
	s := length - sigma
	vl, vs := v0+w*length, v0+w*s
	x := h/w*(math.Asinh(vl/h)-math.Asinh(vs/h)) + h*sigma/ea
	z := -(math.Hypot(h, vl)-math.Hypot(h, vs))/w - (v0*sigma+w*(length*length-s*s)/2)/ea
	return geom.V(x, 0, z)
}

// Static sideways pull: the default rope with a point load of its own
// mass (24.7 kg) on a pinned joint, pulled sideways at the load by H equal
// to half the total weight, settles into the heavy elastic catenary
// (catenary): the load 5.6 m out, the rope leaving it at 45° and the top
// at 27° from the vertical. The segments' end points and the load, for
// N = 20 and 50, lie within 3 % of the load's sideways displacement of
// the closed form (the tolerance of these checks; the log shows how much
// closer they are). The rope's bending changes the shape only in boundary
// layers of √(EI/T) ≈ 0.5 m at the pinned ends, by about κλ² ≈ 1 cm
// (κ = Hw/T² the catenary's curvature). The nearly limp rope of
// TestHangingRopeModes (EI 1e-4 of a solid bar, 0.08 N·m²) is the closed
// form's own case; its nodes must lie within 0.1 % (6 mm), a bound on the
// rigid segments' discretization and the solver's static error.
//
// To reach the static state in a short run every body gets a drag force
// −2 m v (s⁻¹) while settling for 40 s; the run asserts that the bodies
// have then come to rest (below 1 mm/s).
func TestSidewaysPullCatenary(t *testing.T) {
	start := time.Now()
	limp := material.DefaultSteelRope()
	limp.BendingStiffness = 1e-4 * limp.SolidBending()
	const drag = 2.0 // 1/s
	for _, c := range []struct {
		name string
		r    material.Rope
		tol  float64
	}{{"default rope", material.DefaultSteelRope(), 0.03}, {"limp rope", limp, 1e-3}} {
		for _, n := range []int{20, 50} {
			r := c.r
			mu := r.LinearDensity()
			load := mu * rigLength
			pull := (load + mu*rigLength) * gravity / 2
			s := newHangingRope(t, r, n, load)
			top := geom.V(0, 0, rigLength)
			for i := 0; i < int(40/modeH); i++ {
				for _, b := range s.bodies() {
					b.Force = b.Vel.Scale(-drag * b.Mass)
				}
				s.load.Force = s.load.Force.Add(geom.V(pull, 0, 0))
				if err := s.world.Step(modeH); err != nil {
					t.Fatalf("%s, N = %d: %v", c.name, n, err)
				}
			}
			speed := 0.0
			for _, b := range s.bodies() {
				speed = math.Max(speed, b.Vel.Norm())
			}
			if speed > 1e-3 {
				t.Errorf("%s, N = %d: bodies still move at %.3g m/s after settling, want below 1 mm/s", c.name, n, speed)
			}
			end := catenary(rigLength, rigLength, mu*gravity, load*gravity, pull, r.AxialStiffness())
			worst, at := 0.0, 0.0
			l := s.cable.SegmentLength
			check := func(sigma float64, p geom.Vec3) {
				if d := p.Sub(top).Sub(catenary(sigma, rigLength, mu*gravity, load*gravity, pull, r.AxialStiffness())).Norm(); d > worst {
					worst, at = d, sigma
				}
			}
			for i, b := range s.cable.Segments {
				check(float64(i+1)*l, b.PointWorld(geom.V(l/2, 0, 0)))
			}
			check(rigLength, s.load.Pos)
			name := fmt.Sprintf("%s, N = %d: load %.4f m out (closed form %.4f m), largest deviation %.2f mm at %.2f m from the top, %.3f %% of the load's sideways displacement; residual speed %.1e m/s",
				c.name, n, s.load.Pos.X, end.X, 1e3*worst, at, 100*worst/end.X, speed)
			if worst > c.tol*end.X {
				t.Errorf("%s: want within %.1f %%", name, 100*c.tol)
			} else {
				t.Logf("%s", name)
			}
		}
	}
	t.Logf("runtime %.1f s", time.Since(start).Seconds())
}

// Bow of the rope's own bending: the rope bends with its own EI. A 1 m piece of the default rope clamped
// horizontally at one end (EI = 78.5 N·m², weight w = 24.2 N/m) sags under
// its weight as the cantilever y(x) = w x² (6L² − 4Lx + x²)/(24 EI)
// (Euler–Bernoulli; tip w L⁴/(8 EI) = 3.9 cm, small enough to be linear).
// For N = 20 and 50 the segments' end points lie within 3 % of the tip
// deflection of the closed form. Settled with the drag of TestSidewaysPullCatenary
// over 20 s.
func TestCantileverBow(t *testing.T) {
	start := time.Now()
	r := material.DefaultSteelRope()
	const length, drag = 1.0, 2.0
	w := r.LinearDensity() * gravity
	ei := r.Bending()
	deflection := func(x float64) float64 { return w * x * x * (6*length*length - 4*length*x + x*x) / (24 * ei) }
	for _, n := range []int{20, 50} {
		world := multibody.NewWorld(geom.V(0, 0, -gravity))
		world.Solver = &multibody.ActiveSet{Solver: &multibody.Chain{}}
		c, err := NewStraight(geom.Vec3{}, geom.V(length, 0, 0), Options{Rope: r, Segments: n})
		if err != nil {
			t.Fatal(err)
		}
		wall := world.AddBody(multibody.NewStatic("wall", geom.Vec3{}))
		c.AttachStart(wall, geom.Vec3{}, axis, Clamped)
		c.AddTo(world)
		for i := 0; i < int(20/modeH); i++ {
			for _, b := range c.Segments {
				b.Force = b.Vel.Scale(-drag * b.Mass)
			}
			if err := world.Step(modeH); err != nil {
				t.Fatalf("N = %d: %v", n, err)
			}
		}
		l := c.SegmentLength
		worst, tip := 0.0, 0.0
		for i, b := range c.Segments {
			p := b.PointWorld(geom.V(l/2, 0, 0))
			worst = math.Max(worst, math.Abs(-p.Z-deflection(float64(i+1)*l)))
			tip = -p.Z
		}
		name := fmt.Sprintf("N = %d: tip deflection %.2f mm, closed form %.2f mm (%+.2f %%), largest deviation %.3f mm (%.2f %% of the tip's)",
			n, 1e3*tip, 1e3*deflection(length), 100*(tip/deflection(length)-1), 1e3*worst, 100*worst/deflection(length))
		switch {
		case worst > 0.03*deflection(length):
			t.Errorf("%s: want within 3 %% of the tip deflection", name)
		default:
			t.Logf("%s", name)
		}
	}
	t.Logf("runtime %.1f s", time.Since(start).Seconds())
}
