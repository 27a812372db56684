package hmrwire

import (
	"math"

	"github.com/cablefmu/cablefmu/core/geom"
)

// lead is how the hoist's wire runs from the drum to the first sheave:
// the unit normals, in the xz-plane, of its tangent points on the drum and
// on the sheave (from their centres) and the points laid between them.
type lead struct {
	drum, sheave geom.Vec3
	via          []geom.Vec3
}

// catenaryLead lays the lead in its static equilibrium: the catenary of
// the wire's weight whose tension T(z) = ρg (z − zeroHeight) rises with
// height as the falls' does (WireSpec.TensionRise), tangent to the drum
// (centre cd, radius rd) and to the first sheave (centre c1, radius r),
// the drum behind the sheave (smaller x), with points at most spacing (m)
// apart along it. Laid straight, the lead fell into its sag in the first
// seconds and pulled the sag's extra length off the falls: the example's
// block with 1 to 100 kg on it rose by 0.2 m and bobbed for as long as it
// hung, at the lead's swing (4.3 s). across (m) moves the drum's point
// along the drum's axis (y), as spooling puts it. straight is the normal
// of the straight lead's tangent points (the outer tangent of the two
// circles), where the fit starts. ok is false where no catenary of that
// tension spans the two (the falls' tension too low for the lead's
// weight), or no point lies between them (a lead shorter than two
// spacings): the lead is then laid straight.
func catenaryLead(cd geom.Vec3, rd, across float64, c1 geom.Vec3, r float64, straight geom.Vec3, zeroHeight, spacing float64) (l lead, ok bool) {
	if !(spacing > 0) {
		return lead{}, false
	}
	n0, n1 := straight, straight
	var p0, p1 geom.Vec3
	var a, sv, span float64
	// The tangent points move with the catenary's slopes at its ends and
	// the catenary with them; each round moves them by some 0.003 of the
	// last, the sheaves and the drum being small beside the lead.
	for range 50 {
		p0, p1 = cd.AddScaled(rd, n0).Add(geom.V(0, across, 0)), c1.AddScaled(r, n1)
		span = math.Hypot(p1.X-p0.X, p1.Y-p0.Y)
		if !(p1.X > p0.X) {
			return lead{}, false
		}
		if a, sv, ok = fitCatenary(span, p0.Z-zeroHeight, p1.Z-zeroHeight); !ok {
			return lead{}, false
		}
		m0, m1 := catenaryNormal(math.Sinh(-sv/a)), catenaryNormal(math.Sinh((span-sv)/a))
		moved := m0.Sub(n0).Norm() + m1.Sub(n1).Norm()
		n0, n1 = m0, m1
		if moved < 1e-14 {
			break
		}
	}
	p0, p1 = cd.AddScaled(rd, n0).Add(geom.V(0, across, 0)), c1.AddScaled(r, n1)
	span = math.Hypot(p1.X-p0.X, p1.Y-p0.Y)
	if a, sv, ok = fitCatenary(span, p0.Z-zeroHeight, p1.Z-zeroHeight); !ok {
		return lead{}, false
	}
	// Points evenly spaced along the wire: the arc from the vertex is
	// a sinh((s − sv)/a), s the horizontal distance from the drum's point.
	e := geom.V(p1.X-p0.X, p1.Y-p0.Y, 0).Scale(1 / span)
	arc0, arc1 := a*math.Sinh(-sv/a), a*math.Sinh((span-sv)/a)
	k := int(math.Ceil((arc1 - arc0) / spacing))
	if k < 2 {
		return lead{}, false
	}
	l = lead{drum: n0, sheave: n1, via: make([]geom.Vec3, 0, k-1)}
	for i := 1; i < k; i++ {
		q := math.Asinh((arc0 + (arc1-arc0)*float64(i)/float64(k)) / a)
		s := sv + a*q
		p := p0.AddScaled(s, e)
		p.Z = zeroHeight + a*math.Cosh(q)
		l.via = append(l.via, p)
	}
	return l, true
}

// catenaryNormal is the unit normal, towards +z, of a wire rising along
// +x at slope t.
func catenaryNormal(t float64) geom.Vec3 {
	return geom.V(-t, 0, 1).Scale(1 / math.Hypot(1, t))
}

// fitCatenary finds the catenary z = a cosh((s − sv)/a) (heights z above
// its zero tension, where T = ρg z) through (0, z0) and (span, z1), z0
// and z1 > 0: its parameter a = H/ρg (m, H the horizontal tension) and
// its vertex sv (m), the shallowest of the catenaries through them (a
// deeper one hangs there too, in an equilibrium the wire does not keep).
// ok is false where none spans them: their tension is too low for the
// wire's weight over the span.
func fitCatenary(span, z0, z1 float64) (a, sv float64, ok bool) {
	if !(span > 0) || !(z0 > 0) || !(z1 > 0) {
		return 0, 0, false
	}
	if z1 < z0 {
		// The same catenary seen from the other end.
		a, sv, ok = fitCatenary(span, z1, z0)
		return a, span - sv, ok
	}
	// By the slope at the first point, sinh p (p = −sv/a): a = z0/cosh p,
	// and the span the catenary reaches z1 in is a (acosh(z1/a) − p). At
	// the chord's slope the catenary lies above the chord and reaches z1
	// short of the span; as p falls the span grows to a greatest one and
	// shrinks again. The shallowest catenary's p lies between the chord's
	// and the greatest span's.
	reach := func(p float64) float64 {
		a := z0 / math.Cosh(p)
		return a*(math.Acosh(z1/a)-p) - span
	}
	hi := math.Asinh((z1 - z0) / span)
	if reach(hi) >= 0 {
		return z0 / math.Cosh(hi), -z0 / math.Cosh(hi) * hi, true // straight to rounding
	}
	// The greatest span by golden section (reach rises and falls once),
	// within 20 of the chord's p: a slope sinh 20 below it, no lead.
	lo, top := hi-20, hi
	const g = 0.6180339887498949
	x1, x2 := top-g*(top-lo), lo+g*(top-lo)
	f1, f2 := reach(x1), reach(x2)
	for range 200 {
		if f1 > f2 {
			top, x2, f2 = x2, x1, f1
			x1 = top - g*(top-lo)
			f1 = reach(x1)
		} else {
			lo, x1, f1 = x1, x2, f2
			x2 = lo + g*(top-lo)
			f2 = reach(x2)
		}
	}
	lo = (lo + top) / 2
	if reach(lo) < 0 {
		return 0, 0, false
	}
	// reach(lo) ≥ 0 > reach(hi): bisect.
	for range 200 {
		mid := (lo + hi) / 2
		if mid == lo || mid == hi {
			break
		}
		if reach(mid) < 0 {
			hi = mid
		} else {
			lo = mid
		}
	}
	p := (lo + hi) / 2
	a = z0 / math.Cosh(p)
	return a, -a * p, true
}
