// Package hmrwire is the hybrid multiresolution wire of [SLNB11]: mass
// nodes (particles) joined by massless segments, each segment one N-body
// length constraint (eq. 12) through the eye nodes and contact nodes
// between its two mass nodes, on whatever bodies carry them (eqs. 13–17).
//
// Contact nodes live on the edges of convex geometries (boxes, and
// cylinders as n-gon prisms: sheaves, drums). They appear where the
// straight wire between two nodes cuts a geometry, slide along their
// edge to where the wire's pull has no component along it (eq. 18) or,
// with friction, as far as Coulomb's bound lets them, and go when the
// wire pulls them off (eq. 20) or slides them off their edge. Friction
// along the wire is a stick row per run of contact nodes on one
// frictional geometry, bounded by the tension ratio Coulomb lets its
// corners pass (from the tensions of the same solve), rather than the
// paper's after-the-solve reduction of the slide (eq. 22); friction
// across an edge is Coulomb's bound on the massless node's balance.
//
// The resolution adapts to the tension ([SLNB11] §II-D): a mass node
// whose tension exceeds the critical f_crit = min(l_a, l_c) m_b/(4h²) of
// eq. 25 is merged into its neighbours (eqs. 27–30), and a segment whose
// tension is well below it is split (eqs. 31–34, with a momentum-keeping
// velocity for the new node in place of eq. 35). Every transition keeps
// the wire's mass, rest length and linear momentum and never adds
// kinetic energy.
//
// A System steps the world by Algorithm 1, solving all rows at once with
// the sparse LDLᵀ of the whole system (eq. 7, multibody.Sparse) under an
// active set for the bounded rows (slack segments, friction).
package hmrwire
