// Command asmgen writes package simd's AVX2 loops (simd_amd64.s) and their
// Go declarations and lookup tables (simd_amd64.go). Every loop is one
// expression over up to three operands, each a vector or a broadcast scalar,
// evaluated with one packed instruction per op and no FMA, so each element
// is rounded exactly as a Go loop rounds it.
//
// Only loops that differ get assembly. A kernel of an unsigned type runs its
// signed twin's loop (add, sub and the low half of mul are the same bits for
// both), and a kernel that is another with a commutative op's operands
// exchanged runs that one's loop (see twinOf): its Go wrapper swaps the
// arguments, or its table entry names the other kernel.
//
// Run it with go generate in internal/simd.
package main

import (
	"bytes"
	"fmt"
	"log"
	"os"
	"strings"
)

func title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

var argNames = []string{"x", "y", "z"}

// frame is the ABI0 argument layout of a kernel: each operand's offset.
func frame(k kernel, e elem) (offs []int, size int) { return frameFrom(24, k.scalar, e) }

// frameFrom lays out operands (slices, or scalars where scalar says so)
// from offset off on: each one's offset, and the frame's size.
func frameFrom(off int, scalar []bool, e elem) (offs []int, size int) {
	for _, s := range scalar {
		if s {
			off = align(off, e.size)
			offs = append(offs, off)
			off += e.size
		} else {
			off = align(off, 8)
			offs = append(offs, off)
			off += 24
		}
	}
	return offs, off
}

func align(n, a int) int { return (n + a - 1) / a * a }

// Registers: d, then the vector operands' pointers; AX is the index, CX the
// length and BX a loop bound. Y0-Y11 hold up to three values for each of
// four unrolled vectors, Y13/Y14 the abs and neg masks (for sign: 1 and -1),
// Y12 zero (relu and sign) and Y15 the scalar.
var ptrRegs = []string{"SI", "DX", "R8"}

const (
	unroll  = 4
	maskAbs = 13
	maskNeg = 14
	scalarR = 15
	zeroR   = 12
	oneR    = maskAbs
	negOneR = maskNeg
)

type gen struct {
	// stream makes the function's unrolled loop store with
	// VMOVNTPD/VMOVNTPS (non-temporal: around the caches), whole cache
	// lines only (see function).
	stream bool
	// split makes load read each vector as two 16-byte halves (see load).
	split bool
	buf   bytes.Buffer
	e     elem
	k     kernel
	ptrs  []string // operand k's pointer register ("" for a scalar)
}

func (g *gen) p(format string, args ...any) { fmt.Fprintf(&g.buf, "\t"+format+"\n", args...) }

// eval emits the ops of n for unrolled vector u (or the scalar tail, when
// tail) and returns the register that holds the result. next allocates
// registers from u's bank of three.
func (g *gen) eval(n *node, u int, tail bool, next *int) int {
	if n.op == "" {
		if g.k.scalar[n.arg] {
			return scalarR
		}
		r := 3*u + *next
		*next++
		if tail {
			g.tailLoad(g.ptrs[n.arg], r)
		} // else step loaded it
		return r
	}
	regs := make([]int, len(n.kids))
	for i, kid := range n.kids {
		regs[i] = g.eval(kid, u, tail, next)
	}
	dst := -1
	for _, r := range regs {
		if r < 3*unroll {
			dst = r
			break
		}
	}
	if dst < 0 {
		dst = 3*u + *next
		*next++
	}
	reg := func(r int) string {
		if tail {
			return fmt.Sprintf("X%d", r)
		}
		return fmt.Sprintf("Y%d", r)
	}
	sfx := g.e.packed
	if tail {
		sfx = g.e.single
	}
	switch n.op {
	case "add", "sub", "mul":
		if g.e.integer {
			// On X registers in the tail too: lane 0 is the one stored.
			mnemonic := map[string]string{"add": "VPADD", "sub": "VPSUB", "mul": "VPMULL"}[n.op] + g.e.shift
			g.p("%s %s, %s, %s", mnemonic, reg(regs[1]), reg(regs[0]), reg(dst))
			break
		}
		fallthrough
	case "div":
		// Plan 9 order: VSUBPD b, a, dst is dst = a - b.
		g.p("V%s%s %s, %s, %s", strings.ToUpper(n.op), sfx, reg(regs[1]), reg(regs[0]), reg(dst))
	case "square":
		g.p("VMUL%s %s, %s, %s", sfx, reg(regs[0]), reg(regs[0]), reg(dst))
	case "sqrt":
		if tail {
			g.p("VSQRT%s %s, %s, %s", sfx, reg(regs[0]), reg(regs[0]), reg(dst))
		} else {
			g.p("VSQRT%s %s, %s", sfx, reg(regs[0]), reg(dst))
		}
	case "abs":
		g.p("VANDP%s %s, %s, %s", g.e.packed[1:], reg(maskAbs), reg(regs[0]), reg(dst))
	case "neg":
		g.p("VXORP%s %s, %s, %s", g.e.packed[1:], reg(maskNeg), reg(regs[0]), reg(dst))
	case "relu":
		// VMAXP's first source is zero: 0 > x ? 0 : x gives x for NaN (as
		// reluNaN does) and -0 for -0, which adding +0 turns into +0.
		g.p("VMAXP%s %s, %s, %s", g.e.packed[1:], reg(regs[0]), reg(zeroR), reg(dst))
		g.p("VADDP%s %s, %s, %s", g.e.packed[1:], reg(zeroR), reg(dst), reg(dst))
	case "sign":
		// (0 < x) & 1 | (x < 0) & -1 | unordered(x, x) & x: 1, -1, 0 for
		// ±0 and NaN for NaN, as signNaN. Two temporaries from the bank.
		t1, t2 := 3*u+*next, 3*u+*next+1
		*next += 2
		p := g.e.packed[1:]
		g.p("VCMPP%s $1, %s, %s, %s", p, reg(regs[0]), reg(zeroR), reg(t1)) // 0 < x
		g.p("VANDP%s %s, %s, %s", p, reg(oneR), reg(t1), reg(t1))
		g.p("VCMPP%s $1, %s, %s, %s", p, reg(zeroR), reg(regs[0]), reg(t2)) // x < 0
		g.p("VANDP%s %s, %s, %s", p, reg(negOneR), reg(t2), reg(t2))
		g.p("VORP%s %s, %s, %s", p, reg(t2), reg(t1), reg(t1))
		g.p("VCMPP%s $3, %s, %s, %s", p, reg(regs[0]), reg(regs[0]), reg(t2)) // unordered: NaN
		g.p("VANDP%s %s, %s, %s", p, reg(regs[0]), reg(t2), reg(t2))
		g.p("VORP%s %s, %s, %s", p, reg(t2), reg(t1), reg(dst))
	case "copy":
		// Stores its operand's register as loaded: dst is that register.
	default:
		log.Fatalf("asmgen: unknown op %q", n.op)
	}
	return dst
}

// step emits one loop body: unrolled vectors (or one scalar element), their
// stores, and the index increment.
func (g *gen) step(vectors int, tail bool) {
	if !tail {
		// Load each operand's vectors together, operand by operand; eval
		// finds leaf j of vector u in register 3u+j.
		for j, arg := range vectorLeaves(g.k.body, g.k.scalar) {
			for u := range vectors {
				g.load(32*u, g.ptrs[arg], 3*u+j)
			}
		}
	}
	res := make([]int, vectors)
	for u := range vectors {
		next := 0
		res[u] = g.eval(g.k.body, u, tail, &next)
	}
	for u, r := range res {
		switch {
		case tail:
			g.tailStore(r)
		case g.stream:
			g.p("VMOVNTP%s Y%d, %d(DI)(AX*%d)", g.e.packed[1:], r, 32*u, g.e.size)
		default:
			g.p("VMOVUP%s Y%d, %d(DI)(AX*%d)", g.e.packed[1:], r, 32*u, g.e.size)
		}
	}
	if tail {
		g.p("INCQ AX")
	} else {
		g.p("ADDQ $%d, AX", vectors*g.e.lanes)
	}
}

// load emits the load of one vector from off(ptr)(AX*size) into Yr: one
// 32-byte load, or with g.split two 16-byte loads.
//
// Which is faster depends on the CPU, so every function has its unrolled
// loop in both forms and runs the one splitLoads chooses. On an AMD EPYC,
// 1e7-element float64 a+b with two goroutines ran 10-20% slower with
// whole 32-byte loads than with split ones, whether or not its stores were
// split, and lost to gonum's SSE2 loop; with the loads split it matched it.
// On an Intel Xeon (AVX-512, arrays in its last-level cache) the split
// loads were the slower: in place a += b over 1e7 float64 took 1.28x as
// long, and W1, W2, W3 and sum(x, 0) 1.1-1.16x.
func (g *gen) load(off int, ptr string, r int) {
	if !g.split {
		g.p("VMOVUP%s %d(%s)(AX*%d), Y%d", g.e.packed[1:], off, ptr, g.e.size, r)
		return
	}
	g.p("VMOVUP%s %d(%s)(AX*%d), X%d", g.e.packed[1:], off, ptr, g.e.size, r)
	g.p("VINSERTF128 $1, %d(%s)(AX*%d), Y%d, Y%d", off+16, ptr, g.e.size, r, r)
}

// tailLoad emits the load of one element from (ptr)(AX*size) into lane 0
// of Xr: VMOVSD or VMOVSS, or for 8- and 16-bit elements VPINSRB or
// VPINSRW (the other lanes keep what they held; only lane 0 is stored).
func (g *gen) tailLoad(ptr string, r int) {
	if g.e.size < 4 {
		g.p("VPINSR%s $0, (%s)(AX*%d), X%d, X%d", g.e.shift, ptr, g.e.size, r, r)
		return
	}
	g.p("VMOVS%s (%s)(AX*%d), X%d", g.e.single[1:], ptr, g.e.size, r)
}

// tailStore emits the store of lane 0 of Xr to (DI)(AX*size).
func (g *gen) tailStore(r int) {
	if g.e.size < 4 {
		g.p("VPEXTR%s $0, X%d, (DI)(AX*%d)", g.e.shift, r, g.e.size)
		return
	}
	g.p("VMOVS%s X%d, (DI)(AX*%d)", g.e.single[1:], r, g.e.size)
}

// vectorLeaves lists the vector operands of n in evaluation order.
func vectorLeaves(n *node, scalar []bool) []int {
	if n.op == "" {
		if scalar[n.arg] {
			return nil
		}
		return []int{n.arg}
	}
	var out []int
	for _, k := range n.kids {
		out = append(out, vectorLeaves(k, scalar)...)
	}
	return out
}

func uses(n *node, op string) bool {
	if n.op == op {
		return true
	}
	for _, k := range n.kids {
		if uses(k, op) {
			return true
		}
	}
	return false
}

// asmName is the assembly function of kernel k for e.
func asmName(k kernel, e elem, stream bool) string {
	if stream {
		return k.name + e.suffix + "StreamAVX2"
	}
	return k.name + e.suffix + "AVX2"
}

func (g *gen) function() {
	e, k := g.e, g.k
	offs, size := frame(k, e)
	name := asmName(k, e, g.stream)
	fmt.Fprintf(&g.buf, "\n// func %s(%s)\n", name, goParams(k, e))
	fmt.Fprintf(&g.buf, "TEXT ·%s(SB), NOSPLIT, $0-%d\n", name, size)
	g.p("MOVQ d_base+0(FP), DI")
	g.p("MOVQ d_len+8(FP), CX")
	g.ptrs = make([]string, len(k.scalar))
	np := 0
	for i, s := range k.scalar {
		if s {
			g.p("%s %s+%d(FP), Y%d", e.bcast, argNames[i], offs[i], scalarR)
			continue
		}
		g.ptrs[i] = ptrRegs[np]
		np++
		g.p("MOVQ %s_base+%d(FP), %s", argNames[i], offs[i], g.ptrs[i])
	}
	if uses(k.body, "abs") || uses(k.body, "neg") {
		g.p("VPCMPEQ%s Y%d, Y%d, Y%d", e.shift, maskAbs, maskAbs, maskAbs) // all ones
		if uses(k.body, "neg") {
			g.p("VPSLL%s $%d, Y%d, Y%d", e.shift, e.width-1, maskAbs, maskNeg) // sign bits
		}
		if uses(k.body, "abs") {
			g.p("VPSRL%s $1, Y%d, Y%d", e.shift, maskAbs, maskAbs) // all but the sign
		}
	}
	if uses(k.body, "relu") || uses(k.body, "sign") {
		g.p("VXORP%s Y%d, Y%d, Y%d", e.packed[1:], zeroR, zeroR, zeroR)
	}
	if uses(k.body, "sign") {
		// 1.0: all ones shifted right to the exponent's bias, then left
		// into the exponent field; -1.0 is 0 - 1.
		mant := map[int]int{32: 23, 64: 52}[e.width]
		g.p("VPCMPEQ%s Y%d, Y%d, Y%d", e.shift, oneR, oneR, oneR)
		g.p("VPSRL%s $%d, Y%d, Y%d", e.shift, mant+2, oneR, oneR)
		g.p("VPSLL%s $%d, Y%d, Y%d", e.shift, mant, oneR, oneR)
		g.p("VSUBP%s Y%d, Y%d, Y%d", e.packed[1:], oneR, zeroR, negOneR)
	}
	g.p("XORQ AX, AX")
	stream := g.stream
	if stream {
		// Scalar steps until d+AX is 64-byte aligned, so that the
		// non-temporal stores (which need 32) fill whole cache lines, and
		// the rest after the unrolled loop's last whole step (two lines)
		// stores through the cache. A
		// line written partly around the cache and partly through it, or
		// by two non-temporal runs (a row's end and the next row's start,
		// in rows of [3162,1]*[1,3162] float64), made W7 1.16x slower.
		fmt.Fprintf(&g.buf, "peel:\n")
		g.p("CMPQ AX, CX")
		g.p("JGE done")
		g.p("LEAQ (DI)(AX*%d), R9", e.size)
		g.p("TESTQ $63, R9")
		g.p("JZ aligned")
		g.step(1, true)
		g.p("JMP peel")
		fmt.Fprintf(&g.buf, "aligned:\n")
	}
	// The unrolled loop in both load forms (see load), then the rest with
	// whole loads.
	g.p("CMPB ·splitLoads(SB), $0")
	g.p("JNE split")
	g.vectorLoop("loop", "one", unroll)
	g.p("JMP one")
	fmt.Fprintf(&g.buf, "split:\n")
	g.split = true
	g.vectorLoop("loops", "one", unroll)
	g.split = false
	fmt.Fprintf(&g.buf, "one:\n")
	g.stream = false
	g.vectorLoop("loop1", "tail", 1)
	fmt.Fprintf(&g.buf, "tail:\n")
	g.p("CMPQ AX, CX")
	g.p("JGE done")
	fmt.Fprintf(&g.buf, "loopt:\n")
	g.step(1, true)
	g.p("CMPQ AX, CX")
	g.p("JLT loopt")
	fmt.Fprintf(&g.buf, "done:\n")
	g.p("VZEROUPPER")
	g.p("RET")
	g.stream = stream
}

// vectorLoop emits a loop of steps of the given number of vectors, which
// jumps to next when fewer elements than a step are left. BX is the last
// index at which a whole step fits (signed: negative when none does).
func (g *gen) vectorLoop(label, next string, vectors int) {
	g.p("MOVQ CX, BX")
	g.p("SUBQ $%d, BX", vectors*g.e.lanes)
	g.p("CMPQ AX, BX")
	g.p("JGT %s", next)
	fmt.Fprintf(&g.buf, "%s:\n", label)
	g.step(vectors, false)
	g.p("CMPQ AX, BX")
	g.p("JLE %s", label)
}

// checkRegisters reports a kernel that needs more vector registers than a
// bank holds: each unrolled vector has three (Y0-Y11), so a kernel may read
// at most three vector operands, and its ops write over their operands.
func checkRegisters(k kernel) error {
	if uses(k.body, "sign") && (uses(k.body, "abs") || uses(k.body, "neg")) {
		return fmt.Errorf("asmgen: kernel %s: sign's constants live in abs's and neg's mask registers", k.name)
	}
	if uses(k.body, "sign") && len(vectorLeaves(k.body, k.scalar)) > 1 {
		return fmt.Errorf("asmgen: kernel %s: sign takes two of the bank's three registers", k.name)
	}
	if n := len(vectorLeaves(k.body, k.scalar)); n > 3 {
		return fmt.Errorf("asmgen: kernel %s reads %d vector operands; a register bank holds 3", k.name, n)
	}
	return nil
}

// generate returns the assembly and the Go file.
func generate() (asm, goSrc []byte) {
	ks := kernels()
	var s bytes.Buffer
	s.WriteString("// Code generated by asmgen (go generate); DO NOT EDIT.\n\n//go:build amd64 && !purego\n\n#include \"textflag.h\"\n")
	emit := func(ks []kernel, e elem) {
		for _, stream := range []bool{false, true} {
			for _, k := range ks {
				if _, _, own := twinOf(ks, k, e); !own {
					continue
				}
				if err := checkRegisters(k); err != nil {
					log.Fatal(err)
				}
				g := &gen{e: e, k: k, stream: stream}
				g.function()
				s.Write(g.buf.Bytes())
			}
		}
	}
	for _, e := range elems {
		emit(ks, e)
	}
	for _, e := range intElems {
		emit(intKernels(e), e)
	}
	s.Write(boolAsm())
	s.WriteString(`
// func Fence()
TEXT ·Fence(SB), NOSPLIT, $0-0
	SFENCE
	RET
`)
	return s.Bytes(), goFile(ks)
}

func main() {
	asm, goSrc := generate()
	if err := os.WriteFile("simd_amd64.s", asm, 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile("simd_amd64.go", goSrc, 0o644); err != nil {
		log.Fatal(err)
	}
}
