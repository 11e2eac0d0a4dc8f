package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The lane folds of reductions' leaves (lanes.go of package vmath): each
// folds a's element i into lane i%8 of s, eight elements a group, one
// packed instruction per operation of the Go twin and no FMA (but exp's
// own, which the Go code's fma32 matches), so that the bits are the Go
// loop's. A fold with a fast path stops before the first
// group with an element off it and returns how many elements it folded.

func laneLoops() {
	cmpOrd := Imm(7) // ORD_Q: neither operand is NaN
	// max(x, acc) in Intel's order gives acc when either is NaN: a NaN
	// already in a lane stays, and a NaN in x stops the loop.
	maxBody := func(acc, x, _ reg.VecVirtual, _ reg.GPVirtual) (ok, y reg.VecVirtual) {
		ok, y = YMM(), YMM()
		if wide {
			VCMPPD(cmpOrd, x, x, ok)
			VMAXPD(acc, x, y)
		} else {
			VCMPPS(cmpOrd, x, x, ok)
			VMAXPS(acc, x, y)
		}
		return ok, y
	}
	// The extremes of a plain max or min reduction: with neither acc nor x
	// NaN, both operand orders, combined so that of +0 and -0 max gives +0
	// (AND of the two) and min -0 (OR); any other pair has one answer in
	// either order. A NaN in acc or x stops the loop.
	extremeBody := func(isMax bool) func(acc, x, _ reg.VecVirtual, _ reg.GPVirtual) (ok, y reg.VecVirtual) {
		return func(acc, x, _ reg.VecVirtual, _ reg.GPVirtual) (ok, y reg.VecVirtual) {
			ok, a, b := YMM(), YMM(), YMM()
			y = YMM()
			switch {
			case wide && isMax:
				VCMPPD(cmpOrd, acc, x, ok)
				VMAXPD(acc, x, a)
				VMAXPD(x, acc, b)
				VANDPD(a, b, y)
			case wide:
				VCMPPD(cmpOrd, acc, x, ok)
				VMINPD(acc, x, a)
				VMINPD(x, acc, b)
				VORPD(a, b, y)
			case isMax:
				VCMPPS(cmpOrd, acc, x, ok)
				VMAXPS(acc, x, a)
				VMAXPS(x, acc, b)
				VANDPS(a, b, y)
			default:
				VCMPPS(cmpOrd, acc, x, ok)
				VMINPS(acc, x, a)
				VMINPS(x, acc, b)
				VORPS(a, b, y)
			}
			return ok, y
		}
	}
	sumBody := func(acc, x, _ reg.VecVirtual, _ reg.GPVirtual) (ok, y reg.VecVirtual) {
		return nil, add(x, acc)
	}
	sqDevBody := func(acc, x, k reg.VecVirtual, _ reg.GPVirtual) (ok, y reg.VecVirtual) {
		d := sub(x, k)
		return nil, add(mul(d, d), acc)
	}
	expSum32Body := func(acc, x, k reg.VecVirtual, _ reg.GPVirtual) (ok, y reg.VecVirtual) {
		ok, e := exp32(sub(x, k))
		return ok, add(e, acc)
	}
	expSum64Body := func(acc, x, k reg.VecVirtual, tbl reg.GPVirtual) (ok, y reg.VecVirtual) {
		ok, e := exp64(sub(x, k), tbl)
		return ok, add(e, acc)
	}
	for _, w := range []bool{false, true} {
		t := "32"
		if w {
			t = "64"
		}
		laneLoop("maxLanes"+t+"AVX2", "max(s[i%8], a[i]), up to the first group holding a NaN", w, false, false, maxBody)
		laneLoop("maxOfLanes"+t+"AVX2", "maxOf(s[i%8], a[i]), up to the first group where either holds a NaN", w, false, false, extremeBody(true))
		laneLoop("minOfLanes"+t+"AVX2", "minOf(s[i%8], a[i]), up to the first group where either holds a NaN", w, false, false, extremeBody(false))
		laneLoop("sumLanes"+t+"AVX2", "s[i%8] + a[i]", w, false, false, sumBody)
		leafLoop("sumLeaves"+t+"AVX2", "s[l][i%8] + a[l*128+i]", w, false, sumBody)
		leafLoop("sqDevLeaves"+t+"AVX2", "s[l][i%8] + (a[l*128+i]-k)², the product rounded", w, true, sqDevBody)
		laneLoop("sqDevLanes"+t+"AVX2", "s[i%8] + (a[i]-k)², the product rounded", w, true, false, sqDevBody)
		if w {
			sumTotals64Z()
			laneLoop("expSumLanes64AVX2", "s[i%8] + exp(a[i]-k), up to the first group off exp's fast path", w, true, true, expSum64Body)
			expSumLoop64Z()
			expSumLeaves64Z()
		} else {
			laneLoop("expSumLanes32AVX2", "s[i%8] + exp(a[i]-k), up to the first group off exp's fast path", w, true, false, expSum32Body)
			expSumLoop512(false)
			expSumLoop512(true)
			expSumLeaves512()
		}
	}
}

// leafLoop emits func name(s *[L][8]T, a []T[, k T]), the fold body of
// L whole leaves of leafLen elements (L = 8 for float32, 4 for float64):
// s[l][i%8] = body(s[l][i%8], a[l*leafLen+i]) for i in order, from zero
// lanes. The leaves are read in order, each an unrolled chain of its own,
// so that a leaf's adds overlap the next leaf's instead of one chain
// running through the block; each line loaded is prefetched leafPrefetch
// bytes ahead. len(a) >= L*leafLen: the caller's.
func leafLoop(name, what string, w, scalar bool, body func(acc, x, k reg.VecVirtual, tbl reg.GPVirtual) (ok, y reg.VecVirtual)) {
	wide = w
	typ, vecs, size, leaves := "float32", 1, 4, 8
	if w {
		typ, vecs, size, leaves = "float64", 2, 8, 4
	}
	sig := fmt.Sprintf("func(s *[%d][8]%s, a []%s", leaves, typ, typ)
	if scalar {
		sig += ", k " + typ
	}
	TEXT(name, NOSPLIT, sig+")")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s sets s[l][i%%8] = %s for the %d leaves of %d elements", name, what, leaves, leafLen),
		fmt.Sprintf("from a's start, from zero lanes; len(a) >= %d.", leaves*leafLen))
	ps := Load(Param("s"), GP64())
	pa := Load(Param("a").Base(), GP64())
	var k reg.VecVirtual
	if scalar {
		kx := XMM()
		Load(Param("k"), kx)
		k = YMM()
		if w {
			VBROADCASTSD(kx, k)
		} else {
			VBROADCASTSS(kx, k)
		}
	}
	end := GP64()
	MOVQ(ps, end)
	ADDQ(U32(leaves*32*vecs), end)
	Label(name + "_leaf")
	acc := make([]reg.VecVirtual, vecs)
	for g := range acc {
		acc[g] = YMM()
		VXORPS(acc[g], acc[g], acc[g])
	}
	for i := 0; i < leafLen*size; i += 32 * vecs {
		if i%64 == 0 {
			PREFETCHT0(Mem{Base: pa, Disp: i + leafPrefetch})
		}
		for g := range acc {
			x := YMM()
			VMOVUPS(Mem{Base: pa, Disp: i + 32*g}, x)
			_, acc[g] = body(acc[g], x, k, nil)
		}
	}
	for g := range acc {
		VMOVUPS(acc[g], Mem{Base: ps, Disp: 32 * g})
	}
	ADDQ(U32(leafLen*size), pa)
	ADDQ(Imm(uint64(32*vecs)), ps)
	CMPQ(ps, end)
	JNE(LabelRef(name + "_leaf"))
	VZEROUPPER()
	RET()
}

// sumTotals64Z emits sumTotals64AVX512, SumLeaves's float64 loop on
// AVX-512: each leaf's eight lanes are one ZMM register, its sixteen adds
// one chain, and its total ((s0+s1)+(s2+s3))+((s4+s5)+(s6+s7)) is taken
// in the register (pairs swapped and added, then halves of each 256 bits,
// then the two 256-bit halves), so a call folds every whole leaf of a run
// and writes the totals. The leaves are independent chains the core
// overlaps; the AVX2 loop's four leaves a call, with their lanes totalled
// in Go and the leftover leaves one call each, ran a row sum of 1000 in L3
// at 39 GB/s on one core. Each line is prefetched leafPrefetch bytes ahead.
func sumTotals64Z() {
	const name = "sumTotals64AVX512"
	wide, zmm = true, true
	defer func() { zmm = false }()
	TEXT(name, NOSPLIT, "func(t []float64, a []float64)")
	Pragma("noescape")
	Doc(name+" sets t[j] to the total of leaf j of a's sums, a[j*128:(j+1)*128] folded into eight",
		"lanes (element i into lane i%8) and the lanes added ((s0+s1)+(s2+s3))+((s4+s5)+(s6+s7)), for j < len(t).",
		"len(a) >= 128*len(t): the caller's. It needs AVX-512F (its caller, AVX-512 F and DQ).")
	pt := Load(Param("t").Base(), GP64())
	n := Load(Param("t").Len(), GP64())
	pa := Load(Param("a").Base(), GP64())
	TESTQ(n, n)
	JZ(LabelRef(name + "_done"))
	// The lanes start from +0, as the Go loop's do: a lane of -0s sums
	// to +0.
	zero := ZMM()
	VPXORQ(zero, zero, zero)
	Label(name + "_leaf")
	acc := ZMM()
	VADDPD(Mem{Base: pa}, zero, acc)
	PREFETCHT0(Mem{Base: pa, Disp: leafPrefetch})
	for i := 64; i < leafLen*8; i += 64 {
		PREFETCHT0(Mem{Base: pa, Disp: i + leafPrefetch})
		VADDPD(Mem{Base: pa, Disp: i}, acc, acc)
	}
	pairs, halves, hi := ZMM(), ZMM(), YMM()
	VPERMILPD(Imm(0x55), acc, pairs) // s1, s0, s3, s2, ...
	VADDPD(pairs, acc, acc)
	VPERMPD(Imm(0x4e), acc, halves) // lanes 2, 3, 0, 1 of each 256 bits
	VADDPD(halves, acc, acc)
	VEXTRACTF64X4(Imm(1), acc, hi)
	VADDSD(hi.AsX(), acc.AsX(), acc.AsX())
	VMOVSD(acc.AsX(), Mem{Base: pt})
	ADDQ(U32(leafLen*8), pa)
	ADDQ(Imm(8), pt)
	DECQ(n)
	JNZ(LabelRef(name + "_leaf"))
	Label(name + "_done")
	VZEROUPPER()
	RET()
}

// leafPrefetch is how far past the line it loads a leaf fold prefetches
// (PREFETCHT0), in bytes: a sum streams its input from memory with almost
// no arithmetic to hide the misses behind, and the hardware prefetcher
// alone left tpbench's W10/-1 and W10/all (float64 sums of a 3162², 80 MB)
// at 1.58 and 1.57 ms; 8 KiB ahead took them to 1.44 and 1.37 (4
// alternating runs of each build, load 1.3–1.5), 4 KiB and 16 KiB less.
// A prefetch never faults, so the lines past a's end cost nothing.
const leafPrefetch = 8192

// leafLen is the elements of a leaf of exec's fixed tree (reduceLeaf).
const leafLen = 128

// expSumLoop512 emits expSumLanes32AVX512, ExpSumLanes's float32 fold in
// groups of sixteen: a group's exponentials in the sixteen lanes of a ZMM
// register by the same operations as exp32's, then its first eight added
// into the lanes and its last eight after them, the Go loop's order. With
// store it emits expStoreSumLanes32AVX512, which also writes each
// exponential to d and prefetches (PREFETCHT1) ahead's line at the same
// offset with each group: ExpStoreSumLanes's loop.
func expSumLoop512(store bool) {
	name, sig := "expSumLanes32AVX512", "func(s *[8]float32, a []float32, k float32) int"
	if store {
		name, sig = "expStoreSumLanes32AVX512", "func(s *[8]float32, d, a []float32, k float32, ahead *float32) int"
	}
	wide, zmm = false, true
	defer func() { zmm = false }()
	TEXT(name, NOSPLIT, sig)
	Pragma("noescape")
	if store {
		Doc(name+" sets d[i] = exp(a[i]-k) and s[i%8] = s[i%8] + d[i], up to the first group of 16 off exp's",
			"fast path, for a prefix of a in groups of 16; it returns the prefix's length. len(d) >= len(a).",
			"With each group it prefetches the line of ahead at the group's offset into L2 (ahead has",
			"len(a) elements). It needs AVX-512 F and DQ.")
	} else {
		Doc(name+" sets s[i%8] = s[i%8] + exp(a[i]-k), up to the first group of 16 off exp's fast path,",
			"for a prefix of a in groups of 16; it returns the prefix's length. It needs AVX-512 F and DQ.")
	}
	ps := Load(Param("s"), GP64())
	var pd, pf reg.Register
	if store {
		pd = Load(Param("d").Base(), GP64())
		pf = Load(Param("ahead"), GP64())
	}
	pa := Load(Param("a").Base(), GP64())
	n := Load(Param("a").Len(), GP64())
	kx := XMM()
	Load(Param("k"), kx)
	k := ZMM()
	VBROADCASTSS(kx, k)
	acc := YMM()
	VMOVUPS(Mem{Base: ps}, acc)
	i, left := GP64(), GP64()
	XORQ(i, i)
	// group folds the sixteen elements at disp into cur, returning the new
	// lanes, the exponentials and the group's fast-path mask.
	group := func(cur reg.VecVirtual, disp int) (reg.VecVirtual, reg.VecVirtual, reg.OpmaskVirtual) {
		x := ZMM()
		VMOVUPS(Mem{Base: pa, Index: i, Scale: 4, Disp: disp}, x)
		if store {
			PREFETCHT1(Mem{Base: pf, Index: i, Scale: 4, Disp: disp})
		}
		ok, e := exp32Z(sub(x, k))
		lo := YMM()
		VADDPS(e.AsY(), cur, lo)
		hi, y := YMM(), YMM()
		VEXTRACTF32X8(Imm(1), e, hi)
		VADDPS(hi, lo, y)
		return y, e, ok
	}
	allSet := func(ok reg.OpmaskVirtual, to string) {
		KORTESTW(ok, ok) // CF: every lane set
		JCC(LabelRef(to))
	}
	const unroll = 4
	Label(name + "_loopN")
	MOVQ(n, left)
	SUBQ(i, left)
	CMPQ(left, Imm(16*unroll))
	JL(LabelRef(name + "_loop"))
	cur := acc
	var ok reg.OpmaskVirtual
	var es []reg.VecVirtual
	for u := range unroll {
		y, e, o := group(cur, 64*u)
		cur = y
		es = append(es, e)
		if ok == nil {
			ok = o
		} else {
			KANDW(o, ok, ok)
		}
	}
	allSet(ok, name+"_loop")
	if store {
		for u, e := range es {
			VMOVUPS(e, Mem{Base: pd, Index: i, Scale: 4, Disp: 64 * u})
		}
	}
	VMOVAPS(cur, acc)
	ADDQ(Imm(16*unroll), i)
	JMP(LabelRef(name + "_loopN"))
	Label(name + "_loop")
	MOVQ(n, left)
	SUBQ(i, left)
	CMPQ(left, Imm(16))
	JL(LabelRef(name + "_done"))
	y, e, o := group(acc, 0)
	allSet(o, name+"_done")
	if store {
		VMOVUPS(e, Mem{Base: pd, Index: i, Scale: 4})
	}
	VMOVAPS(y, acc)
	ADDQ(Imm(16), i)
	JMP(LabelRef(name + "_loop"))
	Label(name + "_done")
	VMOVUPS(acc, Mem{Base: ps})
	Store(i, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// expSumLeaves512 emits expSumLeaves32AVX512, ExpSumLeaves's float32
// vector loop: the eight leaves from a's start, one after another, each
// from zero lanes, its eight groups of sixteen computed as
// expSumLanes32AVX512's and added in order. It stops before the first
// leaf with an argument off exp's fast path and returns the leaves done.
// Each group also prefetches (PREFETCHT0) one cache line of the 4 KiB
// from ahead, the next block a reduction folds, so that its misses are in
// flight while these exponentials are computed from L1, and the next
// block's maximum reads it from L1: W15/lse on an Intel Xeon took
// 1.68-1.71 ms against 1.73-1.78 ms with PREFETCHT1 (into L2),
// alternating.
func expSumLeaves512() {
	const name = "expSumLeaves32AVX512"
	wide, zmm = false, true
	defer func() { zmm = false }()
	TEXT(name, NOSPLIT, "func(s *[8][8]float32, a []float32, k float32, ahead *float32) int")
	Pragma("noescape")
	Doc(name+" sets s[l][i%8] = s[l][i%8] + exp(a[l*128+i]-k), from zero lanes, for the",
		"eight leaves of 128 elements from a's start, up to the first leaf with an argument off exp's",
		"fast path; it returns the leaves done. len(a) >= 1024. It needs AVX-512 F and DQ.",
		"It prefetches the 4 KiB from ahead into L1, a line with each group of 16.")
	ps := Load(Param("s"), GP64())
	pa := Load(Param("a").Base(), GP64())
	pf := Load(Param("ahead"), GP64())
	kx := XMM()
	Load(Param("k"), kx)
	k := ZMM()
	VBROADCASTSS(kx, k)
	done := GP64()
	XORQ(done, done)
	Label(name + "_leaf")
	acc := YMM()
	VXORPS(acc, acc, acc)
	var ok reg.OpmaskVirtual
	for g := 0; g < leafLen/16; g++ {
		x := ZMM()
		VMOVUPS(Mem{Base: pa, Disp: 64 * g}, x)
		PREFETCHT0(Mem{Base: pf, Disp: 64 * g})
		// exp32Z's fast-path test, each group's compare masked by the
		// groups' before it (the mask an AND of all of them, without a
		// KANDW a group).
		d := sub(x, k)
		ax := ZMM()
		op(VANDPS, VANDPS_BCST, absMask(), d, ax)
		if ok == nil {
			ok = K()
			op(VCMPPS, VCMPPS_BCST, Imm(cmpLT), kf(86.5), ax, ok)
		} else {
			op(VCMPPS, VCMPPS_BCST, Imm(cmpLT), kf(86.5), ax, ok, ok)
		}
		e := exp32Fast(d)
		lo, hi, y := YMM(), YMM(), YMM()
		VADDPS(e.AsY(), acc, lo)
		VEXTRACTF32X8(Imm(1), e, hi)
		VADDPS(hi, lo, y)
		acc = y
	}
	KORTESTW(ok, ok) // CF: every lane on the fast path
	JCC(LabelRef(name + "_done"))
	VMOVUPS(acc, Mem{Base: ps})
	ADDQ(U32(leafLen*4), pa)
	ADDQ(U32(leafLen*4), pf)
	ADDQ(Imm(32), ps)
	INCQ(done)
	CMPQ(done, Imm(8))
	JNE(LabelRef(name + "_leaf"))
	Label(name + "_done")
	Store(done, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// laneLoop emits func name(s *[8]T, a []T[, k T][, table]) int, which
// folds groups of eight elements of a into s by body (acc is a lane
// vector of s, x the elements for it, k the broadcast scalar) for as long
// as body's ok mask (nil: always) is set in every lane of the group.
func laneLoop(name, what string, w, scalar, table bool, body func(acc, x, k reg.VecVirtual, tbl reg.GPVirtual) (ok, y reg.VecVirtual)) {
	wide = w
	typ, vecs, size := "float32", 1, 4
	if w {
		typ, vecs, size = "float64", 2, 8
	}
	sig := fmt.Sprintf("func(s *[8]%s, a []%s", typ, typ)
	if scalar {
		sig += ", k " + typ
	}
	if table {
		sig += ", table *[128][2]uint64"
	}
	TEXT(name, NOSPLIT, sig+") int")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s sets s[i%%8] = %s", name, what),
		"for a prefix of a in groups of 8; it returns the prefix's length.")
	ps := Load(Param("s"), GP64())
	pa := Load(Param("a").Base(), GP64())
	n := Load(Param("a").Len(), GP64())
	var k reg.VecVirtual
	if scalar {
		kx := XMM()
		Load(Param("k"), kx)
		k = YMM()
		if w {
			VBROADCASTSD(kx, k)
		} else {
			VBROADCASTSS(kx, k)
		}
	}
	var tbl reg.GPVirtual
	if table {
		tbl = GP64()
		Load(Param("table"), tbl)
	}
	acc := make([]reg.VecVirtual, vecs)
	for g := range acc {
		acc[g] = YMM()
		VMOVUPS(Mem{Base: ps, Disp: 32 * g}, acc[g])
	}
	i, left := GP64(), GP64()
	XORQ(i, i)
	// Unrolled: unroll groups an iteration, kept only if every one is on
	// the fast path; else the loop of one group redoes them from the first.
	unroll := 4
	switch {
	case table:
		unroll = 1 // exp64's gathers leave no registers for a second group
	case w:
		unroll = 2
	}
	if unroll > 1 {
		Label(name + "_loopN")
		MOVQ(n, left)
		SUBQ(i, left)
		CMPQ(left, Imm(uint64(8*unroll)))
		JL(LabelRef(name + "_loop"))
		var ok reg.VecVirtual
		cur := append([]reg.VecVirtual(nil), acc...)
		for u := range unroll {
			for g := range acc {
				x := YMM()
				VMOVUPS(Mem{Base: pa, Index: i, Scale: uint8(size), Disp: 32 * (g + vecs*u)}, x)
				o, y := body(cur[g], x, k, tbl)
				cur[g] = y
				switch {
				case o == nil:
				case ok == nil:
					ok = o
				default:
					VANDPS(o, ok, ok)
				}
			}
		}
		if ok != nil {
			m := GP32()
			if w {
				VMOVMSKPD(ok, m)
				CMPL(m, Imm(0xf))
			} else {
				VMOVMSKPS(ok, m)
				CMPL(m, Imm(0xff))
			}
			JNE(LabelRef(name + "_loop"))
		}
		for g := range acc {
			VMOVAPS(cur[g], acc[g])
		}
		ADDQ(Imm(uint64(8*unroll)), i)
		JMP(LabelRef(name + "_loopN"))
	}
	Label(name + "_loop")
	MOVQ(n, left)
	SUBQ(i, left)
	CMPQ(left, Imm(8))
	JL(LabelRef(name + "_done"))
	var ok reg.VecVirtual
	ys := make([]reg.VecVirtual, vecs)
	for g := range acc {
		x := YMM()
		VMOVUPS(Mem{Base: pa, Index: i, Scale: uint8(size), Disp: 32 * g}, x)
		o, y := body(acc[g], x, k, tbl)
		ys[g] = y
		switch {
		case o == nil:
		case ok == nil:
			ok = o
		default:
			VANDPS(o, ok, ok)
		}
	}
	if ok != nil {
		m := GP32()
		if w {
			VMOVMSKPD(ok, m)
			CMPL(m, Imm(0xf))
		} else {
			VMOVMSKPS(ok, m)
			CMPL(m, Imm(0xff))
		}
		JNE(LabelRef(name + "_done"))
	}
	for g := range acc {
		VMOVAPS(ys[g], acc[g])
	}
	ADDQ(Imm(8), i)
	JMP(LabelRef(name + "_loop"))
	Label(name + "_done")
	for g := range acc {
		VMOVUPS(acc[g], Mem{Base: ps, Disp: 32 * g})
	}
	Store(i, ReturnIndex(0))
	VZEROUPPER()
	RET()
}
