//go:build amd64 && !purego

#include "textflag.h"

// The transposes: d's k rows (dStride bytes apart) get n columns from n
// runs of k elements of s (sStride bytes apart): 64 bytes of each run, a
// cache line when the run starts on one, so each line is read in one visit.
// Blocks of runs pass through registers as square blocks in two halves: the
// first 32 bytes of the runs give d's first k/2 rows, the next 32 bytes the
// others. n is a positive multiple of the block's runs (8, 4 or 2); every
// address is checked by the caller (Transpose).

// BLOCK4x4 loads 32 bytes at byte offset off of each of the four runs
// from SI (BX apart, R8 = 3 runs), a, b, c and d, makes them columns (Y0 =
// a0 b0 c0 d0, Y1 = a1 b1 c1 d1, …; Y4–Y7 scratch) and stores them at byte
// offset AX of four rows of d from row (DX apart).
#define BLOCK4x4(off, row) \
	VMOVUPD    off(SI), Y0       \
	VMOVUPD    off(SI)(BX*1), Y1 \
	VMOVUPD    off(SI)(BX*2), Y2 \
	VMOVUPD    off(SI)(R8*1), Y3 \
	VUNPCKLPD  Y1, Y0, Y4        \ // a0 b0 a2 b2
	VUNPCKHPD  Y1, Y0, Y5        \ // a1 b1 a3 b3
	VUNPCKLPD  Y3, Y2, Y6        \ // c0 d0 c2 d2
	VUNPCKHPD  Y3, Y2, Y7        \ // c1 d1 c3 d3
	VPERM2F128 $0x20, Y6, Y4, Y0 \
	VPERM2F128 $0x20, Y7, Y5, Y1 \
	VPERM2F128 $0x31, Y6, Y4, Y2 \
	VPERM2F128 $0x31, Y7, Y5, Y3 \
	MOVQ       row, R9           \
	VMOVUPD    Y0, (R9)(AX*1)    \
	ADDQ       DX, R9            \
	VMOVUPD    Y1, (R9)(AX*1)    \
	ADDQ       DX, R9            \
	VMOVUPD    Y2, (R9)(AX*1)    \
	ADDQ       DX, R9            \
	VMOVUPD    Y3, (R9)(AX*1)

// func transpose8(d, s unsafe.Pointer, dStride, sStride, n int)
// 8-byte elements, eight rows, four runs at a time: their first 32 bytes
// make d's rows 0–3, the next 32 bytes rows 4–7.
TEXT ·transpose8(SB), NOSPLIT, $0-40
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ dStride+16(FP), DX
	MOVQ sStride+24(FP), BX
	MOVQ n+32(FP), CX
	LEAQ (BX)(BX*2), R8  // 3 runs
	LEAQ (DI)(DX*4), R12 // d's row 4
	XORQ AX, AX          // the column's byte offset in d's rows

runs8:
	BLOCK4x4(0, DI)
	BLOCK4x4(32, R12)
	LEAQ (SI)(BX*4), SI
	ADDQ $32, AX
	SUBQ $4, CX
	JNZ  runs8
	VZEROUPPER
	RET

// func transpose16(d, s unsafe.Pointer, dStride, sStride, n int)
// 16-byte elements, four rows, two runs at a time.
TEXT ·transpose16(SB), NOSPLIT, $0-40
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ dStride+16(FP), DX
	MOVQ sStride+24(FP), BX
	MOVQ n+32(FP), CX
	LEAQ (DI)(DX*1), R9  // d's row 1
	LEAQ (DI)(DX*2), R10 // row 2
	LEAQ (R9)(DX*2), R11 // row 3
	XORQ AX, AX

runs16:
	VMOVUPD    (SI), Y0             // a0 a1
	VMOVUPD    (SI)(BX*1), Y1       // b0 b1
	VMOVUPD    32(SI), Y2           // a2 a3
	VMOVUPD    32(SI)(BX*1), Y3     // b2 b3
	VPERM2F128 $0x20, Y1, Y0, Y4    // a0 b0
	VPERM2F128 $0x31, Y1, Y0, Y5    // a1 b1
	VPERM2F128 $0x20, Y3, Y2, Y6    // a2 b2
	VPERM2F128 $0x31, Y3, Y2, Y7    // a3 b3
	VMOVUPD    Y4, (DI)(AX*1)
	VMOVUPD    Y5, (R9)(AX*1)
	VMOVUPD    Y6, (R10)(AX*1)
	VMOVUPD    Y7, (R11)(AX*1)
	LEAQ       (SI)(BX*2), SI
	ADDQ       $32, AX
	SUBQ       $2, CX
	JNZ        runs16
	VZEROUPPER
	RET

// TRANSPOSE8x8 makes the eight 8×4-byte rows a … h (Y0–Y7) columns:
// Y8 = a0 … h0, Y9 = a1 … h1, …, Y15 = a7 … h7.
#define TRANSPOSE8x8 \
	VUNPCKLPS  Y1, Y0, Y8         \ // a0 b0 a1 b1 | a4 b4 a5 b5
	VUNPCKHPS  Y1, Y0, Y9         \ // a2 b2 a3 b3 | a6 b6 a7 b7
	VUNPCKLPS  Y3, Y2, Y10        \ // c0 d0 c1 d1 | c4 d4 c5 d5
	VUNPCKHPS  Y3, Y2, Y11        \
	VUNPCKLPS  Y5, Y4, Y12        \
	VUNPCKHPS  Y5, Y4, Y13        \
	VUNPCKLPS  Y7, Y6, Y14        \
	VUNPCKHPS  Y7, Y6, Y15        \
	VSHUFPS    $0x44, Y10, Y8, Y0 \ // a0 b0 c0 d0 | a4 b4 c4 d4
	VSHUFPS    $0xEE, Y10, Y8, Y1 \ // a1 b1 c1 d1 | a5 b5 c5 d5
	VSHUFPS    $0x44, Y11, Y9, Y2 \ // a2 … | a6 …
	VSHUFPS    $0xEE, Y11, Y9, Y3 \ // a3 … | a7 …
	VSHUFPS    $0x44, Y14, Y12, Y4 \ // e0 f0 g0 h0 | e4 …
	VSHUFPS    $0xEE, Y14, Y12, Y5 \
	VSHUFPS    $0x44, Y15, Y13, Y6 \
	VSHUFPS    $0xEE, Y15, Y13, Y7 \
	VPERM2F128 $0x20, Y4, Y0, Y8  \ // a0 … h0
	VPERM2F128 $0x20, Y5, Y1, Y9  \
	VPERM2F128 $0x20, Y6, Y2, Y10 \
	VPERM2F128 $0x20, Y7, Y3, Y11 \
	VPERM2F128 $0x31, Y4, Y0, Y12 \ // a4 … h4
	VPERM2F128 $0x31, Y5, Y1, Y13 \
	VPERM2F128 $0x31, Y6, Y2, Y14 \
	VPERM2F128 $0x31, Y7, Y3, Y15

// RUNS8 sets the offsets of runs 3, 5, 6 and 7 from SI (BX apart) in R8,
// R13, R10 and R11, for LOAD8.
#define RUNS8 \
	LEAQ (BX)(BX*2), R8  \
	LEAQ (BX)(BX*4), R13 \
	LEAQ (R8)(R8*1), R10 \
	LEAQ (R10)(BX*1), R11

// LOAD8 loads, with mov, the bytes at byte offset off of each of the eight
// runs from SI into r0–r7 (see RUNS8).
#define LOAD8(mov, off, r0, r1, r2, r3, r4, r5, r6, r7) \
	mov off(SI), r0        \
	mov off(SI)(BX*1), r1  \
	mov off(SI)(BX*2), r2  \
	mov off(SI)(R8*1), r3  \
	mov off(SI)(BX*4), r4  \
	mov off(SI)(R13*1), r5 \
	mov off(SI)(R10*1), r6 \
	mov off(SI)(R11*1), r7

// STORE8 stores, with mov, r0–r7 at byte offset AX of eight rows of d from
// R9 (DX apart).
#define STORE8(mov, r0, r1, r2, r3, r4, r5, r6, r7) \
	mov  r0, (R9)(AX*1) \
	ADDQ DX, R9         \
	mov  r1, (R9)(AX*1) \
	ADDQ DX, R9         \
	mov  r2, (R9)(AX*1) \
	ADDQ DX, R9         \
	mov  r3, (R9)(AX*1) \
	ADDQ DX, R9         \
	mov  r4, (R9)(AX*1) \
	ADDQ DX, R9         \
	mov  r5, (R9)(AX*1) \
	ADDQ DX, R9         \
	mov  r6, (R9)(AX*1) \
	ADDQ DX, R9         \
	mov  r7, (R9)(AX*1)

// func transpose4(d, s unsafe.Pointer, dStride, sStride, n int)
// 4-byte elements, sixteen rows, eight runs at a time.
TEXT ·transpose4(SB), NOSPLIT, $0-40
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ dStride+16(FP), DX
	MOVQ sStride+24(FP), BX
	MOVQ n+32(FP), CX
	RUNS8
	MOVQ DX, R12
	SHLQ $3, R12
	ADDQ DI, R12         // d's row 8
	XORQ AX, AX

runs4:
	LOAD8(VMOVUPS, 0, Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7)
	TRANSPOSE8x8
	MOVQ DI, R9
	STORE8(VMOVUPS, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15)
	LOAD8(VMOVUPS, 32, Y0, Y1, Y2, Y3, Y4, Y5, Y6, Y7)
	TRANSPOSE8x8
	MOVQ R12, R9
	STORE8(VMOVUPS, Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15)
	LEAQ (SI)(BX*8), SI
	ADDQ $32, AX
	SUBQ $8, CX
	JNZ  runs4
	VZEROUPPER
	RET

// func transpose2(d, s unsafe.Pointer, dStride, sStride, n int)
// 2-byte elements, eight rows, eight runs at a time: 16 bytes of each run
// through three rounds of unpacks (words, dwords, qwords) in the 128-bit
// registers, 16 bytes stored to each row.
TEXT ·transpose2(SB), NOSPLIT, $0-40
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ dStride+16(FP), DX
	MOVQ sStride+24(FP), BX
	MOVQ n+32(FP), CX
	RUNS8
	XORQ AX, AX

runs2:
	LOAD8(VMOVDQU, 0, X0, X1, X2, X3, X4, X5, X6, X7)
	VPUNPCKLWD  X1, X0, X8    // a0 b0 a1 b1 a2 b2 a3 b3
	VPUNPCKHWD  X1, X0, X9    // a4 b4 … a7 b7
	VPUNPCKLWD  X3, X2, X10   // c0 d0 … c3 d3
	VPUNPCKHWD  X3, X2, X11
	VPUNPCKLWD  X5, X4, X12   // e0 f0 … e3 f3
	VPUNPCKHWD  X5, X4, X13
	VPUNPCKLWD  X7, X6, X14   // g0 h0 … g3 h3
	VPUNPCKHWD  X7, X6, X15
	VPUNPCKLDQ  X10, X8, X0   // a0 b0 c0 d0 a1 b1 c1 d1
	VPUNPCKHDQ  X10, X8, X1   // a2 … a3 …
	VPUNPCKLDQ  X11, X9, X2   // a4 … a5 …
	VPUNPCKHDQ  X11, X9, X3   // a6 … a7 …
	VPUNPCKLDQ  X14, X12, X4  // e0 f0 g0 h0 e1 f1 g1 h1
	VPUNPCKHDQ  X14, X12, X5
	VPUNPCKLDQ  X15, X13, X6
	VPUNPCKHDQ  X15, X13, X7
	VPUNPCKLQDQ X4, X0, X8    // column 0: a0 … h0
	VPUNPCKHQDQ X4, X0, X9    // 1
	VPUNPCKLQDQ X5, X1, X10   // 2
	VPUNPCKHQDQ X5, X1, X11   // 3
	VPUNPCKLQDQ X6, X2, X12   // 4
	VPUNPCKHQDQ X6, X2, X13   // 5
	VPUNPCKLQDQ X7, X3, X14   // 6
	VPUNPCKHQDQ X7, X3, X15   // 7
	MOVQ        DI, R9
	STORE8(VMOVDQU, X8, X9, X10, X11, X12, X13, X14, X15)
	LEAQ        (SI)(BX*8), SI
	ADDQ        $16, AX
	SUBQ        $8, CX
	JNZ         runs2
	VZEROUPPER
	RET

// func transpose1(d, s unsafe.Pointer, dStride, sStride, n int)
// 1-byte elements, eight rows, eight runs at a time: 8 bytes of each run
// through three rounds of unpacks (bytes, words, dwords), 8 bytes stored
// to each row (the low and high halves of four registers).
TEXT ·transpose1(SB), NOSPLIT, $0-40
	MOVQ d+0(FP), DI
	MOVQ s+8(FP), SI
	MOVQ dStride+16(FP), DX
	MOVQ sStride+24(FP), BX
	MOVQ n+32(FP), CX
	RUNS8
	XORQ AX, AX

runs1:
	LOAD8(VMOVQ, 0, X0, X1, X2, X3, X4, X5, X6, X7)
	VPUNPCKLBW  X1, X0, X8    // a0 b0 a1 b1 … a7 b7
	VPUNPCKLBW  X3, X2, X9    // c0 d0 … c7 d7
	VPUNPCKLBW  X5, X4, X10   // e0 f0 … e7 f7
	VPUNPCKLBW  X7, X6, X11   // g0 h0 … g7 h7
	VPUNPCKLWD  X9, X8, X12   // a0 b0 c0 d0 … a3 b3 c3 d3
	VPUNPCKHWD  X9, X8, X13   // a4 b4 c4 d4 … a7 b7 c7 d7
	VPUNPCKLWD  X11, X10, X14 // e0 f0 g0 h0 … e3 f3 g3 h3
	VPUNPCKHWD  X11, X10, X15 // e4 … e7 …
	VPUNPCKLDQ  X14, X12, X0  // columns 0 and 1: a0 … h0, a1 … h1
	VPUNPCKHDQ  X14, X12, X1  // 2 and 3
	VPUNPCKLDQ  X15, X13, X2  // 4 and 5
	VPUNPCKHDQ  X15, X13, X3  // 6 and 7
	MOVQ        DI, R9
	VMOVQ       X0, (R9)(AX*1)
	ADDQ        DX, R9
	VMOVHPS     X0, (R9)(AX*1)
	ADDQ        DX, R9
	VMOVQ       X1, (R9)(AX*1)
	ADDQ        DX, R9
	VMOVHPS     X1, (R9)(AX*1)
	ADDQ        DX, R9
	VMOVQ       X2, (R9)(AX*1)
	ADDQ        DX, R9
	VMOVHPS     X2, (R9)(AX*1)
	ADDQ        DX, R9
	VMOVQ       X3, (R9)(AX*1)
	ADDQ        DX, R9
	VMOVHPS     X3, (R9)(AX*1)
	LEAQ        (SI)(BX*8), SI
	ADDQ        $8, AX
	SUBQ        $8, CX
	JNZ         runs1
	VZEROUPPER
	RET
