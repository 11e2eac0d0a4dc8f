package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// maxLoop512 emits max32AVX512, Max's float32 loop: sixteen lanes of
// running maxima by VMAXPS, and beside them sixteen lanes of the
// elements' sum, which is not finite when an element is NaN or infinite
// (or the sum overflows): VMAXPS drops a NaN operand, so the caller takes
// the sum's word for whether the maxima hold. That is one add a group
// instead of MaxLanes' compare, mask and branch. Four sets of lanes run
// side by side, so that their maxima do not wait on each other's latency;
// the maximum is the same in any order (of ±0, either).
func maxLoop512() {
	const name = "max32AVX512"
	wide, zmm = false, true
	defer func() { zmm = false }()
	TEXT(name, NOSPLIT, "func(a []float32) (m, sum float32, n int)")
	Pragma("noescape")
	Doc(name+" returns the maximum m (of ±0 either) and the sum of a prefix of a of n elements, whole",
		"groups of 16; m is only the maximum when sum is finite. len(a) >= 16. It needs AVX-512 F.")
	pa := Load(Param("a").Base(), GP64())
	n := Load(Param("a").Len(), GP64())
	ANDQ(I32(-16), n)
	const sets = 4
	acc, sum := make([]reg.VecVirtual, sets), make([]reg.VecVirtual, sets)
	// The maxima start from the first group (len(a) >= 16: the
	// caller's), which max takes again without harm; the sums from 0.
	for u := range acc {
		acc[u], sum[u] = ZMM(), ZMM()
		VMOVUPS(Mem{Base: pa}, acc[u])
		VXORPS(sum[u], sum[u], sum[u])
	}
	i, left := GP64(), GP64()
	XORQ(i, i)
	group := func(u, disp int) {
		x := ZMM()
		VMOVUPS(Mem{Base: pa, Index: i, Scale: 4, Disp: disp}, x)
		VMAXPS(x, acc[u], acc[u])
		VADDPS(x, sum[u], sum[u])
	}
	Label(name + "_loopN")
	MOVQ(n, left)
	SUBQ(i, left)
	CMPQ(left, Imm(16*sets))
	JL(LabelRef(name + "_loop"))
	for u := range acc {
		group(u, 64*u)
	}
	ADDQ(Imm(16*sets), i)
	JMP(LabelRef(name + "_loopN"))
	Label(name + "_loop")
	CMPQ(i, n)
	JE(LabelRef(name + "_done"))
	group(0, 0)
	ADDQ(Imm(16), i)
	JMP(LabelRef(name + "_loop"))
	Label(name + "_done")
	VMAXPS(acc[1], acc[0], acc[0])
	VMAXPS(acc[3], acc[2], acc[2])
	VMAXPS(acc[2], acc[0], acc[0])
	VADDPS(sum[1], sum[0], sum[0])
	VADDPS(sum[3], sum[2], sum[2])
	VADDPS(sum[2], sum[0], sum[0])
	// Sixteen lanes to one: halves, quarters, pairs, one.
	fold := func(v reg.VecVirtual, f func(a, b, d Op)) reg.VecVirtual {
		h := YMM()
		VEXTRACTF32X8(Imm(1), v, h)
		y := YMM()
		f(h, v.AsY(), y)
		q := XMM()
		VEXTRACTF128(Imm(1), y, q)
		x := XMM()
		f(q, y.AsX(), x)
		p := XMM()
		VMOVHLPS(x, x, p)
		f(p, x, x)
		o := XMM()
		VMOVSHDUP(x, o)
		f(o, x, x)
		return x
	}
	m := fold(acc[0], func(a, b, d Op) { VMAXPS(a, b, d) })
	t := fold(sum[0], func(a, b, d Op) { VADDPS(a, b, d) })
	Store(m, ReturnIndex(0))
	Store(t, ReturnIndex(1))
	Store(i, ReturnIndex(2))
	VZEROUPPER()
	RET()
}
