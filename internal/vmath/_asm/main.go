// Command _asm generates internal/vmath's AVX2 loops with avo.
//
// It is its own module, so that the main module does not depend on avo. Run
// it with go generate in internal/vmath, which runs:
//
//	cd _asm && go run . -out ../vec_amd64.s -stubs ../vec_amd64.go -pkg vmath
//
// Each loop is the fast path of a Go loop of package vmath (exp32Fast1,
// log32Fast1, trig32Fast1), operation for operation in eight float32 lanes:
// every multiply and add rounded on its own, as the Go code's conversions
// force, so that the bits are the same. A loop takes groups of eight from
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
	loop32("log32AVX2", "log32Fast1", log32)
	loop32("sin32AVX2", "trig32Fast1(x, 0)", func(x reg.VecVirtual) (reg.VecVirtual, reg.VecVirtual) { return trig32(x, 0) })
	loop32("cos32AVX2", "trig32Fast1(x, 1)", func(x reg.VecVirtual) (reg.VecVirtual, reg.VecVirtual) { return trig32(x, 1) })
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

// Constants: 32 bytes of one 32-bit value, for memory operands.
var consts = map[uint32]Mem{}

func k32(bits uint32) Mem {
	if m, ok := consts[bits]; ok {
		return m
	}
	m := GLOBL(fmt.Sprintf("c32_%08x", bits), RODATA|NOPTR)
	for l := 0; l < 8; l++ {
		DATA(4*l, U32(bits))
	}
	consts[bits] = m
	return m
}

func kf(v float32) Mem { return k32(math.Float32bits(v)) }

// The operations of the Go code, each on new registers.
func mul(a Op, b reg.VecVirtual) reg.VecVirtual { d := YMM(); VMULPS(a, b, d); return d }
func add(a Op, b reg.VecVirtual) reg.VecVirtual { d := YMM(); VADDPS(a, b, d); return d }

// sub is a - b.
func sub(a reg.VecVirtual, b Op) reg.VecVirtual { d := YMM(); VSUBPS(b, a, d); return d }
func load(m Mem) reg.VecVirtual                 { d := YMM(); VMOVUPS(m, d); return d }

// horner is ((c0*x + c1)*x + c2)... with every step rounded.
func horner(x reg.VecVirtual, cs ...float32) reg.VecVirtual {
	p := mul(kf(cs[0]), x)
	p = add(kf(cs[1]), p)
	for _, c := range cs[2:] {
		p = add(kf(c), mul(x, p))
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
	VANDPS(absMask(), x, ax)
	ok = YMM()
	VCMPPS(Imm(cmpLT), kf(86.5), ax, ok)
	kd := add(kf(0x1.8p23), mul(kf(0x1.715476p+00), x))
	ki := kd
	kd = sub(kd, kf(0x1.8p23))
	rhi := sub(x, mul(kf(0x1.62e4p-01), kd))
	rlo := YMM()
	VXORPS(k32(0x80000000), mul(kf(0x1.7f7d1cp-20), kd), rlo)
	r := add(rhi, rlo)
	z := mul(r, r)
	p := horner(r, 1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1)
	y = add(kf(1), add(rhi, add(rlo, mul(p, z))))
	VPSLLD(Imm(23), ki, ki)
	VPADDD(ki, y, y)
	return ok, y
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
	ax := YMM()
	VANDPS(absMask(), x, ax)
	ok = YMM()
	VCMPPS(Imm(cmpLT), kf(6000), ax, ok)
	nz := YMM()
	VCMPPS(Imm(cmpGT), k32(0), ax, nz)
	VANDPS(nz, ok, ok)
	jd := add(kf(0x1.8p23), mul(kf(0x1.45f306p-01), x))
	j := jd
	if q != 0 {
		j = YMM()
		VPADDD(k32(q), jd, j)
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
	s := horner(z, -1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1)
	s = add(rhi, add(rlo, mul(s, mul(rhi, z))))
	c := horner(z, 2.443315711809948e-5, -1.388731625493765e-3, 4.166664568298827e-2)
	hz := mul(kf(0.5), z)
	one := load(kf(1))
	w := sub(one, hz)
	e := sub(sub(one, w), hz)
	c = add(w, add(e, sub(mul(c, mul(z, z)), mul(rhi, rlo))))
	sel := YMM()
	VPSLLD(Imm(31), j, sel)
	r := YMM()
	VBLENDVPS(sel, c, s, r)
	sg := YMM()
	VPAND(k32(2), j, sg)
	VPSLLD(Imm(30), sg, sg)
	VPXOR(sg, r, r)
	return ok, r
}
