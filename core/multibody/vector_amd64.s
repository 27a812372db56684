//go:build !purego

#include "go_asm.h"
#include "textflag.h"

// AVX forms of four 6×6 kernels of chain6_unrolled.go and of
// assembleTerms (world.go). Each vector lane does one entry's operations
// in the Go kernel's order, with packed multiplies, adds and subtracts
// only (no fused multiply–add): the results are the Go kernels' to the
// bit, but for the sign and payload of a NaN (TestUnrolledKernels,
// TestVectorAssembleTerms, TestVectorKernelsSameRope). A Jacobian is six
// float64s, Lin then Ang (48 bytes); a block row six (48 bytes).

// TRANSPOSE4 loads the float64s at byte offsets o0..o3 from R into the
// lanes 0..3 of Y (X is Y's lower half); X15 is clobbered.
#define TRANSPOSE4(R, o0, o1, o2, o3, Y, X) \
	VMOVSD o0(R), X; VMOVHPD o1(R), X, X; \
	VMOVSD o2(R), X15; VMOVHPD o3(R), X15, X15; \
	VINSERTF128 $1, X15, Y, Y

// GRAM4(i) leaves in Y9 lanes 0..3 of row i of wᵀw (w at R9), each summed
// from +0 over w's rows in order, as gram6.
#define GRAM4(i) \
	VXORPD Y9, Y9, Y9; \
	VBROADCASTSD (0+8*i)(R9), Y6; VMULPD 0(R9), Y6, Y11; VADDPD Y11, Y9, Y9; \
	VBROADCASTSD (48+8*i)(R9), Y6; VMULPD 48(R9), Y6, Y11; VADDPD Y11, Y9, Y9; \
	VBROADCASTSD (96+8*i)(R9), Y6; VMULPD 96(R9), Y6, Y11; VADDPD Y11, Y9, Y9; \
	VBROADCASTSD (144+8*i)(R9), Y6; VMULPD 144(R9), Y6, Y11; VADDPD Y11, Y9, Y9; \
	VBROADCASTSD (192+8*i)(R9), Y6; VMULPD 192(R9), Y6, Y11; VADDPD Y11, Y9, Y9; \
	VBROADCASTSD (240+8*i)(R9), Y6; VMULPD 240(R9), Y6, Y11; VADDPD Y11, Y9, Y9

// GRAM6(i) is GRAM4(i) with lanes 4..5 in X10.
#define GRAM6(i) \
	VXORPD Y9, Y9, Y9; VXORPD X10, X10, X10; \
	VBROADCASTSD (0+8*i)(R9), Y6; VMULPD 0(R9), Y6, Y11; VADDPD Y11, Y9, Y9; VMULPD 32(R9), X6, X12; VADDPD X12, X10, X10; \
	VBROADCASTSD (48+8*i)(R9), Y6; VMULPD 48(R9), Y6, Y11; VADDPD Y11, Y9, Y9; VMULPD 80(R9), X6, X12; VADDPD X12, X10, X10; \
	VBROADCASTSD (96+8*i)(R9), Y6; VMULPD 96(R9), Y6, Y11; VADDPD Y11, Y9, Y9; VMULPD 128(R9), X6, X12; VADDPD X12, X10, X10; \
	VBROADCASTSD (144+8*i)(R9), Y6; VMULPD 144(R9), Y6, Y11; VADDPD Y11, Y9, Y9; VMULPD 176(R9), X6, X12; VADDPD X12, X10, X10; \
	VBROADCASTSD (192+8*i)(R9), Y6; VMULPD 192(R9), Y6, Y11; VADDPD Y11, Y9, Y9; VMULPD 224(R9), X6, X12; VADDPD X12, X10, X10; \
	VBROADCASTSD (240+8*i)(R9), Y6; VMULPD 240(R9), Y6, Y11; VADDPD Y11, Y9, Y9; VMULPD 272(R9), X6, X12; VADDPD X12, X10, X10

// ANGDOT(m, T0, T1, T2, Y) sets Y to the angular dot products of the
// M⁻¹J block at byte offset m of R8 with the transposed J blocks T0..T2:
// x·mx + y·my, then + z·mz, as the Go kernel sums them.
#define ANGDOT(m, T0, T1, T2, Y) \
	VBROADCASTSD (m+24)(R8), Y6; VMULPD T0, Y6, Y; \
	VBROADCASTSD (m+32)(R8), Y6; VMULPD T1, Y6, Y11; VADDPD Y11, Y, Y; \
	VBROADCASTSD (m+40)(R8), Y6; VMULPD T2, Y6, Y11; VADDPD Y11, Y, Y

// DIAG(i, G) writes a[i][i] = sums[i].d + sigma[i] − G (G's low lane).
#define DIAG(i, G) \
	VMOVSD (32*i+16)(SI), X12; VADDSD (8*i)(BX), X12, X12; VSUBSD G, X12, X12; VMOVSD X12, (56*i)(DI)

// FULLDOT(xo, mo, S) sets S to the dot product of the J block at byte
// offset xo of DX with the M⁻¹J block at mo of R8 in the Go kernel's
// order, ((Lx + Ly) + Lz) + ((Ax + Ay) + Az) of the products: all six
// products in two multiplies, then summed lane by lane. Y0, X1..X4 are
// clobbered.
#define FULLDOT(xo, mo, S) \
	VMOVUPD mo(R8), Y0; VMULPD xo(DX), Y0, Y0; \
	VMOVUPD (mo+32)(R8), X1; VMULPD (xo+32)(DX), X1, X1; \
	VUNPCKHPD X0, X0, X2; VADDSD X2, X0, S; \
	VEXTRACTF128 $1, Y0, X3; VADDSD X3, S, S; \
	VUNPCKHPD X3, X3, X4; VADDSD X1, X4, X4; \
	VUNPCKHPD X1, X1, X2; VADDSD X2, X4, X4; \
	VADDSD X4, S, S

// func assembleGram6TailAVX(a *block6, sums *[6]rowSums, sigma *[6]float64, js, ms *[12]Jacobian, w *block6)
//
// assembleGram6Tail. Rows 0–2 (the ball rows', whose products have linear
// halves too) entry by entry, each product's six terms in two multiplies;
// rows 3–5 (angular products, the bend and twist rows) lane by lane, from
// the J blocks transposed once.
TEXT ·assembleGram6TailAVX(SB), NOSPLIT, $0-48
	MOVQ a+0(FP), DI
	MOVQ sums+8(FP), SI
	MOVQ sigma+16(FP), BX
	MOVQ js+24(FP), DX
	MOVQ ms+32(FP), R8
	MOVQ w+40(FP), R9

	// Row 0: a[0].
	GRAM4(0)
	DIAG(0, X9)
	// Row 1: a[6] = js[0]·ms[2] + js[1]·ms[3] − (wᵀw)[1][0]; a[7].
	GRAM4(1)
	FULLDOT(0, 96, X12)
	FULLDOT(48, 144, X13)
	VADDSD X13, X12, X12
	VSUBSD X9, X12, X12
	VMOVSD X12, 48(DI)
	VUNPCKHPD X9, X9, X13
	DIAG(1, X13)
	// Row 2: a[12] = js[0]·ms[4] + js[1]·ms[5] − (wᵀw)[2][0], a[13] =
	// js[2]·ms[4] + js[3]·ms[5] − (wᵀw)[2][1]; a[14].
	GRAM4(2)
	FULLDOT(0, 192, X12)
	FULLDOT(48, 240, X13)
	VADDSD X13, X12, X12
	VSUBSD X9, X12, X12
	VMOVSD X12, 96(DI)
	FULLDOT(96, 192, X12)
	FULLDOT(144, 240, X13)
	VADDSD X13, X12, X12
	VUNPCKHPD X9, X9, X13
	VSUBSD X13, X12, X12
	VMOVSD X12, 104(DI)
	VEXTRACTF128 $1, Y9, X13
	DIAG(2, X13)
	// Y0..Y2: Ang.X, .Y, .Z of js[0], js[2], js[4], js[6] (body 0 of rows
	// 0..3); Y3..Y5: of js[1], js[3], js[5], js[7] (body 1).
	TRANSPOSE4(DX, 24, 120, 216, 312, Y0, X0)
	TRANSPOSE4(DX, 32, 128, 224, 320, Y1, X1)
	TRANSPOSE4(DX, 40, 136, 232, 328, Y2, X2)
	TRANSPOSE4(DX, 72, 168, 264, 360, Y3, X3)
	TRANSPOSE4(DX, 80, 176, 272, 368, Y4, X4)
	TRANSPOSE4(DX, 88, 184, 280, 376, Y5, X5)

	// Row 3: ms[6] and ms[7] (bytes 288, 336); a[18..20], a[21].
	GRAM4(3)
	ANGDOT(288, Y0, Y1, Y2, Y7)
	ANGDOT(336, Y3, Y4, Y5, Y8)
	VADDPD Y8, Y7, Y7
	VSUBPD Y9, Y7, Y7
	VMOVUPD Y7, 144(DI)
	VEXTRACTF128 $1, Y9, X13
	VUNPCKHPD X13, X13, X13
	DIAG(3, X13)

	// Row 4: ms[8], ms[9] (384, 432); a[24..27], a[28].
	GRAM6(4)
	ANGDOT(384, Y0, Y1, Y2, Y7)
	ANGDOT(432, Y3, Y4, Y5, Y8)
	VADDPD Y8, Y7, Y7
	VSUBPD Y9, Y7, Y7
	VMOVUPD Y7, 192(DI)
	DIAG(4, X10)

	// Row 5: ms[10], ms[11] (480, 528); a[30..33], a[34], a[35].
	GRAM6(5)
	ANGDOT(480, Y0, Y1, Y2, Y7)
	ANGDOT(528, Y3, Y4, Y5, Y8)
	VADDPD Y8, Y7, Y7
	VSUBPD Y9, Y7, Y7
	VMOVUPD Y7, 240(DI)
	// a[34]: js[8]·ms[10] + js[9]·ms[11] (angular) − (wᵀw)[5][4].
	VMOVSD 408(DX), X13; VMULSD 504(R8), X13, X13
	VMOVSD 416(DX), X12; VMULSD 512(R8), X12, X12; VADDSD X12, X13, X13
	VMOVSD 424(DX), X12; VMULSD 520(R8), X12, X12; VADDSD X12, X13, X13
	VMOVSD 456(DX), X14; VMULSD 552(R8), X14, X14
	VMOVSD 464(DX), X12; VMULSD 560(R8), X12, X12; VADDSD X12, X14, X14
	VMOVSD 472(DX), X12; VMULSD 568(R8), X12, X12; VADDSD X12, X14, X14
	VADDSD X14, X13, X13
	VSUBSD X10, X13, X13
	VMOVSD X13, 272(DI)
	VUNPCKHPD X10, X10, X13
	DIAG(5, X13)
	VZEROUPPER
	RET

// COUPLEROWLIN computes row i of the coupling from the row's J block at
// byte offset xo of DX, whose linear half is not zero: lanes 0..3 in Y15,
// 4..5 in X12. Lanes 0..2 are (x·n linear) + (x·n angular) with the other
// block's ball rows,
// lanes 3..5 the angular product alone, as the Go kernel has them.
#define COUPLEROWLIN(xo) \
	VBROADCASTSD (xo+0)(DX), Y9; VMULPD Y0, Y9, Y10; \
	VBROADCASTSD (xo+8)(DX), Y9; VMULPD Y1, Y9, Y13; VADDPD Y13, Y10, Y10; \
	VBROADCASTSD (xo+16)(DX), Y9; VMULPD Y2, Y9, Y13; VADDPD Y13, Y10, Y10; \
	VBROADCASTSD (xo+24)(DX), Y9; VMULPD Y3, Y9, Y11; VMULPD X6, X9, X12; \
	VBROADCASTSD (xo+32)(DX), Y9; VMULPD Y4, Y9, Y13; VADDPD Y13, Y11, Y11; VMULPD X7, X9, X14; VADDPD X14, X12, X12; \
	VBROADCASTSD (xo+40)(DX), Y9; VMULPD Y5, Y9, Y13; VADDPD Y13, Y11, Y11; VMULPD X8, X9, X14; VADDPD X14, X12, X12; \
	VADDPD Y11, Y10, Y15; VBLENDPD $8, Y11, Y15, Y15

// COUPLEROWANG is COUPLEROWLIN for a row whose linear half is zero (a
// bend or twist row): the angular products alone.
#define COUPLEROWANG(xo) \
	VBROADCASTSD (xo+24)(DX), Y9; VMULPD Y3, Y9, Y15; VMULPD X6, X9, X12; \
	VBROADCASTSD (xo+32)(DX), Y9; VMULPD Y4, Y9, Y13; VADDPD Y13, Y15, Y15; VMULPD X7, X9, X14; VADDPD X14, X12, X12; \
	VBROADCASTSD (xo+40)(DX), Y9; VMULPD Y5, Y9, Y13; VADDPD Y13, Y15, Y15; VMULPD X8, X9, X14; VADDPD X14, X12, X12

// FORWARDSUB subtracts l's entry at byte offset lo times the row of W at
// byte offset wo (already solved) from the row in Y15, X12.
#define FORWARDSUB(lo, wo) \
	VBROADCASTSD lo(SI), Y9; VMULPD wo(DI), Y9, Y13; VSUBPD Y13, Y15, Y15; \
	VMULPD (wo+32)(DI), X9, X14; VSUBPD X14, X12, X12

// FORWARDSTORE scales the row in Y15, X12 by inv's entry at byte offset io
// and stores it as W's row at byte offset wo.
#define FORWARDSTORE(io, wo) \
	VBROADCASTSD io(BX), Y9; VMULPD Y9, Y15, Y15; VMULPD X9, X12, X12; \
	VMOVUPD Y15, wo(DI); VMOVUPD X12, (wo+32)(DI)

// COUPLEFORWARD is coupleForward6Tail's body for the block's J blocks at DX
// and the other block's M⁻¹J blocks at R8 (w at DI, l at SI, inv at BX):
// rows are made from the J of body JO/48 of each row (byte offset JO of the
// row's pair) and the M⁻¹J of body MO/48 of the other block's rows, the
// other's M⁻¹J transposed once into registers (Y0..Y2: Lin.X, .Y, .Z of
// its rows 0..3, lane 3 unused: blended out; Y3..Y5: their Ang.X, .Y, .Z;
// X6..X8: the Ang of rows 4 and 5), each row solved forward as it is made.
#define COUPLEFORWARD(JO, MO) \
	TRANSPOSE4(R8, (MO+0), (MO+96), (MO+192), (MO+288), Y0, X0); \
	TRANSPOSE4(R8, (MO+8), (MO+104), (MO+200), (MO+296), Y1, X1); \
	TRANSPOSE4(R8, (MO+16), (MO+112), (MO+208), (MO+304), Y2, X2); \
	TRANSPOSE4(R8, (MO+24), (MO+120), (MO+216), (MO+312), Y3, X3); \
	TRANSPOSE4(R8, (MO+32), (MO+128), (MO+224), (MO+320), Y4, X4); \
	TRANSPOSE4(R8, (MO+40), (MO+136), (MO+232), (MO+328), Y5, X5); \
	VMOVSD (MO+408)(R8), X6; VMOVHPD (MO+504)(R8), X6, X6; \
	VMOVSD (MO+416)(R8), X7; VMOVHPD (MO+512)(R8), X7, X7; \
	VMOVSD (MO+424)(R8), X8; VMOVHPD (MO+520)(R8), X8, X8; \
	COUPLEROWLIN((JO+0)); \
	FORWARDSTORE(0, 0); \
	COUPLEROWLIN((JO+96)); \
	FORWARDSUB(48, 0); \
	FORWARDSTORE(8, 48); \
	COUPLEROWLIN((JO+192)); \
	FORWARDSUB(96, 0); \
	FORWARDSUB(104, 48); \
	FORWARDSTORE(16, 96); \
	COUPLEROWANG((JO+288)); \
	FORWARDSUB(144, 0); \
	FORWARDSUB(152, 48); \
	FORWARDSUB(160, 96); \
	FORWARDSTORE(24, 144); \
	COUPLEROWANG((JO+384)); \
	FORWARDSUB(192, 0); \
	FORWARDSUB(200, 48); \
	FORWARDSUB(208, 96); \
	FORWARDSUB(216, 144); \
	FORWARDSTORE(32, 192); \
	COUPLEROWANG((JO+480)); \
	FORWARDSUB(240, 0); \
	FORWARDSUB(248, 48); \
	FORWARDSUB(256, 96); \
	FORWARDSUB(264, 144); \
	FORWARDSUB(272, 192); \
	FORWARDSTORE(40, 240)

// func coupleForward6TailAVX(w, l *block6, inv *[6]float64, js, otherMs *[12]Jacobian)
//
// coupleForward6Tail: Bₖ's rows from the J of block k's second body (js[2i+1])
// and the next block's M⁻¹J on its first (otherMs[2j]).
TEXT ·coupleForward6TailAVX(SB), NOSPLIT, $0-40
	MOVQ w+0(FP), DI
	MOVQ l+8(FP), SI
	MOVQ inv+16(FP), BX
	MOVQ js+24(FP), DX
	MOVQ otherMs+32(FP), R8
	COUPLEFORWARD(48, 0)
	VZEROUPPER
	RET

// func coupleBackward6TailAVX(w, l *block6, inv *[6]float64, js, otherMs *[12]Jacobian)
//
// coupleBackward6Tail: Bₖ₋₁ᵀ's rows from the J of block k's first body
// (js[2i]) and the block before's M⁻¹J on its second (otherMs[2j+1]).
TEXT ·coupleBackward6TailAVX(SB), NOSPLIT, $0-40
	MOVQ w+0(FP), DI
	MOVQ l+8(FP), SI
	MOVQ inv+16(FP), BX
	MOVQ js+24(FP), DX
	MOVQ otherMs+32(FP), R8
	COUPLEFORWARD(0, 48)
	VZEROUPPER
	RET

// SUBROW subtracts W's row r (byte offset 48r of BX) times y[r] from z in
// Y0, X1.
#define SUBROW(r) \
	VBROADCASTSD (8*r)(R8), Y2; VMULPD (48*r)(BX), Y2, Y3; VSUBPD Y3, Y0, Y0; \
	VMULPD (48*r+32)(BX), X2, X4; VSUBPD X4, X1, X1

// ZLANES spreads z, in Y0 (z0..z3) and X1 (z4, z5), over X5, X6, X8, X9,
// X10, X11 for the triangular solves, entry by entry.
#define ZLANES \
	VMOVAPD X0, X5; VUNPCKHPD X0, X0, X6; \
	VEXTRACTF128 $1, Y0, X8; VUNPCKHPD X8, X8, X9; \
	VMOVAPD X1, X10; VUNPCKHPD X1, X1, X11

// ZSTORE stores them as z (DX).
#define ZSTORE \
	VMOVSD X5, 0(DX); VMOVSD X6, 8(DX); VMOVSD X8, 16(DX); \
	VMOVSD X9, 24(DX); VMOVSD X10, 32(DX); VMOVSD X11, 40(DX)

// LSUB subtracts l's entry at byte offset lo times Z from X, with X7.
#define LSUB(lo, Z, X) \
	VMULSD lo(DI), Z, X7; VSUBSD X7, X, X

// func subtractForward6AVX(l *block6, inv, z *[6]float64, w *block6, y *[6]float64)
//
// subtractForward6: z −= Wᵀy in the vector lanes, then the triangular
// solve, entry by entry.
TEXT ·subtractForward6AVX(SB), NOSPLIT, $0-40
	MOVQ l+0(FP), DI
	MOVQ inv+8(FP), SI
	MOVQ z+16(FP), DX
	MOVQ w+24(FP), BX
	MOVQ y+32(FP), R8
	VMOVUPD 0(DX), Y0
	VMOVUPD 32(DX), X1
	SUBROW(0)
	SUBROW(1)
	SUBROW(2)
	SUBROW(3)
	SUBROW(4)
	SUBROW(5)
	ZLANES
	VMULSD 0(SI), X5, X5
	LSUB(48, X5, X6)
	VMULSD 8(SI), X6, X6
	LSUB(96, X5, X8)
	LSUB(104, X6, X8)
	VMULSD 16(SI), X8, X8
	LSUB(144, X5, X9)
	LSUB(152, X6, X9)
	LSUB(160, X8, X9)
	VMULSD 24(SI), X9, X9
	LSUB(192, X5, X10)
	LSUB(200, X6, X10)
	LSUB(208, X8, X10)
	LSUB(216, X9, X10)
	VMULSD 32(SI), X10, X10
	LSUB(240, X5, X11)
	LSUB(248, X6, X11)
	LSUB(256, X8, X11)
	LSUB(264, X9, X11)
	LSUB(272, X10, X11)
	VMULSD 40(SI), X11, X11
	ZSTORE
	VZEROUPPER
	RET

// PAIR sets X to [v, ṽ]: the body's (AX) velocity component at byte
// offset o1 and its prediction's at o2.
#define PAIR(o1, o2, X) \
	VMOVSD o1(AX), X; VMOVHPD o2(AX), X, X

// func assembleTermsAVX(b *Body, sums *rowSums, js, ms *Jacobian, n, stride int)
//
// assembleTerms for n rows from sums, js and ms, the row's blocks of body b
// stride bytes apart: the gv and gpred sums in two lanes, I⁻¹J's product
// in three, the dot products of J M⁻¹ Jᵀ in the Go kernel's order.
TEXT ·assembleTermsAVX(SB), NOSPLIT, $0-48
	MOVQ b+0(FP), AX
	MOVQ sums+8(FP), R12
	MOVQ js+16(FP), R10
	MOVQ ms+24(FP), R11
	MOVQ n+32(FP), CX
	MOVQ stride+40(FP), R13
	// Y0..Y2: I⁻¹'s columns (lane 3 zero); X3: 1/m.
	VMOVSD (Body_invI+0)(AX), X0; VMOVHPD (Body_invI+24)(AX), X0, X0
	VMOVSD (Body_invI+48)(AX), X15; VINSERTF128 $1, X15, Y0, Y0
	VMOVSD (Body_invI+8)(AX), X1; VMOVHPD (Body_invI+32)(AX), X1, X1
	VMOVSD (Body_invI+56)(AX), X15; VINSERTF128 $1, X15, Y1, Y1
	VMOVSD (Body_invI+16)(AX), X2; VMOVHPD (Body_invI+40)(AX), X2, X2
	VMOVSD (Body_invI+64)(AX), X15; VINSERTF128 $1, X15, Y2, Y2
	VMOVSD Body_invMass(AX), X3
	// X4..X9: [v, ṽ] pairs, linear x, y, z then angular x, y, z.
	PAIR(Body_Vel+0, Body_predVel+0, X4)
	PAIR(Body_Vel+8, Body_predVel+8, X5)
	PAIR(Body_Vel+16, Body_predVel+16, X6)
	PAIR(Body_AngVel+0, Body_predAng+0, X7)
	PAIR(Body_AngVel+8, Body_predAng+8, X8)
	PAIR(Body_AngVel+16, Body_predAng+16, X9)
	TESTQ CX, CX
	JEQ done

row:
	// The block's kind, as the Go kernel tests it: J.Ang = 0 (a linear
	// block) first, then J.Lin = 0 (an angular block). The components'
	// bits ORed with the sign shifted out are zero exactly when each is
	// ±0 (a NaN is not zero): one test where comparing floats takes a
	// compare and two branches a component.
	MOVQ 24(R10), DX
	ORQ 32(R10), DX
	ORQ 40(R10), DX
	SHLQ $1, DX
	JEQ linear

angular:
	// J.Ang ≠ 0. Y10..Y12: its components broadcast.
	VBROADCASTSD 24(R10), Y10
	VBROADCASTSD 32(R10), Y11
	VBROADCASTSD 40(R10), Y12
	// ang = I⁻¹ J.Ang: per lane (in[r][0]·x + in[r][1]·y) + in[r][2]·z.
	VMULPD Y0, Y10, Y13
	VMULPD Y1, Y11, Y14
	VADDPD Y14, Y13, Y13
	VMULPD Y2, Y12, Y14
	VADDPD Y14, Y13, Y13
	// The angular [gv, gpred] terms into X14.
	VMULPD X7, X10, X14
	VMULPD X8, X11, X15
	VADDPD X15, X14, X14
	VMULPD X9, X12, X15
	VADDPD X15, X14, X14
	MOVQ 0(R10), DX
	ORQ 8(R10), DX
	ORQ 16(R10), DX
	SHLQ $1, DX
	JNE general
	VXORPD X15, X15, X15
	// An angular block: s.gv += Ang·ω, s.gpred += Ang·ω̃.
	VADDPD 0(R12), X14, X14
	VMOVUPD X14, 0(R12)
	// m = (0, ang); s.d += Ang·ang.
	VMOVUPD X15, 0(R11)
	VMOVSD X15, 16(R11)
	VMOVUPD X13, 24(R11)
	VEXTRACTF128 $1, Y13, X15
	VMOVSD X15, 40(R11)
	VMULSD X15, X12, X15
	VUNPCKHPD X13, X13, X14
	VMULSD X14, X11, X14
	VMULSD X13, X10, X13
	VADDSD X14, X13, X13
	VADDSD X15, X13, X13
	VADDSD 16(R12), X13, X13
	VMOVSD X13, 16(R12)
	JMP next

general:
	// Both halves: the linear [gv, gpred] terms into X15, then
	// s.gv += Lin·v + Ang·ω (and the predictions alike).
	VMOVDDUP 0(R10), X15
	VMULPD X4, X15, X15
	VMOVDDUP 8(R10), X10
	VMULPD X5, X10, X10
	VADDPD X10, X15, X15
	VMOVDDUP 16(R10), X10
	VMULPD X6, X10, X10
	VADDPD X10, X15, X15
	VADDPD X14, X15, X15
	VADDPD 0(R12), X15, X15
	VMOVUPD X15, 0(R12)
	// m.Ang = ang; Ang·ang into X13 (X10..X12 broadcast again: X10 was
	// a temporary).
	VMOVUPD X13, 24(R11)
	VEXTRACTF128 $1, Y13, X15
	VMOVSD X15, 40(R11)
	VMULSD 40(R10), X15, X15
	VUNPCKHPD X13, X13, X14
	VMULSD 32(R10), X14, X14
	VMULSD 24(R10), X13, X13
	VADDSD X14, X13, X13
	VADDSD X15, X13, X13
	// m.Lin = Lin/m and Lin·lin into X14.
	VMULSD 0(R10), X3, X14
	VMOVSD X14, 0(R11)
	VMULSD 0(R10), X14, X14
	VMULSD 8(R10), X3, X15
	VMOVSD X15, 8(R11)
	VMULSD 8(R10), X15, X15
	VADDSD X15, X14, X14
	VMULSD 16(R10), X3, X15
	VMOVSD X15, 16(R11)
	VMULSD 16(R10), X15, X15
	VADDSD X15, X14, X14
	// s.d += Lin·lin + Ang·ang.
	VADDSD X13, X14, X14
	VADDSD 16(R12), X14, X14
	VMOVSD X14, 16(R12)
	JMP next

linear:
	// J.Ang = 0: s.gv += Lin·v, s.gpred += Lin·ṽ; m = (Lin/m, 0);
	// s.d += Lin·lin.
	VMOVDDUP 0(R10), X14
	VMULPD X4, X14, X14
	VMOVDDUP 8(R10), X13
	VMULPD X5, X13, X13
	VADDPD X13, X14, X14
	VMOVDDUP 16(R10), X13
	VMULPD X6, X13, X13
	VADDPD X13, X14, X14
	VADDPD 0(R12), X14, X14
	VMOVUPD X14, 0(R12)
	VMULSD 0(R10), X3, X14
	VMOVSD X14, 0(R11)
	VMULSD 0(R10), X14, X14
	VMULSD 8(R10), X3, X13
	VMOVSD X13, 8(R11)
	VMULSD 8(R10), X13, X13
	VADDSD X13, X14, X14
	VMULSD 16(R10), X3, X13
	VMOVSD X13, 16(R11)
	VMULSD 16(R10), X13, X13
	VADDSD X13, X14, X14
	VADDSD 16(R12), X14, X14
	VMOVSD X14, 16(R12)
	VXORPD X15, X15, X15
	VMOVUPD X15, 24(R11)
	VMOVSD X15, 40(R11)

next:
	ADDQ R13, R10
	ADDQ R13, R11
	ADDQ $32, R12
	DECQ CX
	JNE row

done:
	VZEROUPPER
	RET

// BACKCOL subtracts gm's column c times y[c] from z in Y0, X1: the column
// gathered into Y2 (rows 0..3) and X3 (rows 4, 5).
#define BACKCOL(c) \
	TRANSPOSE4(BX, (0+8*c), (48+8*c), (96+8*c), (144+8*c), Y2, X2); \
	VMOVSD (192+8*c)(BX), X3; VMOVHPD (240+8*c)(BX), X3, X3; \
	VBROADCASTSD (0+8*c)(R8), Y4; \
	VMULPD Y4, Y2, Y2; VSUBPD Y2, Y0, Y0; \
	VMULPD X4, X3, X3; VSUBPD X3, X1, X1

// func subtractBackward6AVX(l *block6, inv, z *[6]float64, gm *block6, y *[6]float64)
//
// subtractBackward6: z −= gm y, each row's products subtracted in column
// order, in the lanes of the rows (gm's columns gathered), then the
// triangular solve backward, entry by entry.
TEXT ·subtractBackward6AVX(SB), NOSPLIT, $0-40
	MOVQ l+0(FP), DI
	MOVQ inv+8(FP), SI
	MOVQ z+16(FP), DX
	MOVQ gm+24(FP), BX
	MOVQ y+32(FP), R8
	VMOVUPD 0(DX), Y0
	VMOVUPD 32(DX), X1
	BACKCOL(0)
	BACKCOL(1)
	BACKCOL(2)
	BACKCOL(3)
	BACKCOL(4)
	BACKCOL(5)
	ZLANES
	VMULSD 40(SI), X11, X11
	LSUB(272, X11, X10)
	VMULSD 32(SI), X10, X10
	LSUB(216, X10, X9)
	LSUB(264, X11, X9)
	VMULSD 24(SI), X9, X9
	LSUB(160, X9, X8)
	LSUB(208, X10, X8)
	LSUB(256, X11, X8)
	VMULSD 16(SI), X8, X8
	LSUB(104, X8, X6)
	LSUB(152, X9, X6)
	LSUB(200, X10, X6)
	LSUB(248, X11, X6)
	VMULSD 8(SI), X6, X6
	LSUB(48, X6, X5)
	LSUB(96, X8, X5)
	LSUB(144, X9, X5)
	LSUB(192, X10, X5)
	LSUB(240, X11, X5)
	VMULSD 0(SI), X5, X5
	ZSTORE
	VZEROUPPER
	RET
