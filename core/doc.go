// Package core is the physics of cablefmu, free of cgo and FMI: geometry,
// rigid bodies and the SPOOK stepper (multibody), rope material data
// (material) and the cable models (massless, …).
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
package core
