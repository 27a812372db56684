package multibody

import (
	"fmt"
	"math"
)

// GaussSeidel solves the Schur complement by block Gauss–Seidel over
// groups of constraints ([SL08] Algorithm 1): each group is solved by a
// direct solver of its own, the coupling between groups by iteration. A
// first pass solves every group alone (the preconditioning step, lines
// 5–8), then Iterations sweeps solve each group with the others' latest
// impulses (lines 9–15).
//
// Groups are consecutive runs of constraints in insertion order; the sizes
// (numbers of constraints) must add up to the world's constraint count.
//
// Within a step each group's S_αα is fixed: a Factorizer group is factored
// once and then only substituted in each sweep. Groups whose rows are all
// pinned to zero (switched-off contacts) are skipped, and the sweeps stop
// early once no impulse changes by more than 1e-12 of the largest.
type GaussSeidel struct {
	// Sizes are the numbers of constraints in each group.
	Sizes []int
	// Solvers solve the groups; a nil entry (or a missing one) is Dense.
	Solvers []Solver
	// Iterations is N_it, the number of Gauss–Seidel sweeps.
	Iterations int
	// Name, when set, says what group i holds, for the errors of its
	// solve (say, "the load's corners on the ground"); they name the
	// group by its index otherwise.
	Name func(i int) string

	layout structure
	groups []group
	// active lists this step's groups that are not pinned, in order: the
	// sweeps visit only those (a cable's many switched-off contacts are
	// passed over once, not once per sweep).
	active  []int
	dv      []velocityChange // per dynamic body slot: M⁻¹Gᵀλ summed
	coupled bool             // this step: more than one group active, dv needed
}

type group struct {
	sub         Problem
	first, last int // rows
	// known is the group's part of the problem's pinned, or nil.
	known  []bool
	solver Solver
	// factorizer is solver as a Factorizer, or nil: asserted once, at
	// setup.
	factorizer Factorizer
	factored   bool // this step: S_αα factored
}

// groupName returns how errors name group i.
func (gs *GaussSeidel) groupName(i int) string {
	if gs.Name != nil {
		return fmt.Sprintf("group %d (%s)", i, gs.Name(i))
	}
	return fmt.Sprintf("group %d", i)
}

// Solve implements Solver.
func (gs *GaussSeidel) Solve(p *Problem) error {
	if gs.layout != p.structure() || gs.groups == nil {
		if err := gs.setup(p); err != nil {
			return err
		}
	}
	for i := range gs.dv {
		gs.dv[i] = velocityChange{}
	}
	clear(p.Lambda)
	gs.active = gs.active[:0]
	// A local: the loop's stores (append, factored) would make the
	// compiler reload the field at every group.
	groups := gs.groups
	for i := range groups {
		g := &groups[i]
		// The group's bounds are p's rows first to last (setup), as
		// slices that need not be cut again each step; a World tells
		// which are pinned without them.
		if g.known != nil && allTrue(g.known) || pinned(g.sub.Lo, g.sub.Hi) {
			continue
		}
		gs.active = append(gs.active, i)
		g.factored = false
		if g.factorizer != nil {
			if err := g.factorizer.Factor(&g.sub); err != nil {
				return fmt.Errorf("%s: %w", gs.groupName(i), err)
			}
			g.factored = true
		}
	}
	// A group alone needs no coupling: dv and the convergence measure
	// are left out.
	gs.coupled = len(gs.active) > 1
	for pass := 0; pass <= gs.Iterations; pass++ {
		change, size := 0.0, 0.0
		for _, i := range gs.active {
			// Pass 0 is the preconditioning step: each group alone.
			c, s, err := gs.solveGroup(p, &gs.groups[i], pass > 0)
			if err != nil {
				return fmt.Errorf("%s, pass %d: %w", gs.groupName(i), pass, err)
			}
			change, size = max(change, c), max(size, s)
		}
		if !gs.coupled || (pass > 0 && change <= 1e-12*size) {
			break
		}
	}
	return nil
}

// allTrue reports whether every element of s is true.
func allTrue(s []bool) bool {
	for _, b := range s {
		if !b {
			return false
		}
	}
	return true
}

// pinned reports whether every row's bounds are [0, 0] (a switched-off
// contact's). Locals and slices of one length: the loop needs no bounds
// checks and reads no field through a pointer, where the form writing
// the group's flag each row reloaded both slices at every row. A bound
// is ±0 exactly when its bits are zero but for the sign: one integer
// test takes both bounds, where comparing floats takes two tests each
// (a NaN compares unordered), and a NaN, whose exponent bits are set,
// is not zero either way.
func pinned(lo, hi []float64) bool {
	hi = hi[:len(lo)]
	for r, l := range lo {
		if (math.Float64bits(l)|math.Float64bits(hi[r]))<<1 != 0 {
			return false
		}
	}
	return true
}

func (gs *GaussSeidel) setup(p *Problem) error {
	total := 0
	for _, s := range gs.Sizes {
		total += s
	}
	if total != len(p.Groups)-1 {
		return fmt.Errorf("Gauss–Seidel groups hold %d constraints, the world has %d", total, len(p.Groups)-1)
	}
	gs.layout = p.structure()
	gs.dv = make([]velocityChange, p.Slots)
	entry := make([]int, p.Slots) // scratch for the groups' index
	gs.groups = gs.groups[:0]
	c := 0
	for i, size := range gs.Sizes {
		first, last := p.Groups[c], p.Groups[c+size]
		g := group{first: first, last: last, solver: &Dense{}}
		if len(p.pinned) == len(p.Groups)-1 {
			// Made with the layout, as Groups: a new one is a new setup.
			g.known = p.pinned[c : c+size]
		}
		if i < len(gs.Solvers) && gs.Solvers[i] != nil {
			g.solver = gs.Solvers[i]
		}
		g.factorizer, _ = g.solver.(Factorizer)
		sub := &g.sub
		sub.Rows = p.Rows[first:last]
		sub.Sigma, sub.B = p.Sigma[first:last], make([]float64, last-first)
		sub.Lo, sub.Hi, sub.Lambda = p.Lo[first:last], p.Hi[first:last], make([]float64, last-first)
		if len(p.Start) == len(p.Rows) {
			sub.Start = p.Start[first:last]
		}
		for k := c; k <= c+size; k++ {
			sub.Groups = append(sub.Groups, p.Groups[k]-first)
		}
		if len(p.blockStart) == len(p.Groups) {
			// The group's blocks are where p's are: its constraints'
			// first blocks, taken as they are, index p's arrays.
			sub.js, sub.minvJs, sub.blockStart = p.js, p.minvJs, p.blockStart[c:c+size+1]
		}
		if len(p.sums) == len(p.Rows) {
			sub.sums = p.sums[first:last]
		}
		sub.Slots, sub.helper = p.Slots, p.helper
		sub.index(entry)
		sub.Layout = p.Layout
		gs.groups = append(gs.groups, g)
		c += size
	}
	return nil
}

// solveGroup solves S_αα λ_α = b_α − Σ_{β≠α} S_αβ λ_β, with the coupling
// read off the accumulated velocity changes M⁻¹Gᵀλ of the other groups.
// It returns the largest change of an impulse and the largest impulse
// (zeros when the group is alone).
func (gs *GaussSeidel) solveGroup(p *Problem, g *group, coupled bool) (change, size float64, err error) {
	gs.accumulate(p, g, -1) // take the group's own part out
	if coupled {
		for r := g.first; r < g.last; r++ {
			row := &p.Rows[r]
			coupling := 0.0
			for k, b := range row.Bodies {
				if b.Kind != Dynamic {
					continue
				}
				coupling += gs.dv[b.slot].rate(&row.J[k])
			}
			g.sub.B[r-g.first] = p.B[r] - coupling
		}
	} else {
		copy(g.sub.B, p.B[g.first:g.last]) // b_α alone: one copy, not a loop
	}
	if g.factored {
		err = g.factorizer.Substitute(&g.sub)
	} else {
		err = g.solver.Solve(&g.sub)
	}
	if err != nil {
		return 0, 0, err
	}
	if gs.coupled { // a group alone stops after one pass anyway
		for k, l := range g.sub.Lambda {
			change = max(change, math.Abs(l-p.Lambda[g.first+k]))
			size = max(size, math.Abs(l))
		}
	}
	copy(p.Lambda[g.first:g.last], g.sub.Lambda)
	gs.accumulate(p, g, 1)
	return change, size, nil
}

// accumulate adds sign × M⁻¹Gᵀλ of the group's rows to the bodies' sums.
func (gs *GaussSeidel) accumulate(p *Problem, g *group, sign float64) {
	if !gs.coupled {
		return
	}
	for r := g.first; r < g.last; r++ {
		l := sign * p.Lambda[r]
		if l == 0 {
			continue
		}
		row := &p.Rows[r]
		for k, b := range row.Bodies {
			if b.Kind != Dynamic {
				continue
			}
			gs.dv[b.slot].add(l, &row.MinvJ[k])
		}
	}
}
