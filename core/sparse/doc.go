// Package sparse holds symmetric sparse matrices and their LDLᵀ
// factorization: fill-reducing orderings (minimum degree on a quotient
// graph, with approximate degrees, optionally constrained to the stages of
// a nested dissection), a symbolic analysis (postordered elimination tree,
// structure of L, supernodes) kept while the matrix's structure stays the
// same, and a numeric factorization redone for new values: up-looking
// (on row patterns laid out by the analysis) for factors without large
// dense blocks (chains, a hoist's wire, small nets), multifrontal for
// those with them (large nets).
//
// It is the direct solver of [SLNB11] §II-B: the paper factored the
// block-sparse matrix H of eq. 7 with SuperLU; H is symmetric
// quasi-definite once its constraint rows are negated,
//
//	[ M   Gᵀ ] [ Δv ]   [ 0 ]
//	[ G  −Σ  ] [ −λ ] = [ B ],
//
// so LDLᵀ with any symmetric ordering factors it when Σ > 0 (Vanderbei's
// quasi-definite matrices), and with rigid rows (Σ = 0) when each such row
// is eliminated after the variables it couples (Order's Wait).
//
// Cost: the ordering and the analysis are near linear in the nonzeros of L
// for the graphs of cables, chains and nets; the numeric factorization
// costs Σ_k |L_{:,k}|²/2 operations (Symbolic.Operations), linear in the
// size for a chain.
package sparse
