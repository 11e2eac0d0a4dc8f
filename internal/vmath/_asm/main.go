// Command _asm generates internal/vmath's AVX2 loops (and the AVX-512 exp loops) with avo.
//
// It is its own module, so that the main module does not depend on avo. Run
// it with go generate in internal/vmath, which runs:
//
//	cd _asm && go run . -out ../vec_amd64.s -stubs ../vec_amd64.go -pkg vmath
//
// Each loop is the fast path of a Go loop of package vmath (exp32Fast1,
// log32Fast1, trig32Fast1), operation for operation in eight float32 lanes:
// every multiply and add rounded on its own, as the Go code's conversions
// force, except the fused multiply-adds of float32 exp (and so of tanh,
// sigmoid and the exponential sums), which the Go code computes with
// fma32, so that the bits are the same. A loop takes groups of eight from
// the start of its arguments while every lane of a group is on the fast
// path, and returns how many elements it wrote.
package main

import (
	"fmt"
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

func main() {
	ConstraintExpr("!purego")
	loop32("exp32AVX2", "exp32Fast1", exp32)
	loop32Z("exp32AVX512", "exp32Fast1", 2, exp32Z)
	loop32("log32AVX2", "log32Fast1", log32)
	loop32("sin32AVX2", "trig32Fast1(x, 0)", func(x reg.VecVirtual) (reg.VecVirtual, reg.VecVirtual) { return trig32(x, 0) })
	loop32("cos32AVX2", "trig32Fast1(x, 1)", func(x reg.VecVirtual) (reg.VecVirtual, reg.VecVirtual) { return trig32(x, 1) })
	loop32Z("sin32AVX512", "trig32Fast1(x, 0)", 1, func(x reg.VecVirtual) (reg.OpmaskVirtual, reg.VecVirtual) { return trig32Z(x, 0) })
	loop32Z("cos32AVX512", "trig32Fast1(x, 1)", 1, func(x reg.VecVirtual) (reg.OpmaskVirtual, reg.VecVirtual) { return trig32Z(x, 1) })
	loop32("tanh32AVX2", "tanh of tanh32Go", tanh32)
	loop32Z("tanh32AVX512", "tanh of tanh32Go", 1, tanh32Z)
	loop32("sigmoid32AVX2", "sigmoid of sigmoid32Go", sigmoid32)
	wide = true
	loop64("tanh64AVX2", "tanh of tanh64Go", true, tanh64)
	loop64("sigmoid64AVX2", "sigmoid of sigmoid64Go", true, sigmoid64)
	loop64("exp64AVX2", "expTail(expReduce(x))", true, exp64)
	loop64Z("exp64AVX512", "expTail(expReduce(x))", 2, true, exp64Z)
	loop64("log64AVX2", "log64Fast1(x)", false, func(x reg.VecVirtual, _ reg.GPVirtual) (reg.VecVirtual, reg.VecVirtual) { return log64(x) })
	loop64("sin64AVX2", "trig64Fast1(x, 0)", false, func(x reg.VecVirtual, _ reg.GPVirtual) (reg.VecVirtual, reg.VecVirtual) { return trig64(x, 0) })
	loop64("cos64AVX2", "trig64Fast1(x, 1)", false, func(x reg.VecVirtual, _ reg.GPVirtual) (reg.VecVirtual, reg.VecVirtual) { return trig64(x, 1) })
	loop64Z("sin64AVX512", "trig64Fast1(x, 0)", 1, false, func(x reg.VecVirtual, _ reg.GPVirtual) (reg.OpmaskVirtual, reg.VecVirtual) { return trig64Z(x, 0) })
	loop64Z("cos64AVX512", "trig64Fast1(x, 1)", 1, false, func(x reg.VecVirtual, _ reg.GPVirtual) (reg.OpmaskVirtual, reg.VecVirtual) { return trig64Z(x, 1) })
	laneLoops()
	maxLoop512()
	Generate()
}

// loop32 emits func name(d, a []float32) int: body returns, for the lanes
// of x, a mask whose sign bits are set in the lanes on the fast path, and
// the results.
func loop32(name, goName string, body func(x reg.VecVirtual) (ok, y reg.VecVirtual)) {
	TEXT(name, NOSPLIT, "func(d, a []float32) int")
	Doc(fmt.Sprintf("%s sets d[i] = %s for a prefix of d in groups of 8,", name, goName),
		"up to the first group with an argument off the fast path; it returns the prefix's length.",
		"len(a) >= len(d): the caller's.")
	pd := Load(Param("d").Base(), GP64())
	n := Load(Param("d").Len(), GP64())
	pa := Load(Param("a").Base(), GP64())
	i := GP64()
	XORQ(i, i)
	left := GP64()
	Label(name + "_loop")
	MOVQ(n, left)
	SUBQ(i, left)
	CMPQ(left, Imm(8))
	JL(LabelRef(name + "_done"))
	x := YMM()
	VMOVUPS(Mem{Base: pa, Index: i, Scale: 4}, x)
	ok, y := body(x)
	m := GP32()
	VMOVMSKPS(ok, m)
	CMPL(m, Imm(0xff))
	JNE(LabelRef(name + "_done"))
	VMOVUPS(y, Mem{Base: pd, Index: i, Scale: 4})
	ADDQ(Imm(8), i)
	JMP(LabelRef(name + "_loop"))
	Label(name + "_done")
	Store(i, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// loop32Z is loop32 in groups of sixteen (AVX-512 F and DQ), unroll groups
// an iteration while every one is on the fast path, then one at a time.
func loop32Z(name, goName string, unroll int, body func(x reg.VecVirtual) (ok reg.OpmaskVirtual, y reg.VecVirtual)) {
	zmm = true
	defer func() { zmm = false }()
	TEXT(name, NOSPLIT, "func(d, a []float32) int")
	Doc(fmt.Sprintf("%s sets d[i] = %s for a prefix of d in groups of 16,", name, goName),
		"up to the first group with an argument off the fast path; it returns the prefix's length.",
		"len(a) >= len(d): the caller's. It needs AVX-512 F and DQ.")
	pd := Load(Param("d").Base(), GP64())
	n := Load(Param("d").Len(), GP64())
	pa := Load(Param("a").Base(), GP64())
	i := GP64()
	XORQ(i, i)
	left := GP64()
	groups := func(count int, next, exit string) {
		Label(next)
		MOVQ(n, left)
		SUBQ(i, left)
		CMPQ(left, Imm(uint64(16*count)))
		JL(LabelRef(exit))
		var ok reg.OpmaskVirtual
		ys := make([]reg.VecVirtual, count)
		for u := range count {
			x := ZMM()
			VMOVUPS(Mem{Base: pa, Index: i, Scale: 4, Disp: 64 * u}, x)
			o, y := body(x)
			ys[u] = y
			if ok == nil {
				ok = o
			} else {
				KANDW(o, ok, ok)
			}
		}
		KORTESTW(ok, ok) // CF: every lane on the fast path
		JCC(LabelRef(exit))
		for u, y := range ys {
			VMOVUPS(y, Mem{Base: pd, Index: i, Scale: 4, Disp: 64 * u})
		}
		ADDQ(Imm(uint64(16*count)), i)
		JMP(LabelRef(next))
	}
	groups(unroll, name+"_loopN", name+"_loop")
	groups(1, name+"_loop", name+"_done")
	Label(name + "_done")
	Store(i, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// loop64 is loop32 for float64, in groups of four; with table, the
// function takes the exp table as a third argument.
func loop64(name, goName string, table bool, body func(x reg.VecVirtual, tbl reg.GPVirtual) (ok, y reg.VecVirtual)) {
	sig := "func(d, a []float64) int"
	if table {
		sig = "func(d, a []float64, table *[128][2]uint64) int"
	}
	TEXT(name, NOSPLIT, sig)
	Doc(fmt.Sprintf("%s sets d[i] = %s for a prefix of d in groups of 4,", name, goName),
		"up to the first group with an argument off the fast path; it returns the prefix's length.",
		"len(a) >= len(d): the caller's.")
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
	Label(name + "_loop")
	MOVQ(n, left)
	SUBQ(i, left)
	CMPQ(left, Imm(4))
	JL(LabelRef(name + "_done"))
	x := YMM()
	VMOVUPD(Mem{Base: pa, Index: i, Scale: 8}, x)
	ok, y := body(x, tbl)
	m := GP32()
	VMOVMSKPD(ok, m)
	CMPL(m, Imm(0xf))
	JNE(LabelRef(name + "_done"))
	VMOVUPD(y, Mem{Base: pd, Index: i, Scale: 8})
	ADDQ(Imm(4), i)
	JMP(LabelRef(name + "_loop"))
	Label(name + "_done")
	Store(i, ReturnIndex(0))
	VZEROUPPER()
	RET()
}

// Constants: 32 bytes of one 32-bit value, for memory operands of the
// AVX2 forms. With zmm set a constant is its 4 bytes alone, for the
// broadcast ({1to16}) forms: the linker aligns data to 32 bytes at most, so
// a 64-byte constant would straddle two cache lines in every other build,
// which made the AVX-512 exp loops up to 1.5x slower (W15 softmax and lse)
// on whichever side of the line the rest of the binary put them.
var consts, consts512 = map[uint32]Mem{}, map[uint32]Mem{}

func k32(bits uint32) Mem {
	cs, name, lanes := consts, "c32_%08x", 8
	if zmm {
		cs, name, lanes = consts512, "c32b_%08x", 1
	}
	if m, ok := cs[bits]; ok {
		return m
	}
	m := GLOBL(fmt.Sprintf(name, bits), RODATA|NOPTR)
	for l := 0; l < lanes; l++ {
		DATA(4*l, U32(bits))
	}
	cs[bits] = m
	if zmm {
		bcast[m.Symbol.Name] = true
	}
	return m
}

func kf(v float32) Mem { return k32(math.Float32bits(v)) }

// Constants: 32 bytes of one 64-bit value (its 8 bytes alone, for the
// broadcast forms, when zmm is set).
var consts64, consts64z = map[uint64]Mem{}, map[uint64]Mem{}

func k64(bits uint64) Mem {
	cs, name, lanes := consts64, "c64_%016x", 4
	if zmm {
		cs, name, lanes = consts64z, "c64b_%016x", 1
	}
	if m, ok := cs[bits]; ok {
		return m
	}
	m := GLOBL(fmt.Sprintf(name, bits), RODATA|NOPTR)
	for l := 0; l < lanes; l++ {
		DATA(8*l, U64(bits))
	}
	cs[bits] = m
	if zmm {
		bcast[m.Symbol.Name] = true
	}
	return m
}

// bcast holds the names of the broadcast constants.
var bcast = map[string]bool{}

// op emits plain(ops...), or its broadcast form bcst(ops...) when one of
// ops is a broadcast constant.
func op(plain, bcst func(...Op), ops ...Op) {
	for _, o := range ops {
		if m, ok := o.(Mem); ok && bcast[m.Symbol.Name] {
			bcst(ops...)
			return
		}
	}
	plain(ops...)
}

func kd(v float64) Mem { return k64(math.Float64bits(v)) }

// wide selects the float64 forms of mul, add, sub, load and horner.
var wide bool

// zmm makes mul, add, sub, load, horner and exp32's and exp64's
// arithmetic work on AVX-512 ZMM registers: sixteen float32 lanes instead
// of eight, eight float64 lanes (with wide) instead of four.
var zmm bool

// vec is a new vector register of the width zmm selects.
func vec() reg.VecVirtual {
	if zmm {
		return ZMM()
	}
	return YMM()
}

// The operations of the Go code, each on new registers.
func mul(a Op, b reg.VecVirtual) reg.VecVirtual {
	d := vec()
	if wide {
		op(VMULPD, VMULPD_BCST, a, b, d)
	} else {
		op(VMULPS, VMULPS_BCST, a, b, d)
	}
	return d
}

func add(a Op, b reg.VecVirtual) reg.VecVirtual {
	d := vec()
	if wide {
		op(VADDPD, VADDPD_BCST, a, b, d)
	} else {
		op(VADDPS, VADDPS_BCST, a, b, d)
	}
	return d
}

// sub is a - b.
func sub(a reg.VecVirtual, b Op) reg.VecVirtual {
	d := vec()
	if wide {
		op(VSUBPD, VSUBPD_BCST, b, a, d)
	} else {
		op(VSUBPS, VSUBPS_BCST, b, a, d)
	}
	return d
}

// load is a constant in every lane: its 32 bytes, or with zmm its one
// element broadcast.
func load(m Mem) reg.VecVirtual {
	d := vec()
	switch {
	case zmm && wide:
		VBROADCASTSD(m, d)
	case zmm:
		VBROADCASTSS(m, d)
	default:
		VMOVUPS(m, d)
	}
	return d
}

// horner is ((c0*x + c1)*x + c2)... with every step rounded.
func horner(x reg.VecVirtual, cs ...float32) reg.VecVirtual {
	p := mul(kf(cs[0]), x)
	p = add(kf(cs[1]), p)
	for _, c := range cs[2:] {
		p = add(kf(c), mul(x, p))
	}
	return p
}

// fmaTo sets d = d*b + c, rounded once (float32 lanes).
func fmaTo(d, b reg.VecVirtual, c Op) { op(VFMADD213PS, VFMADD213PS_BCST, c, b, d) }

// hornerFMA is ((c0*x + c1)*x + c2)... in float32 lanes, each step a
// fused multiply-add (fma32 in the Go code).
func hornerFMA(x reg.VecVirtual, cs ...float32) reg.VecVirtual {
	p := load(kf(cs[0]))
	for _, c := range cs[1:] {
		fmaTo(p, x, kf(c))
	}
	return p
}

// horner64 is horner in float64.
func horner64(x reg.VecVirtual, cs ...float64) reg.VecVirtual {
	p := mul(kd(cs[0]), x)
	p = add(kd(cs[1]), p)
	for _, c := range cs[2:] {
		p = add(kd(c), mul(x, p))
	}
	return p
}

func absMask() Mem { return k32(0x7fffffff) }

const (
	cmpLT = 0x11 // LT_OQ
	cmpGT = 0x1e // GT_OQ
)

// exp32 is exp32Fast1.
func exp32(x reg.VecVirtual) (ok, y reg.VecVirtual) {
	ax := YMM()
	op(VANDPS, VANDPS_BCST, absMask(), x, ax)
	ok = YMM()
	op(VCMPPS, VCMPPS_BCST, Imm(cmpLT), kf(86.5), ax, ok)
	return ok, exp32Fast(x)
}

// exp32Z is exp32 on sixteen lanes (zmm set): ok is a mask register.
func exp32Z(x reg.VecVirtual) (ok reg.OpmaskVirtual, y reg.VecVirtual) {
	ax := ZMM()
	op(VANDPS, VANDPS_BCST, absMask(), x, ax)
	ok = K()
	op(VCMPPS, VCMPPS_BCST, Imm(cmpLT), kf(86.5), ax, ok)
	return ok, exp32Fast(x)
}

// exp32Fast is exp32Fast1's arithmetic, in lanes of the width zmm
// selects; it overwrites x. Each fma32 of the Go code is a VFMADD; k*ln2hi
// is exact (at most 24 bits), so x - k*ln2hi is one rounding fused or not.
// With sixteen lanes VSCALEFPS scales by 2^k, one instruction where eight
// lanes add k to the exponent's bits: the same value, the result being
// normal on the fast path.
func exp32Fast(x reg.VecVirtual) (y reg.VecVirtual) {
	ki := load(kf(0x1.715476p+00))
	fmaTo(ki, x, kf(0x1.8p23))
	kd := sub(ki, kf(0x1.8p23))
	rhi := x // x - k*ln2hi, exact: k*ln2hi has at most 24 bits
	op(VFNMADD231PS, VFNMADD231PS_BCST, kf(0x1.62e4p-01), kd, rhi)
	rlo := mul(kf(-0x1.7f7d1cp-20), kd)
	r := add(rhi, rlo)
	z := mul(r, r)
	p := hornerFMA(r, 1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1)
	fmaTo(p, z, rlo)
	y = add(kf(1), add(rhi, p))
	if zmm {
		VSCALEFPS(kd, y, y)
	} else {
		VPSLLD(Imm(23), ki, ki)
		VPADDD(ki, y, y)
	}
	return y
}

// log32 is log32Fast1.
func log32(x reg.VecVirtual) (ok, y reg.VecVirtual) {
	v := YMM()
	VPSUBD(k32(0x00800000), x, v)
	lim := YMM()
	VPCMPGTD(v, load(k32(0x7f800000-0x00800000)), lim)
	ok = YMM()
	VPANDN(lim, v, ok) // ~v & lim: v >= 0 and v < lim
	e := YMM()
	VPSUBD(k32(0x3f3504f3), x, e)
	VPSRAD(Imm(23), e, e)
	t := YMM()
	VPSLLD(Imm(23), e, t)
	mb := YMM()
	VPSUBD(t, x, mb)
	f := sub(mb, kf(1))
	ef := YMM()
	VCVTDQ2PS(e, ef)
	z := mul(f, f)
	p := horner(f, 7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1,
		1.4249322787e-1, -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1)
	yy := sub(mul(p, mul(z, f)), mul(kf(0.5), z))
	yy = add(mul(kf(-0x1.bd0106p-13), ef), yy)
	h := mul(kf(0x1.63p-01), ef)
	hi := add(f, h)
	hl := add(f, sub(h, hi))
	return ok, add(hi, add(hl, yy))
}

// trig32 is trig32Fast1(x, q).
func trig32(x reg.VecVirtual, q uint32) (ok, y reg.VecVirtual) {
	ok = trigOk(x, 6000)
	j, s, c := trig32Poly(x, q)
	return ok, trigPick(j, s, c)
}

// trig32Z is trig32 on sixteen lanes (zmm set): the same operations, the
// compares into mask registers and the sine or cosine picked by the sign
// bit of the quadrant moved into one.
func trig32Z(x reg.VecVirtual, q uint32) (ok reg.OpmaskVirtual, y reg.VecVirtual) {
	ok = trigOkZ(x, 6000)
	j, s, c := trig32Poly(x, q)
	return ok, trigPickZ(j, s, c)
}

// trigOk is a trig loop's fast path in lanes (float64 ones with wide):
// 0 < |x| < limit.
func trigOk(x reg.VecVirtual, limit float64) reg.VecVirtual {
	ax, ok, nz := YMM(), YMM(), YMM()
	if wide {
		op(VANDPD, VANDPD_BCST, k64(1<<63-1), x, ax)
		op(VCMPPD, VCMPPD_BCST, Imm(cmpLT), kd(limit), ax, ok)
		op(VCMPPD, VCMPPD_BCST, Imm(cmpGT), k64(0), ax, nz)
		VANDPD(nz, ok, ok)
		return ok
	}
	op(VANDPS, VANDPS_BCST, absMask(), x, ax)
	op(VCMPPS, VCMPPS_BCST, Imm(cmpLT), kf(float32(limit)), ax, ok)
	op(VCMPPS, VCMPPS_BCST, Imm(cmpGT), k32(0), ax, nz)
	VANDPS(nz, ok, ok)
	return ok
}

// trigOkZ is trigOk on ZMM lanes, into a mask register.
func trigOkZ(x reg.VecVirtual, limit float64) reg.OpmaskVirtual {
	ax, ok, nz := ZMM(), K(), K()
	if wide {
		op(VANDPD, VANDPD_BCST, k64(1<<63-1), x, ax)
		op(VCMPPD, VCMPPD_BCST, Imm(cmpLT), kd(limit), ax, ok)
		op(VCMPPD, VCMPPD_BCST, Imm(cmpGT), k64(0), ax, nz)
		KANDB(nz, ok, ok)
		return ok
	}
	op(VANDPS, VANDPS_BCST, absMask(), x, ax)
	op(VCMPPS, VCMPPS_BCST, Imm(cmpLT), kf(float32(limit)), ax, ok)
	op(VCMPPS, VCMPPS_BCST, Imm(cmpGT), k32(0), ax, nz)
	KANDW(nz, ok, ok)
	return ok
}

// trigPick is the result of a trig loop in lanes (float64 ones with wide)
// from the quadrant j and the polynomials: the cosine c where j is odd,
// else the sine s, negated where j&2 is set.
func trigPick(j, s, c reg.VecVirtual) reg.VecVirtual {
	sel, r, sg := YMM(), YMM(), YMM()
	if wide {
		VPSLLQ(Imm(63), j, sel)
		VBLENDVPD(sel, c, s, r)
		VPAND(k64(2), j, sg)
		VPSLLQ(Imm(62), sg, sg)
	} else {
		VPSLLD(Imm(31), j, sel)
		VBLENDVPS(sel, c, s, r)
		VPAND(k32(2), j, sg)
		VPSLLD(Imm(30), sg, sg)
	}
	VPXOR(sg, r, r)
	return r
}

// trigPickZ is trigPick on ZMM lanes: the quadrant's low bit moved into
// a mask register for the blend.
func trigPickZ(j, s, c reg.VecVirtual) reg.VecVirtual {
	sel, r, sg, odd := ZMM(), ZMM(), ZMM(), K()
	if wide {
		VPSLLQ(Imm(63), j, sel)
		VPMOVQ2M(sel, odd)
		VBLENDMPD(c, s, odd, r) // r = odd ? c : s
		VPANDQ_BCST(k64(2), j, sg)
		VPSLLQ(Imm(62), sg, sg)
		VPXORQ(sg, r, r)
		return r
	}
	VPSLLD(Imm(31), j, sel)
	VPMOVD2M(sel, odd)
	VBLENDMPS(c, s, odd, r) // r = odd ? c : s
	VPANDD_BCST(k32(2), j, sg)
	VPSLLD(Imm(30), sg, sg)
	VPXORD(sg, r, r)
	return r
}

// trig32Poly is trig32Fast1's arithmetic, in lanes of the width zmm
// selects: j the quadrant of x (plus q, 1 for the cosine), and s and c
// the sine and cosine polynomials of the reduced argument.
func trig32Poly(x reg.VecVirtual, q uint32) (j, s, c reg.VecVirtual) {
	jd := add(kf(0x1.8p23), mul(kf(0x1.45f306p-01), x))
	j = jd
	if q != 0 {
		j = vec()
		op(VPADDD, VPADDD_BCST, k32(q), jd, j)
	}
	jd = sub(jd, kf(0x1.8p23))
	t1 := sub(x, mul(kf(0x1.92p+00), jd))
	p2 := mul(kf(0x1.fb4p-12), jd)
	th := sub(t1, p2)
	tl := sub(sub(t1, th), p2)
	p3 := mul(kf(0x1.444p-24), jd)
	u := sub(th, p3)
	tl = add(tl, sub(sub(th, u), p3))
	tl = sub(tl, mul(kf(0x1.68c234p-39), jd))
	rhi := add(u, tl)
	rlo := add(tl, sub(u, rhi))
	z := mul(rhi, rhi)
	s = horner(z, -1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1)
	s = add(rhi, add(rlo, mul(s, mul(rhi, z))))
	c = horner(z, 2.443315711809948e-5, -1.388731625493765e-3, 4.166664568298827e-2)
	hz := mul(kf(0.5), z)
	one := load(kf(1))
	w := sub(one, hz)
	e := sub(sub(one, w), hz)
	c = add(w, add(e, sub(mul(c, mul(z, z)), mul(rhi, rlo))))
	return j, s, c
}

// log64 is log64Fast1.
func log64(x reg.VecVirtual) (ok, y reg.VecVirtual) {
	v := YMM()
	VPSUBQ(k64(0x0010000000000000), x, v)
	lim := YMM()
	VPCMPGTQ(v, load(k64(0x7ff0000000000000-0x0010000000000000)), lim)
	ok = YMM()
	VPANDN(lim, v, ok)
	u := YMM()
	VPSUBQ(k64(0x3fe6a09e667f3bcd), x, u)
	VPADDQ(k64(0x400<<52), u, u)
	VPSRLQ(Imm(52), u, u)
	t := YMM()
	VPSLLQ(Imm(52), u, t)
	VPSUBQ(k64(0x400<<52), t, t)
	mb := YMM()
	VPSUBQ(t, x, mb)
	f := sub(mb, kd(1))
	kf := YMM()
	VPOR(k64(0x4330000000000000), u, kf)
	kk := sub(sub(kf, kd(0x1p52)), kd(1024))
	s := YMM()
	VDIVPD(add(kd(2), f), f, s)
	s2 := mul(s, s)
	s4 := mul(s2, s2)
	t1 := mul(s2, horner64(s4, 1.479819860511658591e-01, 1.818357216161805012e-01, 2.857142874366239149e-01, 6.666666666666735130e-01))
	t2 := mul(s4, horner64(s4, 1.531383769920937332e-01, 2.222219843214978396e-01, 3.999999999940941908e-01))
	rr := add(t1, t2)
	hfsq := mul(f, mul(kd(0.5), f))
	inner := add(mul(kd(1.90821492927058770002e-10), kk), mul(s, add(hfsq, rr)))
	return ok, sub(mul(kd(6.93147180369123816490e-01), kk), sub(sub(hfsq, inner), f))
}

// trig64 is trig64Fast1(x, q).
func trig64(x reg.VecVirtual, q uint64) (ok, y reg.VecVirtual) {
	ok = trigOk(x, 1e6)
	j, s, c := trig64Poly(x, q)
	return ok, trigPick(j, s, c)
}

// trig64Z is trig64 on eight lanes (zmm set), as trig32Z is trig32.
func trig64Z(x reg.VecVirtual, q uint64) (ok reg.OpmaskVirtual, y reg.VecVirtual) {
	ok = trigOkZ(x, 1e6)
	j, s, c := trig64Poly(x, q)
	return ok, trigPickZ(j, s, c)
}

// trig64Poly is trig64Fast1's arithmetic, in lanes of the width zmm
// selects: j the quadrant of x (plus q, 1 for the cosine), and s and c
// the sine and cosine of the reduced argument.
func trig64Poly(x reg.VecVirtual, q uint64) (j, s, c reg.VecVirtual) {
	jd := add(kd(0x1.8p52), mul(kd(0x1.45f306dc9c883p-01), x))
	j = jd
	if q != 0 {
		j = vec()
		op(VPADDQ, VPADDQ_BCST, k64(q), jd, j)
	}
	jd = sub(jd, kd(0x1.8p52))
	t1 := sub(x, mul(kd(0x1.921fb544p+00), jd))
	p2 := mul(kd(0x1.0b4611a6p-34), jd)
	th := sub(t1, p2)
	bb := sub(th, t1)
	tl := sub(sub(t1, sub(th, bb)), add(p2, bb))
	p3 := mul(kd(0x1.3198a2ep-69), jd)
	u := sub(th, p3)
	bb = sub(u, th)
	tl = add(tl, sub(sub(th, sub(u, bb)), add(p3, bb)))
	tl = sub(tl, mul(kd(0x1.b839a252049c1p-104), jd))
	rhi := add(u, tl)
	rlo := add(tl, sub(u, rhi))
	z := mul(rhi, rhi)
	s = horner64(z, 1.58962301576546568060e-10, -2.50507477628578072866e-8, 2.75573136213857245213e-6,
		-1.98412698295895385996e-4, 8.33333333332211858878e-3, -1.66666666666666307295e-1)
	s = add(rhi, add(rlo, mul(s, mul(rhi, z))))
	c = horner64(z, -1.13585365213876817300e-11, 2.08757008419747316778e-9, -2.75573141792967388112e-7,
		2.48015872888517045348e-5, -1.38888888888730564116e-3, 4.16666666666665929218e-2)
	hz := mul(kd(0.5), z)
	one := load(kd(1))
	w := sub(one, hz)
	e := sub(sub(one, w), hz)
	c = add(w, add(e, sub(mul(c, mul(z, z)), mul(rhi, rlo))))
	return j, s, c
}

// tanh32 is the fast path of tanh32Go: both forms, selected.
func tanh32(x reg.VecVirtual) (ok, y reg.VecVirtual) {
	ax := YMM()
	op(VANDPS, VANDPS_BCST, absMask(), x, ax)
	ok = YMM()
	op(VCMPPS, VCMPPS_BCST, Imm(cmpLT), kf(43), ax, ok)
	small := YMM()
	op(VCMPPS, VCMPPS_BCST, Imm(cmpLT), kf(0.625), ax, small)
	ys, yt := tanh32Forms(x, ax)
	y = YMM()
	VBLENDVPS(small, ys, yt, y)
	return ok, y
}

// tanh32Z is tanh32 on sixteen lanes (zmm set): the same operations, the
// forms selected by a mask register.
func tanh32Z(x reg.VecVirtual) (ok reg.OpmaskVirtual, y reg.VecVirtual) {
	ax := ZMM()
	op(VANDPS, VANDPS_BCST, absMask(), x, ax)
	ok = K()
	op(VCMPPS, VCMPPS_BCST, Imm(cmpLT), kf(43), ax, ok)
	small := K()
	op(VCMPPS, VCMPPS_BCST, Imm(cmpLT), kf(0.625), ax, small)
	ys, yt := tanh32Forms(x, ax)
	y = ZMM()
	VBLENDMPS(ys, yt, small, y) // y = small ? ys : yt
	return ok, y
}

// tanh32Forms is tanh32Go's two forms of x (ax = |x|), in lanes of the
// width zmm selects: ys, the odd polynomial for |x| < 0.625, and yt,
// 1 - 2/(1 + exp(2|x|)) with x's sign.
func tanh32Forms(x, ax reg.VecVirtual) (ys, yt reg.VecVirtual) {
	z := mul(x, x)
	p := horner(z, -5.70498872745e-3, 2.06390887954e-2, -5.37397155531e-2, 1.33314422036e-1, -3.33332819422e-1)
	ys = add(x, mul(x, mul(p, z)))
	e := exp32Fast(add(ax, ax))
	q := vec()
	VDIVPS(add(kf(1), e), load(kf(2)), q)
	yt = sub(load(kf(1)), q)
	sg := vec()
	op(VANDPS, VANDPS_BCST, k32(0x80000000), x, sg)
	VORPS(sg, yt, yt)
	return ys, yt
}

// sigmoid32 is the fast path of sigmoid32Go.
func sigmoid32(x reg.VecVirtual) (ok, y reg.VecVirtual) {
	ax := YMM()
	op(VANDPS, VANDPS_BCST, absMask(), x, ax)
	ok = YMM()
	op(VCMPPS, VCMPPS_BCST, Imm(cmpLT), kf(86.5), ax, ok)
	nax := YMM()
	op(VXORPS, VXORPS_BCST, k32(0x80000000), ax, nax)
	_, e := exp32(nax)
	num := YMM()
	VBLENDVPS(x, e, load(kf(1)), num)
	y = YMM()
	VDIVPS(add(kf(1), e), num, y)
	return ok, y
}

// tanh64 is the fast path of tanh64Go: both forms, selected.
func tanh64(x reg.VecVirtual, tbl reg.GPVirtual) (ok, y reg.VecVirtual) {
	ax := YMM()
	op(VANDPD, VANDPD_BCST, k64(1<<63-1), x, ax)
	ok = YMM()
	op(VCMPPD, VCMPPD_BCST, Imm(cmpLT), kd(256), ax, ok)
	small := YMM()
	op(VCMPPD, VCMPPD_BCST, Imm(cmpLT), kd(0.625), ax, small)
	s := mul(x, x)
	p := add(kd(-9.92877231001918586564e1), mul(kd(-9.64399179425052238628e-1), s))
	p = add(kd(-1.61468768441708447952e3), mul(s, p))
	q := add(kd(1.12811678491632931402e2), s)
	q = add(kd(2.23548839060100448583e3), mul(s, q))
	q = add(kd(4.84406305325125486048e3), mul(s, q))
	ys := YMM()
	VDIVPD(q, mul(p, mul(x, s)), ys)
	ys = add(x, ys)
	_, e := exp64(add(ax, ax), tbl)
	qq := YMM()
	VDIVPD(add(kd(1), e), load(kd(2)), qq)
	yt := sub(load(kd(1)), qq)
	sg := YMM()
	op(VANDPD, VANDPD_BCST, k64(1<<63), x, sg)
	VORPD(sg, yt, yt)
	y = YMM()
	VBLENDVPD(small, ys, yt, y)
	return ok, y
}

// sigmoid64 is the fast path of sigmoid64Go.
func sigmoid64(x reg.VecVirtual, tbl reg.GPVirtual) (ok, y reg.VecVirtual) {
	ax := YMM()
	op(VANDPD, VANDPD_BCST, k64(1<<63-1), x, ax)
	ok = YMM()
	op(VCMPPD, VCMPPD_BCST, Imm(cmpLT), kd(512), ax, ok)
	nax := YMM()
	op(VXORPD, VXORPD_BCST, k64(1<<63), ax, nax)
	_, e := exp64(nax, tbl)
	num := YMM()
	VBLENDVPD(x, e, load(kd(1)), num)
	y = YMM()
	VDIVPD(add(kd(1), e), num, y)
	return ok, y
}
