package spline

import "github.com/cablefmu/cablefmu/core/geom"

// The strain energy densities per unit rest length ([TGDM07] eq. 3,
// U = ½ ∫ εᵀ H ε, H = diag(EA, GJ, EI)) as functions of a = r', c = r″
// (derivatives by the rest arc length u) and the roll's rate θ', with
// their gradients and Hessians.

// stretch is ½ EA ε_s², ε_s = |r'| − 1 (the paper's 1 − |r'|, squared
// alike): gradient EA ε_s t and Hessian EA ((1 − 1/|a|) I + t tᵀ/|a|),
// t = a/|a| — along t the axial stiffness EA, across it the tension's
// geometric stiffness EA ε_s/|a|.
func stretch(ea float64, a geom.Vec3) (e float64, g geom.Vec3, h geom.Mat3) {
	t, l := a.Unit()
	s := l - 1
	e = 0.5 * ea * s * s
	g = t.Scale(ea * s)
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			h[i][j] = ea / l * t.Comp(i) * t.Comp(j)
		}
		h[i][i] += ea * (1 - 1/l)
	}
	return e, g, h
}

// bending is ½ EI κ² with the curvature κ = |r'×r″|/|r'|³ (the paper's
// ε_b; its text has the exponent on the wrong norm), written
// κ² = q/p³ with q = |a×c|² = |a|²|c|² − (a·c)² and p = |a|², which is
// smooth where the cable is straight. Gradients and Hessian blocks by a
// and c.
type bending struct {
	e             float64
	ga, gc        geom.Vec3
	haa, hac, hcc geom.Mat3 // hac: rows a's components, columns c's
}

func bend(ei float64, a, c geom.Vec3) bending {
	aa, cc, ac := a.Dot(a), c.Dot(c), a.Dot(c)
	n := a.Cross(c)
	q := n.Dot(n)
	p := aa
	p3, p4, p5 := p*p*p, p*p*p*p, p*p*p*p*p
	k := 0.5 * ei
	// q's derivatives: q_a = 2|c|² a − 2(a·c) c, q_c = 2|a|² c − 2(a·c) a;
	// q_aa = 2|c|² I − 2 c cᵀ, q_cc = 2|a|² I − 2 a aᵀ,
	// q_ac = 4 a cᵀ − 2 c aᵀ − 2(a·c) I; p_a = 2a, p_aa = 2I.
	qa := a.Scale(2*cc).AddScaled(-2*ac, c)
	qc := c.Scale(2*aa).AddScaled(-2*ac, a)
	pa := a.Scale(2)
	var b bending
	b.e = k * q / p3
	b.ga = qa.Scale(k/p3).AddScaled(-3*k*q/p4, pa)
	b.gc = qc.Scale(k / p3)
	av, cv := [3]float64{a.X, a.Y, a.Z}, [3]float64{c.X, c.Y, c.Z}
	qav, qcv, pav := [3]float64{qa.X, qa.Y, qa.Z}, [3]float64{qc.X, qc.Y, qc.Z}, [3]float64{pa.X, pa.Y, pa.Z}
	k3, k4, k5 := k/p3, k/p4, k/p5
	for i := 0; i < 3; i++ {
		ai, ci, qai, pai := av[i], cv[i], qav[i], pav[i]
		for j := 0; j < 3; j++ {
			aj, cj := av[j], cv[j]
			qaa := -2 * ci * cj
			qcc := -2 * ai * aj
			qac := 4*ai*cj - 2*ci*aj
			diag := 0.0
			if i == j {
				qaa += 2 * cc
				qcc += 2 * aa
				qac -= 2 * ac
				diag = 6 * q * k4
			}
			b.haa[i][j] = qaa*k3 - 3*(qai*pav[j]+pai*qav[j])*k4 + 12*q*pai*pav[j]*k5 - diag
			b.hac[i][j] = qac*k3 - 3*pai*qcv[j]*k4
			b.hcc[i][j] = qcc * k3
		}
	}
	return b
}
