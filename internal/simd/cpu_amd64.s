//go:build amd64 && !purego

#include "textflag.h"

// func cpuidVendor() (ebx, ecx, edx uint32)
// CPUID leaf 0: the vendor's twelve bytes in EBX, EDX and ECX.
TEXT ·cpuidVendor(SB), NOSPLIT, $0-12
	XORL AX, AX
	XORL CX, CX
	CPUID
	MOVL BX, ebx+0(FP)
	MOVL CX, ecx+4(FP)
	MOVL DX, edx+8(FP)
	RET
