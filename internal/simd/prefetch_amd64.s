//go:build amd64 && !purego

#include "textflag.h"

// func prefetchL2(p unsafe.Pointer, n int) (lines int)
// PREFETCHT1 each 64-byte line of the n > 0 bytes from p; return how many.
TEXT ·prefetchL2(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), AX
	MOVQ n+8(FP), CX
	ADDQ AX, CX   // the end
	ANDQ $~63, AX // the first line
	XORQ DX, DX
lines:
	PREFETCHT1 (AX)
	INCQ DX
	ADDQ $64, AX
	CMPQ AX, CX
	JB   lines
	MOVQ DX, lines+16(FP)
	RET

// func prefetchL2Strided(p unsafe.Pointer, stride, count int) (end uintptr)
// PREFETCHT1 the line of each of count > 0 addresses stride bytes apart
// from p; return p + count*stride.
TEXT ·prefetchL2Strided(SB), NOSPLIT, $0-32
	MOVQ p+0(FP), AX
	MOVQ stride+8(FP), BX
	MOVQ count+16(FP), CX
each:
	PREFETCHT1 (AX)
	ADDQ BX, AX
	DECQ CX
	JNZ  each
	MOVQ AX, end+24(FP)
	RET
