// Package rigidcable implements the rigid-body cable of Servin &
// Lacoursière, "Rigid Body Cable for Virtual Environments" ([SL08], see
// package core): a chain of rigid segments joined by the regularized
// angular constraint (eqs. 20–28), a ball-and-socket joint whose bend and
// twist angles are constrained with compliances taken from the rope's
// material (eqs. 33–36), so that the cable stretches, bends and twists as
// a Kirchhoff rod and stays stable with loads much heavier than its
// segments.
package rigidcable
