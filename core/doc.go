// Package core is the physics of cablefmu, free of cgo and FMI. Nothing in
// it imports the runtime; arrows run one way, up from geom:
//
//	geom          vectors, quaternions, 3×3 matrices
//	material      rope data (SI) → EA, EI, GJ, mass per length, damping
//	sparse        symmetric sparse LDLᵀ with its symbolic analysis
//	stability     local criteria that decide where a step needs a remedy
//	multibody     rigid bodies, constraints, the SPOOK stepper and its solvers
//	contact       bodies above a ground plane with friction
//	closedform    closed forms the tests and the atlas compare with
//	oscillation   frequency and damping measured from samples
//
// and the cable models, one package per paper:
//
//	massless      [SL07] the massless cable: stretch, twist, winch rows
//	rigidcable    [SL08] the rigid-body cable: segments and their joints
//	particlechain [SL08] the particle chains (a)–(e) it compares with
//	hmrwire       [SLNB11] the hybrid multiresolution wire with contact
//	              nodes, and the crane hoist built of it (drum, sheaves)
//	massspring    [LS01] the mass–spring cable
//	spline        [TGDM07] the quasi-dynamic spline cable
//
// Comments cite equations of the source papers by these keys:
//
//	[SL07]   M. Servin, C. Lacoursière: Massless Cable for Real-time
//	         Simulation. Computer Graphics Forum 26(2), 2007.
//	[SL08]   M. Servin, C. Lacoursière: Rigid Body Cable for Virtual
//	         Environments. IEEE TVCG 14(4), 2008.
//	[SLNB11] M. Servin, C. Lacoursière, F. Nordfelth, K. Bodin: Hybrid,
//	         Multiresolution Wires with Massless Frictional Contacts.
//	         IEEE TVCG 17(7), 2011.
//	[LS01]   A. Loock, E. Schömer: A Virtual Environment for Interactive
//	         Assembly Simulation: From Rigid Bodies to Deformable Cables,
//	         2001.
//	[TGDM07] O. Theetten, L. Grisoni, C. Duriez, X. Merlhiot:
//	         Quasi-Dynamic Splines. ACM Symposium on Solid and Physical
//	         Modeling, 2007.
//
// The FMU runtime (package fmu) and the model plugins that bind each
// model to FMU ports (fmu/plugins/…) sit above; fmu/ARCHITECTURE.md maps
// them.
package core
