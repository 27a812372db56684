package hmrwire

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/cablefmu/cablefmu/core/contact"
	"github.com/cablefmu/cablefmu/core/geom"
	"github.com/cablefmu/cablefmu/core/material"
	"github.com/cablefmu/cablefmu/core/multibody"
)

// Hoist is a crane's hoisting system on one HMR wire: the wire runs from
// a winch drum on the crane's base over the boom tip's sheaves and under
// the hook block's, n falls in all, to a dead end; the hook block carries
// the load rigidly (a hook and a short, taut sling act as one body while
// the wire holds the load; set down, the block rests with the load), and
// the load can be set down on the ground and lifted again.
//
// The reeving lies in the boom tip's xz-plane with every axle along y:
// boom sheave k at x = 4kr, hook sheave k at x = (4k + 2)r from the first
// boom sheave's centre, r the sheaves' radius, so that each fall hangs
// plumb; the dead end is on the boom tip for an even number of falls and
// on the hook block for an odd one, at x = (2n − 1)r. (Real reevings
// stack the sheaves along their axle, the falls crossing at small fleet
// angles; in the plane the wire cannot run off a sheave's edge, which
// the n-gon prisms, having no flanges, would not stop.)
type Hoist struct {
	Sys *System
	// SlewRate (rad/s, counterclockwise seen from above) slews the
	// superstructure in the next steps (HoistSpec.Slew); LuffRate (rad/s,
	// positive raising the boom) luffs its boom about the boom foot
	// (SlewSpec.BoomFoot).
	SlewRate, LuffRate float64
	// BoomTip is the kinematic body the crane moves; Base the body of the
	// drum's axle: static, or the kinematic superstructure that slews
	// (HoistSpec.Slew), the boom tip then turning with it.
	BoomTip, Base *multibody.Body
	Drum          *Drum
	// footLocal is the boom foot in the superstructure's frame, luffAxis
	// the boom's luff axis there (unit, across the boom).
	footLocal, luffAxis geom.Vec3
	// Sheaves in the wire's order: the boom tip's first, then hook and
	// boom sheaves alternately.
	Sheaves []*Sheave
	// Block is the hook block and the load as one body.
	Block *multibody.Body
	Wire  *Wire
	// Contacts are the load's and the hook block's corners against the
	// ground, if there is one.
	Contacts []*contact.Contact
	// LoadGeometry is the load's box as the wire meets it.
	LoadGeometry *Geometry
	spec         HoistSpec
	// hook and load are the hook sheaves' axle centre and the load's
	// bottom centre in the block's frame (m).
	hook, load geom.Vec3
	// report gives Report's values.
	report *StepMean
}

// HoistSpec describes a Hoist.
type HoistSpec struct {
	// Gravity (m/s²) acts along −z.
	Gravity float64
	// BoomTip (m) is the first boom sheave's centre.
	BoomTip geom.Vec3
	// Drum: its Center is given here, its Axle is the base the builder
	// makes, its Axis is y.
	Drum DrumSpec
	// Falls is the number of falls the hook block hangs on, 1 to 12.
	Falls int
	Rope  material.Rope
	// Sheave is every sheave's make: Radius, Width, Sides, Mass, Inertia,
	// Friction, BearingFriction, Locked (Name, Axle, Center and Axis are
	// set by the builder).
	Sheave SheaveSpec
	// Drop (m) is the hook sheaves' axles' depth below the boom sheaves'
	// at the start: the falls' length.
	Drop float64
	// BlockMass (kg) and BlockSize (m, a box centred on the hook
	// sheaves' axle line) are the hook block's, its sheaves not
	// included. The block balances its sheaves about the falls' pull, as
	// blocks are built to hang level: its centre of mass lies aside of
	// the axles' centre by the sheaves' mass moment over BlockMass, which
	// must stay within the box. BlockBelow (m, within the box's lower
	// half) is how far below the axle line the block's centre of mass
	// lies: a hook block's hook and crosshead hang below its sheaves, and
	// an empty hook whose centre of mass sat on the axle hung balanced
	// about it, rolled over its falls and lost its sheaves (1 kg on the
	// example's block, within 22 s of hanging still).
	BlockMass  float64
	BlockSize  geom.Vec3
	BlockBelow float64
	// LoadMass (kg) and LoadSize (m) are the load's box, hung with its top
	// Sling (m) below the hook sheaves' axles.
	LoadMass float64
	LoadSize geom.Vec3
	Sling    float64
	// Ground, if set, is the ground the load can be set down on.
	Ground *contact.Ground
	// Resolution of the wire; Spacing (m) of the mass nodes the wire is
	// laid with and the winch puts out; MinLength (m) the limit switch's
	// shortest first segment.
	Resolution         Resolution
	Spacing, MinLength float64
	// Twist makes the wire carry twist (WireSpec.Twist): the rope's
	// torque turns the hook block through its sheaves, and turning the
	// block twists the falls. Swivel puts the dead end on the hook block
	// (an odd number of falls) on a swivel.
	Twist, Swivel bool
	// SideBySide reeves the falls as cranes do: the boom sheaves side by
	// side on one axle at the boom tip, the hook sheaves side by side on
	// the block's axle below it, each fall running between a boom and a
	// hook sheave half a sheave pitch apart along the axles (a fleet
	// angle of its own). Without it the sheaves lie in a row along the
	// boom and the falls hang plumb in one plane.
	SideBySide bool
	// CrossedHook reeves the falls over hook sheaves whose axle crosses the
	// boom sheaves' (it runs along x, theirs along y), as many cranes'
	// hook blocks are built: the boom sheaves in a row along the boom, a
	// diameter apart, alternately a radius to either side of the hook
	// block's axle; the hook sheaves on that axle, a diameter apart, each
	// under the boom sheaves' falls it joins and wound alternately one way
	// and the other, so that every fall hangs plumb and the block does not
	// turn. Not with SideBySide.
	CrossedHook bool
	// Slew, if set, puts the drum and the boom on a superstructure that
	// slews about the vertical axis through it: Hoist.SlewRate turns the
	// drum, the boom tip and its sheaves together. Without it the drum
	// stays on the base and the boom tip moves as BoomTip's velocity says.
	Slew *SlewSpec
}

// SlewSpec is a slewing superstructure (HoistSpec.Slew).
type SlewSpec struct {
	// Center (m) is a point of the vertical slew axis.
	Center geom.Vec3
	// BoomFoot (m), if the boom luffs (Hoist.LuffRate), is the point on
	// the superstructure its boom turns about, on a horizontal axis across
	// the boom (parallel to the sheaves' axles): below the boom tip, in
	// its vertical plane. The boom luffs between the horizontal and the
	// vertical; a luff beyond is an error.
	BoomFoot *geom.Vec3
}

// ErrHoist reports a hoist that cannot be built.
var ErrHoist = errors.New("invalid hoist")

// Hooked returns the weight (N) the falls carry at rest with the load
// hanging: the hook block's, its sheaves' and the load's.
func (s *HoistSpec) Hooked() float64 {
	return s.Gravity * (s.BlockMass + s.LoadMass + float64(s.Falls/2)*s.Sheave.Mass)
}

// twoBlock returns how far (m) below the boom sheaves' axles the hook
// block's sheaves' axles must stay: the block's top half and a sheave
// radius, and at least two radii (the sheaves touch).
func (s *HoistSpec) twoBlock() float64 {
	return max(s.BlockSize.Z/2+s.Sheave.Radius, 2*s.Sheave.Radius)
}

func (s *HoistSpec) validate() error {
	var errs []error
	add := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if s.Falls < 1 || s.Falls > 12 {
		add("%d falls: want 1 to 12", s.Falls)
	}
	if !(s.Gravity > 0) || math.IsInf(s.Gravity, 0) {
		add("gravity %g m/s²: a hoist hangs its load by gravity, it must be positive and finite", s.Gravity)
	} else if ea := s.Rope.AxialStiffness(); s.Falls >= 1 && ea > 0 {
		if strain := s.Hooked() / float64(s.Falls) / ea; strain > material.MaxStrain {
			add("the hooked %.4g kg on %d falls stretch the rope by %.3g %% (T/EA): beyond %g %% no rope holds and the model's straight segments do not hold either; give a stiffer rope or more falls",
				s.Hooked()/s.Gravity, s.Falls, 100*strain, 100*material.MaxStrain)
		}
	}
	for _, v := range []struct {
		name string
		x    float64
	}{{"drop (m)", s.Drop}, {"block mass (kg)", s.BlockMass}, {"load mass (kg)", s.LoadMass}, {"spacing (m)", s.Spacing},
		{"sheave radius (m)", s.Sheave.Radius}} {
		if !(v.x > 0) || math.IsInf(v.x, 0) {
			add("%s %g must be positive and finite", v.name, v.x)
		}
	}
	if !(s.Sling >= 0) || math.IsInf(s.Sling, 0) {
		add("sling %g m must be finite and not negative", s.Sling)
	}
	if !(s.BlockBelow >= 0 && s.BlockBelow <= s.BlockSize.Z/2) {
		add("the block's centre of mass %g m below its axle: must lie within the block's lower half (0 to %g m)", s.BlockBelow, s.BlockSize.Z/2)
	}
	// A drum or sheave whose radius at the wire's axis is within the
	// rope's radius would have the wire pass through its axle: D/d ≤ 1
	// (cranes reeve at D/d of 16 and more).
	for _, v := range []struct {
		name string
		r    float64
	}{{"drum", s.Drum.Radius}, {"sheave", s.Sheave.Radius}} {
		if d := s.Rope.Diameter; d > 0 && v.r > 0 && 2*v.r <= d {
			add("%s radius %g m at the wire's axis: D/d = %.3g for the %g m rope; the radius must exceed the rope's radius (cranes use D/d of 16 and more)", v.name, v.r, 2*v.r/d, d)
		}
	}
	if s.CrossedHook && s.SideBySide {
		add("crossed hook sheaves and side-by-side reeving exclude each other")
	}
	if s.CrossedHook && s.Falls < 2 {
		add("crossed hook sheaves need at least 2 falls (a single fall has no hook sheave); %d falls", s.Falls)
	}
	if s.CrossedHook && 2*s.Sheave.Radius < 1.1*s.Sheave.Width {
		add("crossed hook sheaves lie a diameter (%g m) apart on their axle, less than their width %g m and a tenth", 2*s.Sheave.Radius, s.Sheave.Width)
	}
	if s.Swivel && (!s.Twist || s.Falls%2 == 0) {
		add("a swivel needs a wire that twists and an odd number of falls (the dead end on the hook block); %d falls", s.Falls)
	}
	for _, v := range []struct {
		name string
		x    geom.Vec3
	}{{"block size (m)", s.BlockSize}, {"load size (m)", s.LoadSize}} {
		if !(v.x.X > 0 && v.x.Y > 0 && v.x.Z > 0) || !v.x.IsFinite() {
			add("%s %v must be positive", v.name, v.x)
		}
	}
	if !s.BoomTip.IsFinite() || !s.Drum.Center.IsFinite() {
		add("boom tip %v m and drum centre %v m must be finite", s.BoomTip, s.Drum.Center)
	}
	if clear := s.twoBlock(); s.Drop <= clear {
		add("drop %g m: the hook block must hang clear of the boom sheaves (its top and sheaves: more than %g m below their axles)", s.Drop, clear)
	}
	if d := s.BoomTip.Sub(s.Drum.Center); d.X <= 0 || d.Z <= 0 {
		add("the drum at %v m must be below the boom tip %v m and behind it (smaller x): the wire leads up to the first sheave's top", s.Drum.Center, s.BoomTip)
	} else if dist := math.Hypot(d.X, d.Z); dist <= s.Drum.Radius+s.Sheave.Radius {
		add("drum and first sheave overlap")
	} else if math.Abs(d.Y) > 1e-3*s.Drum.Radius {
		// The lead from the drum's top to the first sheave's is laid in
		// the xz-plane through both.
		add("the boom tip %v m must start in the drum's vertical plane y = %g m, %.4g m off it: the lead from the drum is laid in that plane (move the boom tip aside after the start, or slew the superstructure)", s.BoomTip, s.Drum.Center.Y, d.Y)
	}
	if g := s.Ground; g != nil {
		if !(g.Friction >= 0) || math.IsInf(g.Friction, 0) || math.IsNaN(g.Height) || math.IsInf(g.Height, 0) {
			add("ground height %g m and friction %g must be finite, friction not negative", g.Height, g.Friction)
		} else if bottom := s.BoomTip.Z - s.Drop - s.Sling - s.LoadSize.Z; bottom < g.Height {
			add("the load's bottom at %.4g m starts below the ground at %g m", bottom, g.Height)
		}
	}
	return errors.Join(errs...)
}

// NewHoist builds the hoist of spec with the load hanging at rest and the
// wire laid in its static equilibrium: W/n at the hook sheaves' axles,
// rising with the wire's weight above them (without the weight's share
// a 200 m fall of 12 kg/m under 100 t started 1.2 % off its equilibrium
// and bounced so for ever, its damping being the rope's alone).
func NewHoist(spec HoistSpec) (*Hoist, error) {
	if err := spec.validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrHoist, err)
	}
	n, r := spec.Falls, spec.Sheave.Radius
	sys := NewSystem(geom.V(0, 0, -spec.Gravity))
	ho := &Hoist{Sys: sys, spec: spec}
	ho.BoomTip = sys.World.AddBody(multibody.NewKinematic("boom tip", spec.BoomTip))
	if sl := spec.Slew; sl != nil {
		if !sl.Center.IsFinite() {
			return nil, fmt.Errorf("%w: slew axis through %v m: not finite", ErrHoist, sl.Center)
		}
		// The superstructure: kinematic, turning about the slew axis
		// through its centre, which stays.
		ho.Base = sys.World.AddBody(multibody.NewKinematic("superstructure", sl.Center))
		if f := sl.BoomFoot; f != nil {
			if !f.IsFinite() || f.Sub(spec.BoomTip).Norm() == 0 {
				return nil, fmt.Errorf("%w: boom foot %v m: not finite, or at the boom tip", ErrHoist, *f)
			}
			ho.footLocal = f.Sub(sl.Center)
			// The luff axis, across the boom: raising the boom turns it
			// about u × z, u its horizontal direction out from the foot.
			out := spec.BoomTip.Sub(*f)
			u, l := geom.V(out.X, out.Y, 0).Unit()
			if !(l > 0) || !(out.Z > 0) {
				return nil, fmt.Errorf("%w: boom foot %v m: must lie below the boom tip and not straight below it (the boom luffs between the horizontal and the vertical)", ErrHoist, *f)
			}
			if math.Abs(u.Y) > 1e-9 {
				// The sheaves' axles run along y: luffing about another
				// axis would tilt them.
				return nil, fmt.Errorf("%w: boom foot %v m off the boom's vertical plane through the boom tip (y = %g m): luffing would tilt the sheaves' axles", ErrHoist, *f, spec.BoomTip.Y)
			}
			ho.luffAxis = u.Cross(geom.V(0, 0, 1))
		}
	} else {
		ho.Base = sys.World.AddBody(multibody.NewStatic("base", spec.Drum.Center))
	}

	// The block and the load: one body, its frame at their centre of
	// mass, the hook sheaves' axle line at x = n r from the first boom
	// sheave, the falls' centre.
	axle := spec.BoomTip.Add(geom.V(float64(n)*r, 0, -spec.Drop))
	// Side by side: sheave k of the wire's order lies (k − (n−1)/2) half
	// pitches along the axles (its groove's width and a tenth of it
	// between sheaves), the boom and hook sheaves' axles one above the
	// other.
	pitch := 1.1 * spec.Sheave.Width
	// The block's falls pull at its sheaves (two each) and at a dead end
	// on it (odd n): their mean along the axles is where the block hangs
	// from, so the hook sheaves are shifted to put it under the block's
	// centre of mass, as a block is built.
	place := func(k int) float64 { return (float64(k) - float64(n-1)/2) * pitch / 2 }
	shift := 0.0
	for k := 1; k < n; k += 2 {
		shift += 2 * place(k) / float64(n)
	}
	if n%2 == 1 {
		shift += place(n) / float64(n)
	}
	along := func(k int) float64 {
		if k%2 == 1 {
			return place(k) - shift // on the block
		}
		return place(k)
	}
	if spec.SideBySide {
		axle = spec.BoomTip.Add(geom.V(0, 0, -spec.Drop))
		// Under the falls' mean place along the boom's axles (fall i
		// hangs from the wire's 2⌊i/2⌋-th place there, the dead end's
		// on even falls), where their pull across the boom balances: at
		// the boom tip's, the falls leaned and the empty hook swung by up
		// to 5.5 cm about it.
		for i := 1; i <= n; i++ {
			axle.Y += place(2*(i/2)) / float64(n)
		}
		if n%2 == 1 {
			// The dead end's fall comes down a radius aside of the boom
			// sheaves' axle line, to its anchor on the block's (below):
			// the block hangs where the falls' pull along the boom
			// balances, a radius over n aside, each fall leaning.
			axle.X += r / float64(n)
		}
	}
	// Crossed: boom sheave j (the wire's 2j-th) 2j r along the boom and a
	// radius to the −y side of the hook axle (j even) or the +y side (j
	// odd), its falls down at +x and up at −x; hook sheave j (the wire's
	// 2j+1-th) at (2j+1) r along the boom, under boom sheave j's down
	// fall and boom sheave j+1's up fall, wound from −y to +y (j even) or
	// from +y to −y (j odd). The block's axle centre is the falls' mean
	// place, over which the block hangs level.
	crossedBoom := func(j int) geom.Vec3 { return spec.BoomTip.Add(geom.V(float64(2*j)*r, float64(2*(j%2))*r, 0)) }
	crossedHook := func(j int) geom.Vec3 {
		return spec.BoomTip.Add(geom.V(float64(2*j+1)*r, r, -spec.Drop))
	}
	if spec.CrossedHook {
		var mean geom.Vec3
		for k := 0; k < n; k++ { // fall k+1 at the block
			var at geom.Vec3
			switch j := k / 2; {
			case k%2 == 0: // down from boom sheave j to hook sheave j's entry
				at = crossedHook(j).Add(geom.V(0, float64(2*(j%2)-1)*r, 0))
			default: // up from hook sheave j's exit
				at = crossedHook(j).Add(geom.V(0, float64(1-2*(j%2))*r, 0))
			}
			if k == n-1 && n%2 == 1 {
				at = crossedBoom(k / 2).Add(geom.V(r, 0, -spec.Drop)) // the dead end on the block
			}
			mean = mean.Add(at.Scale(1 / float64(n)))
		}
		axle = mean
	}
	// Hook sheave k's centre (k odd, in the wire's order).
	hookSheave := func(k int) geom.Vec3 {
		switch {
		case spec.SideBySide:
			return axle.Add(geom.V(0, along(k), 0))
		case spec.CrossedHook:
			return crossedHook(k / 2)
		}
		return axle.Add(geom.V(float64(2*k-n)*r, 0, 0))
	}
	// The block balances its hook sheaves about the falls' mean, as a
	// block is built to hang level: on an odd number of falls the
	// sheaves' weight lies to one side of it (one 80 kg sheave a radius
	// off on the example's block on three falls), and an empty hook hung
	// tilted by 0.21 rad (0.40 on five falls, 0.47 side by side on three)
	// and rocked about that.
	// Each sheave carries the half turn of wire under it, ρπr, as well
	// (left out, it tilted an empty hook by 0.026 rad on nine falls).
	var lever geom.Vec3 // the hook sheaves' mass moment about the axle, kg·m
	sheaveMass := spec.Sheave.Mass + spec.Rope.LinearDensity()*math.Pi*r
	for k := 1; k < n; k += 2 {
		lever = lever.AddScaled(sheaveMass, hookSheave(k).Sub(axle))
	}
	balance := geom.V(-lever.X, -lever.Y, 0).Scale(1 / spec.BlockMass)
	if h := spec.BlockSize.Scale(0.5); math.Abs(balance.X) > h.X || math.Abs(balance.Y) > h.Y {
		least := max(math.Abs(lever.X)/h.X, math.Abs(lever.Y)/h.Y)
		return nil, fmt.Errorf("%w: the hook block of %.4g kg cannot balance its hook sheaves on %d falls (%.4g kg each with their wire) within itself: its centre of mass would lie %.3g m along the boom and %.3g m across it off its axles' centre, beyond its half length %.3g m or half width %.3g m; give the block at least %.4g kg, or a longer or wider block", ErrHoist, spec.BlockMass, n, sheaveMass, math.Abs(balance.X), math.Abs(balance.Y), h.X, h.Y, least)
	}
	loadCentre := axle.Add(geom.V(0, 0, -spec.Sling-spec.LoadSize.Z/2))
	mb, ml := spec.BlockMass, spec.LoadMass
	m := mb + ml
	// The block's centre of mass below the axle and, balancing, aside.
	blockCentre := axle.Add(balance).Add(geom.V(0, 0, -spec.BlockBelow))
	com := blockCentre.Scale(mb / m).Add(loadCentre.Scale(ml / m))
	ib := multibody.BoxInertia(mb, spec.BlockSize.X, spec.BlockSize.Y, spec.BlockSize.Z)
	il := multibody.BoxInertia(ml, spec.LoadSize.X, spec.LoadSize.Y, spec.LoadSize.Z)
	// Parallel axes; the products of inertia of the block's offset aside
	// are left out, the body's inertia being principal in its frame: their
	// coupling peaks at loads near the block's mass (3.1 % of the moments
	// on three falls, 6.5 % on eleven; examples' README).
	db, dl := blockCentre.Sub(com), loadCentre.Sub(com)
	inertia := ib.Add(il).Add(geom.V(db.Y*db.Y+db.Z*db.Z, db.X*db.X+db.Z*db.Z, db.X*db.X+db.Y*db.Y).Scale(mb)).
		Add(geom.V(dl.Y*dl.Y+dl.Z*dl.Z, dl.X*dl.X+dl.Z*dl.Z, dl.X*dl.X+dl.Y*dl.Y).Scale(ml))
	ho.Block = sys.World.AddBody(multibody.NewBody("hook block", m, inertia, com))
	ho.hook = axle.Sub(com)
	ho.load = loadCentre.Sub(com).Add(geom.V(0, 0, -spec.LoadSize.Z/2))
	if g := spec.Ground; g != nil {
		// Every corner of the load and of the hook block: the falls
		// hold them upright only while they carry them. An empty hook
		// lowered onto the ground, its centre of mass near the axle,
		// rolls over, and an overload dropped onto it tips over;
		// with the load's bottom corners alone, either came to rest
		// with the load's top on the ground and the body below it (the
		// hook 3 m down). The twelve other corners' rows, switched off
		// while the body stands, stay in the sparse solve: 6 to 9 % of
		// a step's instructions (BenchmarkWireHoist at rest, hauling and
		// set down).
		for _, box := range []struct {
			size, centre geom.Vec3
		}{{spec.LoadSize, loadCentre}, {spec.BlockSize, axle}} {
			for _, p := range contact.BoxCorners(ho.Block, box.size) {
				p.Offset = p.Offset.Add(box.centre.Sub(com))
				c := contact.New(g, p)
				sys.World.AddConstraint(c)
				ho.Contacts = append(ho.Contacts, c)
			}
		}
	}

	// The load is geometry for the wire: slack falls lie on it, not
	// through it, with the ground's friction (none without a ground).
	shape, err := Box(spec.LoadSize)
	if err != nil {
		return nil, fmt.Errorf("%w: the load: %w", ErrHoist, err)
	}
	mu := 0.0
	if g := spec.Ground; g != nil {
		mu = g.Friction
	}
	loadGeo, err := NewGeometry("load", ho.Block, shape, loadCentre.Sub(com), geom.Quat{W: 1}, mu)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrHoist, err)
	}
	sys.AddGeometry(loadGeo)
	ho.LoadGeometry = loadGeo

	ds := spec.Drum
	ds.Axle, ds.Axis = ho.Base, geom.V(0, 1, 0)
	if ds.Spool {
		ds.Pitch = spec.Rope.Diameter
	}
	if ds.Name == "" {
		ds.Name = "drum"
	}
	drum, err := sys.AddDrum(ds)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrHoist, err)
	}
	ho.Drum = drum

	// Sheaves in the wire's order.
	for k := 0; k < n; k++ {
		ss := spec.Sheave
		ss.Axis = geom.V(0, 1, 0)
		boom := spec.BoomTip.Add(geom.V(float64(2*k)*r, 0, 0))
		switch {
		case spec.SideBySide:
			boom = spec.BoomTip.Add(geom.V(0, along(k), 0))
		case spec.CrossedHook:
			boom = crossedBoom(k / 2)
			if k%2 == 1 {
				ss.Axis = geom.V(1, 0, 0)
			}
		}
		hook := hookSheave(k)
		if k%2 == 0 {
			ss.Name, ss.Axle, ss.Center = fmt.Sprintf("boom sheave %d", k/2+1), ho.BoomTip, boom
		} else {
			ss.Name, ss.Axle, ss.Center = fmt.Sprintf("hook sheave %d", k/2+1), ho.Block, hook
		}
		sh, err := sys.AddSheave(ss)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrHoist, err)
		}
		ho.Sheaves = append(ho.Sheaves, sh)
	}

	// The route: the lead from the drum's top over the first sheave's
	// (in its sag, tangent to both; catenaryLead starts from their outer
	// tangent), then over and under the sheaves.
	// Spooled, the wire leaves the drum on its layer's radius, across
	// the drum at its last turn (Layer).
	c1, cd := spec.BoomTip, spec.Drum.Center
	rd, across := spec.Drum.Radius, 0.0
	if ds.Spool {
		_, rd, across = Layer(spec.Drum.Wound, spec.Drum.Radius, spec.Drum.Width, ds.Pitch)
	}
	d, dist := c1.Sub(cd).Unit()
	up := geom.V(-d.Z, 0, d.X) // d turned a quarter towards +z
	sinPhi := (rd - r) / dist
	normal := up.Scale(math.Sqrt(1-sinPhi*sinPhi)).AddScaled(sinPhi, d)
	// The lead in its sag, where the falls' tension spans it (catenaryLead).
	rise := spec.Rope.LinearDensity() * spec.Gravity
	l := lead{drum: normal, sheave: normal}
	if rise > 0 {
		if c, ok := catenaryLead(cd, rd, across, ho.Sheaves[0].Body.Pos, r, normal, axle.Z-spec.Hooked()/float64(n)/rise, spec.Spacing); ok {
			l = c
		}
	}
	route := []RoutePoint{{Kind: End, Point: cd.AddScaled(rd, l.drum).Add(geom.V(0, across, 0)), Body: ho.Base}}
	for _, p := range l.via {
		route = append(route, RoutePoint{Kind: Via, Point: p})
	}
	for k, sh := range ho.Sheaves {
		switch {
		case k == 0:
			route = ho.wrap(route, sh, math.Atan2(l.sheave.Z, l.sheave.X), 0)
		case k%2 == 1 && spec.SideBySide:
			// Down on the +x side, under, up on the −x side.
			route = ho.wrap(route, sh, 0, -math.Pi)
		case k%2 == 1 && spec.CrossedHook && (k/2)%2 == 0:
			// Down on the −y side, under, up on the +y side.
			route = ho.wrap(route, sh, math.Pi, 2*math.Pi)
		case k%2 == 1 && spec.CrossedHook:
			// Down on the +y side, under, up on the −y side.
			route = ho.wrap(route, sh, 0, -math.Pi)
		case k%2 == 1:
			route = ho.wrap(route, sh, math.Pi, 2*math.Pi)
		default:
			route = ho.wrap(route, sh, math.Pi, 0)
		}
	}
	deadEnd := RoutePoint{Kind: End, Point: spec.BoomTip.Add(geom.V(float64(2*n-1)*r, 0, 0)), Body: ho.BoomTip}
	if n%2 == 1 {
		deadEnd.Point, deadEnd.Body, deadEnd.Swivel = axle.Add(geom.V(float64(n-1)*r, 0, 0)), ho.Block, spec.Swivel
	}
	switch {
	case spec.SideBySide:
		// The last fall to its anchor at the next place along the axles:
		// up to the boom tip from a hook sheave, down to the block from a
		// boom sheave. On the block the anchor (a becket) lies on the
		// axles' line, where the falls' pull balances: a radius aside,
		// under the sheave's side, it pulled the block round by the fall's
		// tension on that lever, and an empty hook on three falls hung
		// tilted by 0.47 rad.
		deadEnd.Point = spec.BoomTip.Add(geom.V(-r, place(n), 0))
		if n%2 == 1 {
			deadEnd.Point = axle.Add(geom.V(0, place(n)-shift, 0))
		}
	case spec.CrossedHook:
		// Plumb above the last hook sheave's exit, or below the last
		// boom sheave's down side.
		j := (n - 1) / 2
		deadEnd.Point = crossedHook(j).Add(geom.V(0, float64(1-2*(j%2))*r, spec.Drop))
		if n%2 == 1 {
			deadEnd.Point = crossedBoom(j).Add(geom.V(r, 0, -spec.Drop))
		}
	}
	route = append(route, deadEnd)
	w, err := sys.AddWire(WireSpec{Name: "hoist wire", Rope: spec.Rope, Resolution: spec.Resolution, Route: route,
		Spacing: spec.Spacing, Tension: spec.Hooked() / float64(n), Ground: spec.Ground, Twist: spec.Twist,
		// In its static equilibrium: each fall carries W/n at the hook
		// sheaves' axles and its weight above them.
		TensionRise: rise, TensionHeight: axle.Z,
		Winch: &Winch{Drum: drum, Spacing: spec.Spacing, MinLength: spec.MinLength}})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrHoist, err)
	}
	ho.Wire = w
	// The sheaves' and the drum's wrap angles and the fleet angles from
	// the start, for what is read before the first step; whether a fleet
	// angle is beyond its limit is left to the first step, which reports
	// it.
	sys.measureSheaves()
	for _, sh := range ho.Sheaves {
		sh.hinge.beyond = false
	}
	drum.hinge.wrap = drum.wrapAngle()
	ho.report = sys.AddMean(ho.readReport)
	return ho, nil
}

// wrap appends the corners of sheave s from angle a0 to a1 (rad, in its
// plane from +x towards +z, or from +y for a sheave whose axle runs along
// x) to route.
func (ho *Hoist) wrap(route []RoutePoint, s *Sheave, a0, a1 float64) []RoutePoint {
	r, sides := ho.spec.Sheave.Radius, ho.spec.Sheave.Sides
	c := s.Body.Pos
	u := geom.V(1, 0, 0)
	if axle := s.Body.Rot.Rotate(geom.V(0, 0, 1)); math.Abs(axle.X) > 0.5 {
		u = geom.V(0, 1, 0)
	}
	step := 2 * math.Pi / float64(sides)
	k0, k1 := int(math.Round(a0/step)), int(math.Round(a1/step))
	for k := k0; ; {
		a := float64(k) * step
		route = append(route, RoutePoint{Kind: Wrap, Point: c.AddScaled(r*math.Cos(a), u).Add(geom.V(0, 0, r*math.Sin(a))), Geometry: s.Geometry})
		if k == k1 {
			return route
		}
		if k1 > k0 {
			k++
		} else {
			k--
		}
	}
}

// Yaw returns the hook block's turn about the vertical (rad, in (−π, π],
// counterclockwise seen from above) and its rate (rad/s).
func (ho *Hoist) Yaw() (angle, rate float64) {
	x := ho.Block.Rot.Rotate(geom.V(1, 0, 0))
	return math.Atan2(x.Y, x.X), ho.Block.AngVel.Z
}

// Spec returns the specification the hoist was built from.
func (ho *Hoist) Spec() HoistSpec { return ho.spec }

// Hook returns the hook sheaves' axle centre (m, world): the hook's
// position (the boom tip's for a single fall's hook, which has no
// sheave).
func (ho *Hoist) Hook() geom.Vec3 { return ho.Block.PointWorld(ho.hook) }

// LoadBottom returns the centre of the load's bottom face (m, world).
func (ho *Hoist) LoadBottom() geom.Vec3 { return ho.Block.PointWorld(ho.load) }

// GroundForce returns the ground's normal force on the load and the hook
// block in the last step (N); 0 before the first.
func (ho *Hoist) GroundForce() float64 {
	h := ho.Sys.LastStep()
	if h == 0 {
		return 0
	}
	f := 0.0
	for _, c := range ho.Contacts {
		f += c.Force(h)
	}
	return f
}

// Where Report puts what it reports.
const (
	ReportDrumTension = iota
	ReportFirstTorque
	ReportLastTorque
	ReportFalls
)

// Report appends to dst what the wire did over the last step: the tension
// at the drum (N, Drum.Tension), the rope's torques at its first and last
// ends (N·m, Wire.EndTorques), then each fall's tension (N), from the
// fall leaving the first boom sheave to the dead end's: the means over
// the step's substeps where the system cut it (System.AddMean), else the
// last step's (the wire's segments hold their last solve's impulses).
func (ho *Hoist) Report(dst []float64) []float64 { return ho.report.Values(dst) }

// FallTensions returns each fall's tension over the last step (N), as
// Report.
func (ho *Hoist) FallTensions() []float64 { return ho.Report(nil)[ReportFalls:] }

// readReport appends Report's values after the last solve.
func (ho *Hoist) readReport(dst []float64) []float64 {
	first, last := ho.Wire.EndTorques()
	dst = append(dst, ho.Drum.Tension(), first, last)
	return append(dst, ho.fallTensions()...)
}

// fallTensions returns each fall's tension in the last solve (N), from
// the fall leaving the first boom sheave to the dead end's: the mean
// over the fall's straight run of the tensions of its sub-segments,
// weighted by their lengths.
func (ho *Hoist) fallTensions() []float64 {
	n := len(ho.Sheaves)
	out := make([]float64, n)
	weight := make([]float64, n)
	sheave := make(map[*Geometry]int, n)
	for k, s := range ho.Sheaves {
		sheave[s.Geometry] = k
	}
	// fall is the fall the node's sub-segment lies on: the one leaving
	// the last sheave whose contact node came before, −1 on the lead.
	fall := -1
	nodes := ho.Wire.nodes
	for i := 0; i < len(nodes)-1; i++ {
		if nd := nodes[i]; nd.kind == ContactNode {
			k, ok := sheave[nd.geo]
			if !ok {
				continue
			}
			fall = k
			if next := nodes[i+1]; next.kind == ContactNode && next.geo == nd.geo {
				continue // on the sheave
			}
		}
		if fall < 0 {
			continue
		}
		l := nodes[i+1].position().Sub(nodes[i].position()).Norm()
		out[fall] += l * nodes[i].tension
		weight[fall] += l
	}
	for k := range out {
		if weight[k] > 0 {
			out[k] /= weight[k]
		}
	}
	return out
}

// ErrTwoBlock reports a hook block hauled into the boom tip's sheaves.
var ErrTwoBlock = errors.New("the hook block reached the boom tip (two-blocking)")

// Step advances the hoist by h seconds. A hook block hauled up into the
// boom tip's sheaves (its top, or its sheaves, touching them) is an error:
// a crane's anti-two-block switch stops the winch before; hauled on, the
// wire's pieces between the sheaves would shrink to nothing.
func (ho *Hoist) Step(h float64) error {
	switch sl := ho.spec.Slew; {
	case sl == nil && (ho.SlewRate != 0 || ho.LuffRate != 0):
		return fmt.Errorf("%w: slew rate %g rad/s and luff rate %g rad/s on a hoist without a slewing superstructure (HoistSpec.Slew)", ErrHoist, ho.SlewRate, ho.LuffRate)
	case sl != nil && sl.BoomFoot == nil && ho.LuffRate != 0:
		return fmt.Errorf("%w: luff rate %g rad/s on a superstructure without a boom foot (SlewSpec.BoomFoot)", ErrHoist, ho.LuffRate)
	case sl != nil:
		if err := ho.slew(h); err != nil {
			return err
		}
	}
	if err := ho.Sys.Step(h); err != nil {
		return err
	}
	if gap := ho.BoomTip.Pos.Z - ho.Hook().Z; gap < ho.spec.twoBlock() {
		return fmt.Errorf("%w: its sheaves' axles %.3g m below the boom sheaves' (%s)", ErrTwoBlock, gap, ho.twoBlockHint())
	}
	return nil
}

// twoBlockHint says what brought the hook block up to the boom tip, as
// far as the inputs tell: hauling in, luffing down (the tip comes down
// faster than the block can fall), both, or neither (the block thrown up).
func (ho *Hoist) twoBlockHint() string {
	var what []string
	if ho.Drum.Speed < 0 {
		what = append(what, "hauling in")
	}
	if ho.LuffRate < 0 {
		what = append(what, "luffing down")
	}
	if len(what) == 0 {
		return "the block was thrown up into the sheaves"
	}
	return "stop " + strings.Join(what, " and ") + " before"
}

// slew sets the superstructure turning at SlewRate about the slew axis
// for a step of h seconds, and the boom tip with it: turning with the
// superstructure (its sheaves' axles turn), moving along the chord that
// takes it to where the turn puts it, so that it stays on its circle.
//
// Luffing, the boom tip first turns about the boom foot by LuffRate·h on
// the horizontal axis across the boom (its sheaves' axles, which keep
// their direction), then with the superstructure.
func (ho *Hoist) slew(h float64) error {
	w := ho.SlewRate
	z := geom.V(0, 0, 1)
	tip := ho.BoomTip.Pos
	var luff geom.Vec3 // the luff's angular velocity
	if ho.LuffRate != 0 {
		if a := ho.LuffAngle() + ho.LuffRate*h; !(a > 0 && a < math.Pi/2) {
			return fmt.Errorf("%w: the boom luffed to %.2f°, beyond the horizontal or the vertical (luff rate %g rad/s)", ErrHoist, a*180/math.Pi, ho.LuffRate)
		}
		foot := ho.Base.PointWorld(ho.footLocal)
		axis := ho.Base.Rot.Rotate(ho.luffAxis) // across the boom, turning with the superstructure
		luff = axis.Scale(ho.LuffRate)
		tip = foot.Add(geom.AxisAngle(axis, ho.LuffRate*h).Rotate(tip.Sub(foot)))
	}
	ho.Base.Vel, ho.Base.AngVel = geom.Vec3{}, z.Scale(w)
	to := ho.Base.Pos.Add(geom.AxisAngle(z, w*h).Rotate(tip.Sub(ho.Base.Pos)))
	ho.BoomTip.Vel, ho.BoomTip.AngVel = to.Sub(ho.BoomTip.Pos).Scale(1/h), z.Scale(w).Add(luff)
	return nil
}

// LuffAngle returns the boom's angle (rad) above the horizontal, from the
// boom foot to the boom tip (the first boom sheave's centre), in the
// boom's vertical plane; 0 without a boom foot.
func (ho *Hoist) LuffAngle() float64 {
	sl := ho.spec.Slew
	if sl == nil || sl.BoomFoot == nil {
		return 0
	}
	// In the boom's vertical plane: beyond the vertical the angle goes on
	// past π/2.
	r := ho.BoomTip.Pos.Sub(ho.Base.PointWorld(ho.footLocal))
	out := ho.Base.Rot.Rotate(ho.luffAxis).Cross(geom.V(0, 0, 1)).Scale(-1)
	return math.Atan2(r.Z, r.Dot(out))
}

// SlewAngle returns the angle (rad) the superstructure slewed from the
// start, counterclockwise seen from above, in (−π, π]; 0 without one.
func (ho *Hoist) SlewAngle() float64 {
	x := ho.Base.Rot.Rotate(geom.V(1, 0, 0))
	return math.Atan2(x.Y, x.X)
}

// LoadCentre returns the centre of the load's box (m, world).
func (ho *Hoist) LoadCentre() geom.Vec3 {
	return ho.Block.PointWorld(ho.load.Add(geom.V(0, 0, ho.spec.LoadSize.Z/2)))
}

// HookVelocity returns the velocity (m/s, world) of the hook sheaves'
// axle centre.
func (ho *Hoist) HookVelocity() geom.Vec3 { return ho.Block.PointVel(ho.Hook()) }

// LoadVelocity returns the velocity (m/s, world) of the load's centre.
func (ho *Hoist) LoadVelocity() geom.Vec3 { return ho.Block.PointVel(ho.LoadCentre()) }
