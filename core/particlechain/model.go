package particlechain

import (
	"fmt"
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/massless"
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// Model is one of the chain configurations of [SL08] §III, Fig. 1.
type Model byte

const (
	// LinkChain (a): pairwise distance constraints.
	LinkChain Model = 'a'
	// MasslessCable (b): (a) plus a massless cable over the whole chain,
	// Σ|d_i| = L.
	MasslessCable Model = 'b'
	// LoadEnforcement (c): (a) plus a direct link from the anchor to the
	// load, |x_N| = L.
	LoadEnforcement Model = 'c'
	// TruncatedCable (d): (b) without the last link.
	TruncatedCable Model = 'd'
	// AngularChain (e): (a) plus the bend angle between consecutive links.
	AngularChain Model = 'e'
)

// Config is one experiment of Table I.
type Config struct {
	Model Model
	// N particles, the last one the load; links of length D (m).
	N int
	D float64
	// Mass of the light particles (kg) and the load/particle mass ratio.
	Mass, Ratio float64
	// EpsD is the links' compliance ε_d (m/N), EpsX the supplementary
	// constraint's (ε_m, ε_le: m/N; ε_a: rad/(N·m)).
	EpsD, EpsX float64
	// Damping is SPOOK's relaxation time γ (s) of all rows.
	Damping float64
	// Gravity (m/s²) along −z.
	Gravity float64
}

// Chain is a built experiment.
type Chain struct {
	World *multibody.World
	Links []*Distance
	D     float64
}

// New builds the chain lying horizontally along x from an anchor at the
// origin, at rest: the start of the experiment, which drops it.
func New(cfg Config) (*Chain, error) {
	if cfg.N < 2 || !(cfg.D > 0) || !(cfg.Mass > 0) || !(cfg.Ratio > 0) {
		return nil, fmt.Errorf("chain of %d particles, link %g m, mass %g kg, ratio %g: need N ≥ 2 and positive sizes", cfg.N, cfg.D, cfg.Mass, cfg.Ratio)
	}
	w := multibody.NewWorld(geom.V(0, 0, -cfg.Gravity))
	anchor := w.AddBody(multibody.NewStatic("anchor", geom.Vec3{}))
	bodies := []*multibody.Body{anchor}
	for i := 1; i <= cfg.N; i++ {
		m := cfg.Mass
		if i == cfg.N {
			m *= cfg.Ratio
		}
		bodies = append(bodies, w.AddBody(multibody.NewParticle(fmt.Sprintf("particle %d", i), m, geom.V(float64(i)*cfg.D, 0, 0))))
	}
	c := &Chain{World: w, D: cfg.D}
	links := cfg.N
	if cfg.Model == TruncatedCable {
		links = cfg.N - 1
	}
	for i := 0; i < links; i++ {
		l := NewDistance(bodies[i], bodies[i+1], cfg.D)
		l.Compliance, l.Damping = cfg.EpsD, cfg.Damping
		w.AddConstraint(l)
		c.Links = append(c.Links, l)
	}
	length := float64(cfg.N) * cfg.D
	switch cfg.Model {
	case LinkChain:
	case MasslessCable, TruncatedCable:
		route := make([]massless.Node, len(bodies))
		for i, b := range bodies {
			route[i] = massless.Node{Body: b}
		}
		if !(cfg.EpsX > 0) {
			return nil, fmt.Errorf("model (%c): the massless cable needs a compliance ε_m > 0", cfg.Model)
		}
		// The chain's links as a rope of compliance ε_m per length.
		rope := material.FromStiffness(1/cfg.EpsX*length, 1, 0.02)
		rope.DampingTime = cfg.Damping
		s, err := massless.NewStretch(route, length, rope)
		if err != nil {
			return nil, err
		}
		w.AddConstraint(s)
	case LoadEnforcement:
		le := NewDistance(anchor, bodies[cfg.N], length)
		le.Compliance, le.Damping = cfg.EpsX, cfg.Damping
		w.AddConstraint(le)
	case AngularChain:
		for i := 0; i+2 < len(bodies); i++ {
			a := NewAngle(bodies[i], bodies[i+1], bodies[i+2])
			a.Compliance, a.Damping = cfg.EpsX, cfg.Damping
			w.AddConstraint(a)
		}
	default:
		return nil, fmt.Errorf("unknown model %q", cfg.Model)
	}
	return c, nil
}

// Run steps the chain for the given time at step h and returns the
// largest link violation |φ_d| relative to the link length; it stops
// early, with the violation so far, once that exceeds 1 (the chain has
// flown apart).
func (c *Chain) Run(seconds, h float64) (float64, error) {
	worst := 0.0
	for i := 0; i < int(math.Round(seconds/h)); i++ {
		if err := c.World.Step(h); err != nil {
			return math.Inf(1), err
		}
		for _, l := range c.Links {
			worst = max(worst, math.Abs(l.Violation())/c.D)
		}
		if worst > 1 || math.IsNaN(worst) {
			return worst, nil
		}
	}
	return worst, nil
}

// Unstable is the link violation, relative to the link length, above which
// a chain counts as unstable: "large, or even diverging, variations in
// φ_d" ([SL08] §III). A stable chain whipping down from the horizontal
// stays well below it (SPOOK's linearization leaves O(h²v²/d), a few
// percent), an unstable one flies apart past 100 %.
const Unstable = 0.25

// TableI is the paper's experiment: a chain of N = 5 links of 1 m and 1 kg
// particles, dropped from rest in the horizontal at g = 10 m/s² and
// stepped for 10 s at 1/60 s.
func TableI(model Model, epsD, epsX float64) Config {
	return Config{Model: model, N: 5, D: 1, Mass: 1, Ratio: 1, EpsD: epsD, EpsX: epsX, Damping: 2.0 / 60, Gravity: 10}
}

// MaxStableRatio raises the load/particle mass ratio by factors of ten
// from 1 to 10^maxExp and returns the largest ratio at which cfg stays
// stable (0 if already ratio 1 is not).
func MaxStableRatio(cfg Config, maxExp int) (float64, error) {
	best := 0.0
	for e := 0; e <= maxExp; e++ {
		cfg.Ratio = math.Pow(10, float64(e))
		c, err := New(cfg)
		if err != nil {
			return 0, err
		}
		v, err := c.Run(10, 1.0/60)
		if err != nil || v > Unstable {
			break
		}
		best = cfg.Ratio
	}
	return best, nil
}
