package main

// This file writes the loops with a bool operand or result: comparisons
// (d []bool = x op y), where (d = c ? a : b) and bool-to-float casts. Each
// assembly loop runs over whole vectors only; its Go wrapper does the last
// len(d) mod lanes elements, as the Go loop would.

import (
	"bytes"
	"fmt"
)

// cmpOps are the comparisons, in table order, with their AVX predicate
// (VCMPP's imm8: src1 op src2, ordered except ne, which is true for NaN as
// Go's != is), and for integers the instruction that computes them (eq or
// gt), whether its operands are swapped and whether its mask is inverted.
var cmpOps = []struct {
	name, goOp string
	pred       int
	intGT      bool // integers: VPCMPGT, else VPCMPEQ
	intSwap    bool // integers: compare y with x
	intNot     bool // integers: the complement of the mask
}{
	{"eq", "==", 0x00, false, false, false},
	{"ne", "!=", 0x04, false, false, true},
	{"lt", "<", 0x01, true, true, false},
	{"le", "<=", 0x02, true, false, true},
	{"gt", ">", 0x0E, true, false, false},
	{"ge", ">=", 0x0D, true, true, true},
}

// cmpElems are the element types with comparison loops: the floats and
// the 64- and 32-bit signed integers (labels, indices).
var cmpElems = []elem{elems[0], elems[1], intElems[0], intElems[2]}

// cmpForms are the operand forms: both vectors, y a scalar, x a scalar.
var cmpForms = []struct {
	name   string
	scalar []bool
}{{"VV", []bool{false, false}}, {"VS", []bool{false, true}}, {"SV", []bool{true, false}}}

// boolGen writes one bool loop's assembly into buf.
type boolGen struct {
	buf bytes.Buffer
}

func (g *boolGen) p(format string, args ...any) { fmt.Fprintf(&g.buf, "\t"+format+"\n", args...) }

// spread is the PDEP mask that puts one bit per lane into one byte each.
func spread(lanes int) string {
	if lanes == 8 {
		return "$0x0101010101010101"
	}
	return "$0x01010101"
}

// operand loads operand i of a compare or where into Yr (a vector at
// ptr+AX*size, or the broadcast scalar, which the prologue put in Y15) and
// returns the register.
func (g *boolGen) operand(e elem, ptr string, scalar bool, r int) int {
	if scalar {
		return scalarR
	}
	g.p("VMOVDQU (%s)(AX*%d), Y%d", ptr, e.size, r)
	return r
}

// begin writes a loop function's header and loads d's pointer and length
// into DI and CX.
func (g *boolGen) begin(name, params string, size int) {
	fmt.Fprintf(&g.buf, "\n// func %s(%s)\n", name, params)
	fmt.Fprintf(&g.buf, "TEXT ·%s(SB), NOSPLIT, $0-%d\n", name, size)
	g.p("MOVQ d_base+0(FP), DI")
	g.p("MOVQ d_len+8(FP), CX")
}

// operands loads x and y as their frame offsets say: a slice's base into
// ptrs[i], a scalar broadcast into Y(bcast[i]).
func (g *boolGen) operands(e elem, offs []int, scalar []bool, ptrs []string, bcast []int) {
	for i, s := range scalar {
		if s {
			g.p("%s %s+%d(FP), Y%d", e.bcast, argNames[i], offs[i], bcast[i])
		} else {
			g.p("MOVQ %s_base+%d(FP), %s", argNames[i], offs[i], ptrs[i])
		}
	}
}

// loop opens the loop over d's vectors (none when d is empty).
func (g *boolGen) loop() {
	g.p("XORQ AX, AX")
	g.p("TESTQ CX, CX")
	g.p("JZ done")
	fmt.Fprintf(&g.buf, "loop:\n")
}

// next closes the loop after a vector of e's lanes and ends the function.
func (g *boolGen) next(e elem) {
	g.p("ADDQ $%d, AX", e.lanes)
	g.p("CMPQ AX, CX")
	g.p("JLT loop")
	fmt.Fprintf(&g.buf, "done:\n")
	g.p("VZEROUPPER")
	g.p("RET")
}

// compare writes d[i] = x[i] op y[i] for len(d) a multiple of e's lanes:
// per vector, the compare's mask (VMOVMSK: one bit per lane), deposited one
// bit per byte (PDEP), stored as lanes bools.
func (g *boolGen) compare(e elem, opIndex int, form int) {
	op, f := cmpOps[opIndex], cmpForms[form]
	name := cmpName(op.name, f.name, e) + "AVX2"
	offs, size := frame(kernel{scalar: f.scalar}, e)
	g.begin(name, cmpParams(f.scalar, e), size)
	g.operands(e, offs, f.scalar, []string{"SI", "DX"}, []int{scalarR, scalarR})
	g.p("MOVQ %s, R10", spread(e.lanes))
	g.loop()
	x := g.operand(e, "SI", f.scalar[0], 0)
	y := g.operand(e, "DX", f.scalar[1], 1)
	msk := "VMOVMSKPD"
	if e.size == 4 {
		msk = "VMOVMSKPS"
	}
	if e.integer {
		a, b := x, y
		if op.intSwap {
			a, b = y, x
		}
		ins := "VPCMPEQ"
		if op.intGT {
			ins = "VPCMPGT"
		}
		// Plan 9 order: VPCMPGTQ b, a, dst is dst = a > b.
		g.p("%s%s Y%d, Y%d, Y2", ins, e.shift, b, a)
	} else {
		// VCMPPD $p, y, x, dst is dst = x p y.
		g.p("VCMP%s $%d, Y%d, Y%d, Y2", e.packed, op.pred, y, x)
	}
	g.p("%s Y2, R9", msk)
	if e.integer && op.intNot {
		g.p("XORQ $%d, R9", 1<<e.lanes-1)
	}
	g.p("PDEPQ R10, R9, R9")
	if e.lanes == 8 {
		g.p("MOVQ R9, (DI)(AX*1)")
	} else {
		g.p("MOVL R9, (DI)(AX*1)")
	}
	g.next(e)
}

// where writes d[i] = c[i] ? x[i] : y[i] for len(d) a multiple of e's
// lanes: the bools widened to lanes (VPMOVZXB), shifted into the sign bit
// that VBLENDV reads.
func (g *boolGen) where(e elem, form int) {
	f := cmpForms[form]
	name := "where" + f.name + e.suffix + "AVX2"
	offs, size := whereFrame(f.scalar, e)
	g.begin(name, whereParams(f.scalar, e), size)
	g.p("MOVQ c_base+24(FP), BX")
	g.operands(e, offs, f.scalar, []string{"SI", "DX"}, []int{13, 14})
	g.loop()
	if e.size == 8 {
		g.p("VPMOVZXBQ (BX)(AX*1), Y0")
		g.p("VPSLLQ $63, Y0, Y0")
	} else {
		g.p("VPMOVZXBD (BX)(AX*1), Y0")
		g.p("VPSLLD $31, Y0, Y0")
	}
	xr, yr := 13, 14
	if !f.scalar[0] {
		g.p("VMOVUP%s (SI)(AX*%d), Y1", e.packed[1:], e.size)
		xr = 1
	}
	if !f.scalar[1] {
		g.p("VMOVUP%s (DX)(AX*%d), Y2", e.packed[1:], e.size)
		yr = 2
	}
	// VBLENDVPD mask, set, clear, dst: dst = mask ? set : clear.
	g.p("VBLENDVP%s Y0, Y%d, Y%d, Y3", e.packed[1:], xr, yr)
	g.p("VMOVUP%s Y3, (DI)(AX*%d)", e.packed[1:], e.size)
	g.next(e)
}

// boolsTo writes d[i] = 1 if c[i] else 0 for len(d) a multiple of e's
// lanes: the bools widened to int32 lanes, converted.
func (g *boolGen) boolsTo(e elem) {
	name := "boolsTo" + e.suffix + "AVX2"
	g.begin(name, "d []"+e.goType+", c []bool", 48)
	g.p("MOVQ c_base+24(FP), BX")
	g.loop()
	if e.size == 8 {
		g.p("VPMOVZXBD (BX)(AX*1), X0")
		g.p("VCVTDQ2PD X0, Y0")
	} else {
		g.p("VPMOVZXBD (BX)(AX*1), Y0")
		g.p("VCVTDQ2PS Y0, Y0")
	}
	g.p("VMOVUP%s Y0, (DI)(AX*%d)", e.packed[1:], e.size)
	g.next(e)
}

func cmpName(op, form string, e elem) string { return "cmp" + title(op) + form + e.suffix }

// cmpParams is a comparison's Go parameter list: d []bool, then x and y.
func cmpParams(scalar []bool, e elem) string {
	s := "d []bool"
	for i, sc := range scalar {
		if sc {
			s += ", " + argNames[i] + " " + e.goType
		} else {
			s += ", " + argNames[i] + " []" + e.goType
		}
	}
	return s
}

// whereParams is a where's Go parameter list: d, c []bool, then x and y.
func whereParams(scalar []bool, e elem) string {
	s := "d []" + e.goType + ", c []bool"
	for i, sc := range scalar {
		if sc {
			s += ", " + argNames[i] + " " + e.goType
		} else {
			s += ", " + argNames[i] + " []" + e.goType
		}
	}
	return s
}

// whereFrame is the argument layout of a where after d and c: x's and y's
// offsets.
func whereFrame(scalar []bool, e elem) (offs []int, size int) { return frameFrom(48, scalar, e) }

// boolAsm returns every bool loop's assembly.
func boolAsm() []byte {
	var g boolGen
	for _, e := range cmpElems {
		for oi := range cmpOps {
			for fi := range cmpForms {
				g.compare(e, oi, fi)
			}
		}
	}
	for _, e := range elems {
		for fi := range cmpForms {
			g.where(e, fi)
		}
		g.boolsTo(e)
	}
	return g.buf.Bytes()
}

// reslice writes a wrapper's reslicing of its vector operands x and y to
// d's length and returns the Go expressions of element i of each.
func reslice(b *bytes.Buffer, scalar []bool) (xi, yi string) {
	switch {
	case scalar[0]:
		b.WriteString("\ty = y[:len(d)]\n")
		return "x", "y[i]"
	case scalar[1]:
		b.WriteString("\tx = x[:len(d)]\n")
		return "x[i]", "y"
	}
	b.WriteString("\tx, y = x[:len(d)], y[:len(d)]\n")
	return "x[i]", "y[i]"
}

// boolGo returns the Go declarations, wrappers and tables of the bool
// loops.
func boolGo() []byte {
	var b bytes.Buffer
	for _, e := range cmpElems {
		for _, op := range cmpOps {
			for _, f := range cmpForms {
				name := cmpName(op.name, f.name, e)
				params := cmpParams(f.scalar, e)
				fmt.Fprintf(&b, "\n//go:noescape\nfunc %sAVX2(%s)\n", name, params)
				fmt.Fprintf(&b, "\nfunc %s(%s) {\n", name, params)
				xi, yi := reslice(&b, f.scalar)
				fmt.Fprintf(&b, "\tn := len(d) &^ %d\n", e.lanes-1)
				fmt.Fprintf(&b, "\t%sAVX2(d[:n], x, y)\n", name)
				fmt.Fprintf(&b, "\tfor i := n; i < len(d); i++ {\n\t\td[i] = %s %s %s\n\t}\n}\n", xi, op.goOp, yi)
			}
		}
		fmt.Fprintf(&b, "\nvar compare%s = [%d]Compare[%s]{\n", e.suffix, len(cmpOps), e.goType)
		for _, op := range cmpOps {
			fmt.Fprintf(&b, "\t%s: {%s, %s, %s},\n", title(op.name), cmpName(op.name, "VV", e), cmpName(op.name, "VS", e), cmpName(op.name, "SV", e))
		}
		b.WriteString("}\n")
	}
	for _, e := range elems {
		for _, f := range cmpForms {
			name := "where" + f.name + e.suffix
			params := whereParams(f.scalar, e)
			fmt.Fprintf(&b, "\n//go:noescape\nfunc %sAVX2(%s)\n", name, params)
			fmt.Fprintf(&b, "\nfunc %s(%s) {\n\tc = c[:len(d)]\n", name, params)
			xi, yi := reslice(&b, f.scalar)
			fmt.Fprintf(&b, "\tn := len(d) &^ %d\n", e.lanes-1)
			fmt.Fprintf(&b, "\t%sAVX2(d[:n], c, x, y)\n", name)
			fmt.Fprintf(&b, "\tfor i := n; i < len(d); i++ {\n\t\tif c[i] {\n\t\t\td[i] = %s\n\t\t} else {\n\t\t\td[i] = %s\n\t\t}\n\t}\n}\n", xi, yi)
		}
		fmt.Fprintf(&b, "\nvar where%s = Where[%s]{whereVV%s, whereVS%s, whereSV%s}\n", e.suffix, e.goType, e.suffix, e.suffix, e.suffix)
		name := "boolsTo" + e.suffix
		fmt.Fprintf(&b, "\n//go:noescape\nfunc %sAVX2(d []%s, c []bool)\n", name, e.goType)
		fmt.Fprintf(&b, "\nfunc %s(d []%s, c []bool) {\n\tc = c[:len(d)]\n\tn := len(d) &^ %d\n\t%sAVX2(d[:n], c)\n", name, e.goType, e.lanes-1, name)
		fmt.Fprintf(&b, "\tfor i := n; i < len(d); i++ {\n\t\td[i] = 0\n\t\tif c[i] {\n\t\t\td[i] = 1\n\t\t}\n\t}\n}\n")
	}
	return b.Bytes()
}
