// Package massless implements the massless cable of Servin & Lacoursière,
// "Massless Cable for Real-time Simulation" ([SL07], see package core): one multibody
// constraint that keeps the total length of a cable routed through nodes on
// bodies — fixed end nodes and sliding eye/sheave nodes between them —
// regularized by the rope's stretch and twist stiffness, and a winch that
// pays the cable in or out as a regularized velocity constraint.
//
// The cable has no mass and no internal dynamics; it couples the bodies it
// runs over. Its free (unstretched) length L(t) is a state the winch moves.
package massless
