package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// The lane folds of reductions' leaves (lanes.go of package vmath): each
// folds a's element i into lane i%8 of s, eight elements a group, one
// packed instruction per operation of the Go twin and no FMA, so that the
// bits are the Go loop's. A fold with a fast path stops before the first
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
		laneLoop("sqDevLanes"+t+"AVX2", "s[i%8] + (a[i]-k)², the product rounded", w, true, false, sqDevBody)
		if w {
			laneLoop("expSumLanes64AVX2", "s[i%8] + exp(a[i]-k), up to the first group off exp's fast path", w, true, true, expSum64Body)
		} else {
			laneLoop("expSumLanes32AVX2", "s[i%8] + exp(a[i]-k), up to the first group off exp's fast path", w, true, false, expSum32Body)
		}
	}
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
