package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// float64 exp: exp64 (four lanes, AVX2) and the loops on eight lanes
// (AVX-512 F and DQ), exp64's operations in the same order on ZMM
// registers, the table's entries gathered eight at a time; only the width
// differs from the AVX2 loops.

// exp64 is expTail(expReduce(x)) of exp.go, the table's entries gathered.
func exp64(x reg.VecVirtual, tbl reg.GPVirtual) (ok, y reg.VecVirtual) {
	ax := YMM()
	op(VANDPD, VANDPD_BCST, k64(1<<63-1), x, ax)
	ok = YMM()
	op(VCMPPD, VCMPPD_BCST, Imm(cmpLT), kd(512), ax, ok)
	return ok, exp64Fast(x, tbl)
}

// exp64Fast is expTail(expReduce(x))'s arithmetic, in lanes of the width
// zmm selects.
func exp64Fast(x reg.VecVirtual, tbl reg.GPVirtual) (y reg.VecVirtual) {
	kdv := add(kd(0x1.8p52), mul(kd(0x1.71547652b82fep0*128), x))
	ki := kdv
	kdv = sub(kdv, kd(0x1.8p52))
	r := add(mul(kd(-0x1.cf79abc9e3b3ap-47), kdv), add(mul(kd(-0x1.62e42fefa0000p-8), kdv), x))
	idx := vec()
	if zmm {
		op(VPANDQ, VPANDQ_BCST, k64(127), ki, idx)
	} else {
		VPAND(k64(127), ki, idx)
	}
	VPSLLQ(Imm(1), idx, idx)
	tail, sbits := vec(), vec()
	for _, g := range []struct {
		dst  reg.VecVirtual
		disp int
	}{{tail, 0}, {sbits, 8}} {
		m := Mem{Base: tbl, Index: idx, Scale: 8, Disp: g.disp}
		if zmm {
			// All eight lanes; the destination zeroed first, so that it is
			// not live from the function's entry (nor waits on its last use).
			ones, mask := GP32(), K()
			MOVL(U32(0xff), ones)
			KMOVB(ones, mask)
			VXORPD(g.dst, g.dst, g.dst)
			VPGATHERQQ(m, mask, g.dst)
			continue
		}
		mask := YMM()
		VPCMPEQQ(mask, mask, mask)
		VPGATHERQQ(mask, m, g.dst)
	}
	sh := vec()
	VPSLLQ(Imm(52-7), ki, sh)
	VPADDQ(sh, sbits, sbits) // scale
	r2 := mul(r, r)
	a := mul(r2, add(kd(1.0/2), mul(kd(1.0/6), r)))
	b := mul(mul(r2, r2), add(kd(1.0/24), mul(kd(1.0/120), r)))
	tmp := add(b, add(a, add(r, tail)))
	return add(sbits, mul(sbits, tmp))
}

// exp64Z is exp64 on eight lanes (zmm and wide set): ok is a mask register.
func exp64Z(x reg.VecVirtual, tbl reg.GPVirtual) (ok reg.OpmaskVirtual, y reg.VecVirtual) {
	ax := ZMM()
	op(VANDPD, VANDPD_BCST, k64(1<<63-1), x, ax)
	ok = K()
	op(VCMPPD, VCMPPD_BCST, Imm(cmpLT), kd(512), ax, ok)
	return ok, exp64Fast(x, tbl)
}

// loop64Z is loop64 in groups of eight, unroll groups an iteration while
// every one is on the fast path, then one at a time.
func loop64Z(name, goName string, unroll int, table bool, body func(x reg.VecVirtual, tbl reg.GPVirtual) (ok reg.OpmaskVirtual, y reg.VecVirtual)) {
	wide, zmm = true, true
	defer func() { zmm = false }()
	sig := "func(d, a []float64) int"
	if table {
		sig = "func(d, a []float64, table *[128][2]uint64) int"
	}
	TEXT(name, NOSPLIT, sig)
	Doc(fmt.Sprintf("%s sets d[i] = %s for a prefix of d in groups of 8,", name, goName),
		"up to the first group with an argument off the fast path; it returns the prefix's length.",
		"len(a) >= len(d): the caller's. It needs AVX-512 F and DQ.")
	pd := Load(Param("d").Base(), GP64())
	n := Load(Param("d").Len(), GP64())
	pa := Load(Param("a").Base(), GP64())
	var tbl reg.GPVirtual
	if table {
		tbl = GP64()
		Load(Param("table"), tbl)
	}
	i := GP64()
	XORQ(i, i)
	left := GP64()
	groups := func(count int, next, exit string) {
		Label(next)
		MOVQ(n, left)
		SUBQ(i, left)
		CMPQ(left, Imm(uint64(8*count)))
		JL(LabelRef(exit))
		var ok reg.OpmaskVirtual
		ys := make([]reg.VecVirtual, count)
		for u := range count {
			x := ZMM()
			VMOVUPD(Mem{Base: pa, Index: i, Scale: 8, Disp: 64 * u}, x)
			o, y := body(x, tbl)
			ys[u] = y
			if ok == nil {
				ok = o
			} else {
				KANDB(o, ok, ok)
			}
		}
		KORTESTB(ok, ok) // CF: every lane on the fast path
		JCC(LabelRef(exit))
		for u, y := range ys {
			VMOVUPD(y, Mem{Base: pd, Index: i, Scale: 8, Disp: 64 * u})
		}
		ADDQ(Imm(uint64(8*count)), i)
		JMP(LabelRef(next))
	}
	groups(unroll, name+"_loopN", name+"_loop")
	groups(1, name+"_loop", name+"_done")
	Label(name + "_done")
	Store(i, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// expSumLoop64Z emits expSumLanes64AVX512, ExpSumLanes's float64 fold in
// groups of eight: a group's exponentials in the eight lanes of a ZMM
// register by exp64's operations, added into the lanes, the Go loop's
// order (the AVX2 loop's two halves are the same adds).
func expSumLoop64Z() {
	const name = "expSumLanes64AVX512"
	wide, zmm = true, true
	defer func() { zmm = false }()
	TEXT(name, NOSPLIT, "func(s *[8]float64, a []float64, k float64, table *[128][2]uint64) int")
	Pragma("noescape")
	Doc(name+" sets s[i%8] = s[i%8] + exp(a[i]-k), up to the first group off exp's fast path,",
		"for a prefix of a in groups of 8; it returns the prefix's length. It needs AVX-512 F and DQ.")
	ps := Load(Param("s"), GP64())
	pa := Load(Param("a").Base(), GP64())
	n := Load(Param("a").Len(), GP64())
	kx := XMM()
	Load(Param("k"), kx)
	k := ZMM()
	VBROADCASTSD(kx, k)
	tbl := GP64()
	Load(Param("table"), tbl)
	acc := ZMM()
	VMOVUPD(Mem{Base: ps}, acc)
	i, left := GP64(), GP64()
	XORQ(i, i)
	// group folds the eight elements at disp into cur, returning the new
	// lanes and the group's fast-path mask.
	group := func(cur reg.VecVirtual, disp int) (reg.VecVirtual, reg.OpmaskVirtual) {
		x := ZMM()
		VMOVUPD(Mem{Base: pa, Index: i, Scale: 8, Disp: disp}, x)
		ok, e := exp64Z(sub(x, k), tbl)
		return add(e, cur), ok
	}
	allSet := func(ok reg.OpmaskVirtual, to string) {
		KORTESTB(ok, ok) // CF: every lane set
		JCC(LabelRef(to))
	}
	const unroll = 2
	Label(name + "_loopN")
	MOVQ(n, left)
	SUBQ(i, left)
	CMPQ(left, Imm(8*unroll))
	JL(LabelRef(name + "_loop"))
	cur := acc
	var ok reg.OpmaskVirtual
	for u := range unroll {
		y, o := group(cur, 64*u)
		cur = y
		if ok == nil {
			ok = o
		} else {
			KANDB(o, ok, ok)
		}
	}
	allSet(ok, name+"_loop")
	VMOVAPD(cur, acc)
	ADDQ(Imm(8*unroll), i)
	JMP(LabelRef(name + "_loopN"))
	Label(name + "_loop")
	MOVQ(n, left)
	SUBQ(i, left)
	CMPQ(left, Imm(8))
	JL(LabelRef(name + "_done"))
	y, o := group(acc, 0)
	allSet(o, name+"_done")
	VMOVAPD(y, acc)
	ADDQ(Imm(8), i)
	JMP(LabelRef(name + "_loop"))
	Label(name + "_done")
	VMOVUPD(acc, Mem{Base: ps})
	Store(i, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// expSumLeaves64Z emits expSumLeaves64AVX512, ExpSumLeaves's float64
// vector loop: the eight leaves from a's start, one after another, each
// from zero lanes, its sixteen groups of eight computed as
// expSumLanes64AVX512's and added in order. It stops before the first
// leaf with an argument off exp's fast path and returns the leaves done.
// Each group also prefetches (PREFETCHT1) one cache line of the 8 KiB
// from ahead, as expSumLeaves32AVX512 does.
func expSumLeaves64Z() {
	const name = "expSumLeaves64AVX512"
	wide, zmm = true, true
	defer func() { zmm = false }()
	TEXT(name, NOSPLIT, "func(s *[8][8]float64, a []float64, k float64, table *[128][2]uint64, ahead *float64) int")
	Pragma("noescape")
	Doc(name+" sets s[l][i%8] = s[l][i%8] + exp(a[l*128+i]-k), from zero lanes, for the",
		"eight leaves of 128 elements from a's start, up to the first leaf with an argument off exp's",
		"fast path; it returns the leaves done. len(a) >= 1024. It needs AVX-512 F and DQ.",
		"It prefetches the 8 KiB from ahead into L2, a line with each group of 8.")
	ps := Load(Param("s"), GP64())
	pa := Load(Param("a").Base(), GP64())
	pf := Load(Param("ahead"), GP64())
	kx := XMM()
	Load(Param("k"), kx)
	k := ZMM()
	VBROADCASTSD(kx, k)
	tbl := GP64()
	Load(Param("table"), tbl)
	done := GP64()
	XORQ(done, done)
	Label(name + "_leaf")
	acc := ZMM()
	VXORPD(acc, acc, acc)
	var ok reg.OpmaskVirtual
	for g := 0; g < leafLen/8; g++ {
		x := ZMM()
		VMOVUPD(Mem{Base: pa, Disp: 64 * g}, x)
		PREFETCHT1(Mem{Base: pf, Disp: 64 * g})
		o, e := exp64Z(sub(x, k), tbl)
		acc = add(e, acc)
		if ok == nil {
			ok = o
		} else {
			KANDB(o, ok, ok)
		}
	}
	KORTESTB(ok, ok) // CF: every lane on the fast path
	JCC(LabelRef(name + "_done"))
	VMOVUPD(acc, Mem{Base: ps})
	ADDQ(U32(leafLen*8), pa)
	ADDQ(U32(leafLen*8), pf)
	ADDQ(Imm(64), ps)
	INCQ(done)
	CMPQ(done, Imm(8))
	JNE(LabelRef(name + "_leaf"))
	Label(name + "_done")
	Store(done, ReturnIndex(0))
	VZEROUPPER()
	RET()
}
