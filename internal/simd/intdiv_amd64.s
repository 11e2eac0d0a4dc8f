//go:build amd64 && !purego

#include "textflag.h"

// The int32 division loops (intdiv.go): each takes len(d), a multiple of
// 4, elements. Four int32 become four float64 (VCVTDQ2PD), are divided
// (VDIVPD), floored where ROUND says so (VROUNDPD, mode 9: toward -inf,
// inexact not signalled), and truncated back (VCVTTPD2DQ: a quotient out
// of int32's range, as from x/0 or MinInt32/-1, becomes 0x80000000).
// Where a divisor is 0 a mask then clears the quotient.

#define NOROUND(r)
#define FLOOR(r) VROUNDPD $9, r, r

// QUOT computes four quotients of the float64 vectors num and den into X
// register out's 128 bits (through Y register tmp).
#define QUOT(num, den, tmp, out, ROUND) \
	VDIVPD den, num, tmp \
	ROUND(tmp)           \
	VCVTTPD2DQY tmp, out

// ZEROMASK clears the int32 lanes of out whose divisor, the four int32 at
// mem, is 0 (X15 holds zeros; scratch is an X register).
#define ZEROMASK(mem, scratch, out) \
	VMOVDQU mem, scratch              \
	VPCMPEQD X15, scratch, scratch    \
	VPANDN out, scratch, out

// The loads of four x (SI) and y (DX) elements as float64 (x in Y0, y in
// Y1), and the masks after a quotient in X4: by the divisors in DX, or none.
#define LOADXY VCVTDQ2PD (SI)(AX*4), Y0; VCVTDQ2PD (DX)(AX*4), Y1
#define LOADX VCVTDQ2PD (SI)(AX*4), Y0
#define LOADY VCVTDQ2PD (DX)(AX*4), Y1
#define MASKY ZEROMASK((DX)(AX*4), X6, X4)
#define NOMASK

// VEC4 runs the rest of a loop four elements at a time, from AX to CX:
// LOAD them, divide x by y into X4, MASK the quotients, store them to DI.
#define VEC4(LOAD, ROUND, MASK) \
four:                             \
	CMPQ AX, CX                   \
	JGE  done                     \
	LOAD                          \
	QUOT(Y0, Y1, Y4, X4, ROUND)   \
	MASK                          \
	VMOVDQU X4, (DI)(AX*4)        \
	ADDQ $4, AX                   \
	JMP  four                     \
done:                             \
	VZEROUPPER                    \
	RET

// The loops take d in DI and its length in CX, x in SI or as a float64 in
// Y0, y in DX or in Y1. The TEXT bodies below load their arguments, where
// go vet checks the frame offsets.

#define DIVVV(ROUND) \
	VPXOR X15, X15, X15             \
	XORQ AX, AX                     \
	CMPQ CX, $8                     \
	JLT  four                       \
eight:                              \
	VCVTDQ2PD (SI)(AX*4), Y0        \
	VCVTDQ2PD (DX)(AX*4), Y1        \
	VCVTDQ2PD 16(SI)(AX*4), Y2      \
	VCVTDQ2PD 16(DX)(AX*4), Y3      \
	QUOT(Y0, Y1, Y4, X4, ROUND)     \
	QUOT(Y2, Y3, Y5, X5, ROUND)     \
	ZEROMASK((DX)(AX*4), X6, X4)    \
	ZEROMASK(16(DX)(AX*4), X7, X5)  \
	VMOVDQU X4, (DI)(AX*4)          \
	VMOVDQU X5, 16(DI)(AX*4)        \
	ADDQ $8, AX                     \
	LEAQ 8(AX), BX                  \
	CMPQ BX, CX                     \
	JLE  eight                      \
	VEC4(LOADXY, ROUND, MASKY)

#define DIVVS(ROUND) \
	XORQ AX, AX                 \
	VEC4(LOADX, ROUND, NOMASK)

#define DIVSV(ROUND) \
	VPXOR X15, X15, X15          \
	XORQ AX, AX                  \
	VEC4(LOADY, ROUND, MASKY)

// func divTruncVVI32AVX2(d, x, y []int32)
TEXT ·divTruncVVI32AVX2(SB), NOSPLIT, $0-72
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ x_base+24(FP), SI
	MOVQ y_base+48(FP), DX
	DIVVV(NOROUND)

// func divFloorVVI32AVX2(d, x, y []int32)
TEXT ·divFloorVVI32AVX2(SB), NOSPLIT, $0-72
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ x_base+24(FP), SI
	MOVQ y_base+48(FP), DX
	DIVVV(FLOOR)

// func divTruncVSI32AVX2(d, x []int32, y float64)
TEXT ·divTruncVSI32AVX2(SB), NOSPLIT, $0-56
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ x_base+24(FP), SI
	VBROADCASTSD y+48(FP), Y1
	DIVVS(NOROUND)

// func divFloorVSI32AVX2(d, x []int32, y float64)
TEXT ·divFloorVSI32AVX2(SB), NOSPLIT, $0-56
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	MOVQ x_base+24(FP), SI
	VBROADCASTSD y+48(FP), Y1
	DIVVS(FLOOR)

// func divTruncSVI32AVX2(d []int32, x float64, y []int32)
TEXT ·divTruncSVI32AVX2(SB), NOSPLIT, $0-56
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	VBROADCASTSD x+24(FP), Y0
	MOVQ y_base+32(FP), DX
	DIVSV(NOROUND)

// func divFloorSVI32AVX2(d []int32, x float64, y []int32)
TEXT ·divFloorSVI32AVX2(SB), NOSPLIT, $0-56
	MOVQ d_base+0(FP), DI
	MOVQ d_len+8(FP), CX
	VBROADCASTSD x+24(FP), Y0
	MOVQ y_base+32(FP), DX
	DIVSV(FLOOR)
