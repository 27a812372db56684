// Package particlechain holds the particle chain models (a)–(e) of [SL08]
// §III (see package core): N particles hanging from an anchor, the last
// one a heavy load, joined by distance constraints and, depending on the
// model, a supplementary constraint — a massless cable over the whole
// chain, a direct load-enforcing link, or angular constraints between
// consecutive links. They reproduce the paper's Table I: how far each
// model stays stable as the load gets heavier than the particles.
package particlechain
