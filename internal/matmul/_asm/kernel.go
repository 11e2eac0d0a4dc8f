// Command _asm generates internal/matmul's AVX2+FMA and AVX-512F
// micro-kernels with avo.
//
// It is its own module, so that the main module does not depend on avo. Run
// it with go generate in internal/matmul, which runs:
//
//	cd _asm && go run . -out ../kernel_amd64.s -stubs ../kernel_amd64.go -pkg matmul
//
// Each kernel is the reference loop of goKernel64 or goKernel32 in
// kernel.go: an mr×nr block of C from an mr-row panel of packed A and an
// nr-column panel of packed B, with mr×nr/lanes YMM accumulators (ZMM for
// the AVX-512 kernels, whose NR is twice the reference loop's: each
// element of C is still one lane, summed in the same order).
package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// elem is an element type and the AVX instructions that handle it.
type elem struct {
	name      string              // Go type
	size      int                 // bytes
	broadcast func(...operand.Op) // mem, y: y = mem in every lane
	fma       func(...operand.Op) // b, a, acc: acc += a*b, rounded once
	add       func(...operand.Op) // x, y, z: z = x + y
	move      func(...operand.Op) // src, dst
	fmaBcst   func(...operand.Op) // mem, b, acc: acc += b*mem in every lane, rounded once (AVX-512)
}

var (
	f64 = elem{"float64", 8, VBROADCASTSD, VFMADD231PD, VADDPD, VMOVUPD, VFMADD231PD_BCST}
	f32 = elem{"float32", 4, VBROADCASTSS, VFMADD231PS, VADDPS, VMOVUPS, VFMADD231PS_BCST}
)

// mr is the number of rows of every kernel; each row of C is two YMM
// registers wide, so the 12 accumulators, two registers of B and one
// broadcast of A use 15 of the 16 YMM registers.
const (
	mr     = 6
	cols   = 2 // YMM registers per row of C
	unroll = 4 // steps of k per pass of the main loop
)

func main() {
	ConstraintExpr("!purego")
	kernel(f64, packedA, cols)
	kernel(f32, packedA, cols)
	kernel(f64, rowsA, cols)
	kernel(f32, rowsA, cols)
	kernel(f64, packedA, 1)
	kernel(f32, packedA, 1)
	kernel(f64, rowsA, 1)
	kernel(f32, rowsA, 1)
	for _, width := range []int{cols, 1} {
		for _, layout := range []aLayout{packedA, rowsA} {
			kernel512(f64, layout, width)
			kernel512(f32, layout, width)
		}
	}
	kernelRows12(f64)
	kernelRows12(f32)
	kernelRowsCols(f64)
	kernelRowsCols(f32)
	gemv(f64)
	gemv(f32)
	gemvColumns(f64)
	gemvColumns(f32)
	packRows(f64)
	packRows(f32)
	packColumns(f64)
	packColumns(f32)
	packTail(f64)
	packTail(f32)
	packRowsWide(f64)
	packRowsWide(f32)
	packTailWide(f64)
	packTailWide(f32)
	Generate()
}

// aLayout is how a kernel reads A: packed (a[p*mr+i], as packA writes it)
// or in place, row after row (a[i*lda+p], a row-major operand).
type aLayout int

const (
	packedA aLayout = iota
	rowsA
)

// kernel emits avxKernel32 or avxKernel64 (packed A), or avxKernelRows32 or
// avxKernelRows64 (A in place), for e: NR = 2 YMM registers of e's lanes.
// With width 1 (in place of cols) it emits the half kernels,
// avxKernelHalf32 and so on: the same loop on the first YMM register of
// each row of B's panel (still NR wide) only, writing NR/2 columns of C,
// for a last panel of B at most half full.
func kernel(e elem, layout aLayout, width int) {
	kernelOf(e, layout, width, ymm)
}

// kernel512 emits the AVX-512 kernels, avx512Kernel64 and so on: the
// loops of kernel with ZMM registers, NR = 2 ZMM registers of e's lanes
// (16 float64, 32 float32), the half kernels on the first ZMM register.
func kernel512(e elem, layout aLayout, width int) {
	kernelOf(e, layout, width, zmm)
}

// vector is a register width: its bytes, its kernels' name prefix and
// instruction set, and how to allocate and zero a register.
type vector struct {
	bytes  int
	prefix string
	isa    string
	alloc  func() reg.VecVirtual
	zero   func(reg.VecVirtual)
}

var (
	ymm = vector{32, "avx", "AVX2+FMA", YMM, func(r reg.VecVirtual) { VXORPS(r, r, r) }}
	zmm = vector{64, "avx512", "AVX-512F", ZMM, func(r reg.VecVirtual) { VPXORD(r, r, r) }}
)

// ref is the name of the Go loop a kernel of v computes, go plus its
// base: goKernel64 for the YMM kernels, the same loop at twice its NR
// for the ZMM ones.
func (v vector) ref(base string, nr int) string {
	if v.bytes == 32 {
		return base
	}
	return fmt.Sprintf("%s's loop at NR = %d", base, nr)
}

// kernelRows12 emits avx512KernelRows12Half64 and avx512KernelRows12Half32:
// avx512KernelRowsHalf on two blocks of rows at once, 12 rows of A read in
// place. A half kernel has one multiply-add per row and step of k, so its
// 6 chains wait on one another's latency (4 cycles, against 2
// multiply-adds a cycle); 12 chains keep the units busy. Each element is
// summed as the 6-row kernel sums it: the same bits.
func kernelRows12(e elem) {
	kernelOfRows(e, rowsA, 1, zmm, 2*mr, "Rows12")
}

func kernelOf(e elem, layout aLayout, width int, v vector) {
	kernelOfRows(e, layout, width, v, mr, "Rows")
}

// kernelOfRows is kernelOf for blocks of rows rows, the rows kernels named
// v.prefix + "Kernel" + rowsName (+ "Half") + bits.
func kernelOfRows(e elem, layout aLayout, width int, v vector, rows int, rowsName string) {
	lanes := v.bytes / e.size
	nr := cols * lanes
	bits := e.name[len("float"):]
	half, ref, written := "", "", nr
	if width < cols {
		half, ref, written = "Half", " on its first "+fmt.Sprint(width*lanes)+" columns", width*lanes
	}
	if layout == packedA {
		name := v.prefix + "Kernel" + half + bits
		TEXT(name, NOSPLIT, fmt.Sprintf("func(k int, a, b, c []%s, ldc int, add bool)", e.name))
		Doc(fmt.Sprintf("%s is %s%s in "+v.isa+", on %d×%d blocks: c[i*ldc+j] (+)= Σ_p a[p*%d+i]·b[p*%d+j],", name, v.ref("goKernel"+bits, nr), ref, mr, written, mr, nr),
			"with the products summed by fused multiply-adds in order of p from zero; add selects c += rather than c =.",
			fmt.Sprintf("len(a) >= k*%d, len(b) >= k*%d and c holds %d rows of %d at stride ldc: the caller's.", mr, nr, mr, written))
		pa := Load(Param("a").Base(), GP64())
		body(e, v, name, width, mr, func(u, i int) Mem { return Mem{Base: pa, Disp: (u*mr + i) * e.size} },
			func(steps int) { ADDQ(U32(steps*mr*e.size), pa) },
			func(u int) Mem { return Mem{Base: pa, Disp: prefetchA + u*mr*e.size} }, nil)
		return
	}
	name := v.prefix + "Kernel" + rowsName + half + bits
	TEXT(name, NOSPLIT, fmt.Sprintf("func(k int, a []%s, lda int, b, c []%s, ldc int, add bool)", e.name, e.name))
	Doc(fmt.Sprintf("%s is %s%s in "+v.isa+", on %d×%d blocks: c[i*ldc+j] (+)= Σ_p a[i*lda+p]·b[p*%d+j],", name, v.ref("goKernelRows"+bits, nr), ref, rows, written, nr),
		"with the products summed by fused multiply-adds in order of p from zero; add selects c += rather than c =.",
		fmt.Sprintf("a holds %d rows of k at stride lda, len(b) >= k*%d and c holds %d rows of %d at stride ldc: the caller's.", rows, nr, rows, written))
	aAt, advanceA := rowsOfA(e, rows)
	body(e, v, name, width, rows, aAt, advanceA, nil, nil)
}

// rowsOfA loads A's parameters for a kernel that reads rows rows of A in
// place and returns body's aAt and advanceA for them: rows 3q to 3q+2
// from bases[q], each plus 0, 1 or 2 lda.
func rowsOfA(e elem, rows int) (func(u, i int) Mem, func(steps int)) {
	bases := []reg.Register{Load(Param("a").Base(), GP64())}
	lda := Load(Param("lda"), GP64())
	SHLQ(U8(log2(e.size)), lda)
	lda3 := GP64()
	LEAQ(Mem{Base: lda, Index: lda, Scale: 2}, lda3)
	for len(bases) < rows/3 {
		b := GP64()
		LEAQ(Mem{Base: bases[len(bases)-1], Index: lda3, Scale: 1}, b)
		bases = append(bases, b)
	}
	return func(u, i int) Mem {
			m := Mem{Base: bases[i/3], Disp: u * e.size}
			if i%3 > 0 {
				m.Index, m.Scale = lda, uint8(i%3)
			}
			return m
		}, func(steps int) {
			for _, b := range bases {
				ADDQ(U32(steps*e.size), b)
			}
		}
}

// kernelRowsCols emits avx512KernelRowsCols64 and avx512KernelRowsCols32:
// avx512KernelRows on the first cols columns of the block only, for
// NR/2 <= cols <= NR, with B's rows ldb apart. The second ZMM register of
// each row holds columns cols-NR/2 to cols-1 rather than NR/2 to NR-1, so
// every load and store is of columns below cols: b may be a row-major
// operand read in place and c a partial block at the result's right edge,
// written in place rather than through a tile. The columns both registers
// hold are computed twice, by the same operations (the same bits), and
// with add, both registers' columns of C are read before either is
// written. Masked moves would do the same with no overlap, but a masked
// move whose masked-off lanes reach into an unmapped page costs a
// microcode assist on AMD's cores (measured: [64,128]@[128,10] float64
// 2.8 against 4.6 µs when b's last row ends at a page end).
func kernelRowsCols(e elem) {
	lanes := zmm.bytes / e.size
	nr := cols * lanes
	bits := e.name[len("float"):]
	name := "avx512KernelRowsCols" + bits
	TEXT(name, NOSPLIT, fmt.Sprintf("func(k int, a []%s, lda int, b []%s, ldb int, c []%s, ldc int, add bool, cols int)", e.name, e.name, e.name))
	Doc(fmt.Sprintf("%s is goKernelRowsCols%s at NR = %d in AVX-512F, on %d×cols blocks: c[i*ldc+j] (+)= Σ_p a[i*lda+p]·b[p*ldb+j] for j < cols,", name, bits, nr, mr),
		"with the products summed by fused multiply-adds in order of p from zero; add selects c += rather than c =.",
		fmt.Sprintf("%d <= cols <= %d; a holds %d rows of k at stride lda, b k rows of cols at stride ldb and c %d rows of cols at stride ldc: the caller's.", lanes, nr, mr, mr))
	aAt, advanceA := rowsOfA(e, mr)
	ed := &edge{ldb: Load(Param("ldb"), GP64()), ldb3: GP64(), off: Load(Param("cols"), GP64())}
	SHLQ(U8(log2(e.size)), ed.ldb)
	LEAQ(Mem{Base: ed.ldb, Index: ed.ldb, Scale: 2}, ed.ldb3)
	SUBQ(U8(lanes), ed.off)
	SHLQ(U8(log2(e.size)), ed.off)
	body(e, zmm, name, cols, mr, aAt, advanceA, nil, ed)
}

// edge is how kernelRowsCols's kernels read B and C: B's rows ldb bytes
// apart (ldb3 is 3·ldb), and the second register of each row off bytes
// past its first.
type edge struct {
	ldb, ldb3, off reg.Register
}

// prefetchA is how far ahead of its position in a packed panel of A the
// kernels prefetch, in bytes: some 10 steps of k for float64, 20 for
// float32, ahead of the hardware's own prefetch from L2.
const prefetchA = 512

// body emits the loop and write-back of a kernel of mr rows whose element
// (i, p) of A, at step u past the current position, is aAt(u, i); advanceA moves A on by
// steps steps of k; prefetch, if not nil, is the address to prefetch at
// step u of the unrolled loop. Each row of C is width YMM registers of the
// NR = cols registers of each row of B's panel. With ed not nil, B's rows
// are ed.ldb apart and the second register of each row of B and C is
// ed.off bytes past its first (see kernelRowsCols).
func body(e elem, v vector, name string, width, mr int, aAt func(u, i int) Mem, advanceA func(steps int), prefetch func(u int) Mem, ed *edge) {
	lanes := v.bytes / e.size
	nr := cols * lanes
	k := Load(Param("k"), GP64())
	pb := Load(Param("b").Base(), GP64())
	pc := Load(Param("c").Base(), GP64())
	ldc := Load(Param("ldc"), GP64())
	SHLQ(U8(log2(e.size)), ldc)

	Comment("Prefetch the block of C, read or written after the loop:",
		"a block of a large product is in L3 or memory, and the loop",
		"gives the lines time to arrive.")
	row := GP64()
	MOVQ(pc, row)
	for i := range mr {
		PREFETCHT0(Mem{Base: row})
		PREFETCHT0(Mem{Base: row, Disp: width*lanes*e.size - 1})
		if i < mr-1 {
			ADDQ(ldc, row)
		}
	}

	acc := make([][]reg.VecVirtual, mr)
	for i := range acc {
		acc[i] = make([]reg.VecVirtual, width)
		for j := range acc[i] {
			acc[i][j] = v.alloc()
			v.zero(acc[i][j])
		}
	}
	bv := make([]reg.VecVirtual, width)
	for j := range bv {
		bv[j] = v.alloc()
	}
	av := v.alloc()

	// step emits one step of k, at element offset u of the panels. The
	// AVX-512 half kernels take each element of A as an embedded
	// broadcast of its multiply-add: with one multiply-add per row, a
	// separate broadcast per row cost them a third of their speed
	// (2.5 against 3.7 µs for the 11 blocks of [64,128]@[128,10]
	// float32, thread CPU time); the whole kernels, two multiply-adds
	// per broadcast, measured the same either way.
	// With ed, the second register of each row of B is read from pb2.
	var pb2 reg.Register
	if ed != nil {
		pb2 = GP64()
		LEAQ(Mem{Base: pb, Index: ed.off, Scale: 1}, pb2)
	}
	bAt := func(u, j int) Mem {
		if ed == nil {
			return Mem{Base: pb, Disp: (u*nr + j*lanes) * e.size}
		}
		m := Mem{Base: pb}
		if j > 0 {
			m.Base = pb2
		}
		switch u {
		case 0:
		case 1, 2:
			m.Index, m.Scale = ed.ldb, uint8(u)
		case 3:
			m.Index, m.Scale = ed.ldb3, 1
		default: // rows 0 to 3 past pb are all an index reaches
			panic(fmt.Sprintf("%s: step %d of an unroll of %d", name, u, unroll))
		}
		return m
	}
	advanceB := func(steps int) {
		if ed == nil {
			ADDQ(U32(steps*nr*e.size), pb)
			return
		}
		for _, p := range []reg.Register{pb, pb2} {
			if steps == 1 {
				ADDQ(ed.ldb, p)
			} else {
				LEAQ(Mem{Base: p, Index: ed.ldb, Scale: uint8(steps)}, p)
			}
		}
	}
	// cAt is register j of the row of C at base.
	cAt := func(base reg.Register, j int) Mem {
		if ed != nil && j > 0 {
			return Mem{Base: base, Index: ed.off, Scale: 1}
		}
		return Mem{Base: base, Disp: j * v.bytes}
	}
	step := func(u int) {
		for j := range bv {
			e.move(bAt(u, j), bv[j])
		}
		for i := range acc {
			if v.bytes == 64 && width == 1 {
				for j := range bv {
					e.fmaBcst(aAt(u, i), bv[j], acc[i][j])
				}
				continue
			}
			e.broadcast(aAt(u, i), av)
			for j := range bv {
				e.fma(bv[j], av, acc[i][j])
			}
		}
	}

	Comment("Main loop: unroll steps of k per pass.")
	Label(name + "_unrolled")
	CMPQ(k, U8(unroll))
	JL(LabelRef(name + "_tail"))
	for u := range unroll {
		if prefetch != nil && (u*mr*e.size)%64 < mr*e.size {
			// One prefetch per cache line of A the pass reads.
			PREFETCHT0(prefetch(u))
		}
		step(u)
	}
	advanceA(unroll)
	advanceB(unroll)
	SUBQ(U8(unroll), k)
	JMP(LabelRef(name + "_unrolled"))

	Label(name + "_tail")
	TESTQ(k, k)
	JZ(LabelRef(name + "_write"))
	step(0)
	advanceA(1)
	advanceB(1)
	DECQ(k)
	JMP(LabelRef(name + "_tail"))

	Label(name + "_write")
	add := Load(Param("add"), GP8())
	TESTB(add, add)
	JZ(LabelRef(name + "_store"))
	Comment("c += acc")
	MOVQ(pc, row)
	for i := range acc {
		for j := range acc[i] {
			e.add(cAt(row, j), acc[i][j], acc[i][j])
		}
		if i < mr-1 {
			ADDQ(ldc, row)
		}
	}

	Label(name + "_store")
	for i := range acc {
		for j := range acc[i] {
			e.move(acc[i][j], cAt(pc, j))
		}
		if i < mr-1 {
			ADDQ(ldc, pc)
		}
	}
	VZEROUPPER()
	RET()
}

func log2(n int) int {
	l := 0
	for n > 1 {
		n >>= 1
		l++
	}
	return l
}

// gemv emits avxGemv32 or avxGemv64: y[i*incy] = a's row i · x for each of
// m rows, each dot product in the order of goDot32 and goDot64: two YMM
// registers of partial sums (2·lanes of them, p mod 2·lanes), then one
// register's worth of steps, the partial sums added in halves down to one,
// then the last steps one by one, all fused multiply-adds.
func gemv(e elem) {
	lanes := 32 / e.size
	bits := e.name[len("float"):]
	name := "avxGemv" + bits
	TEXT(name, NOSPLIT, fmt.Sprintf("func(m, k int, a []%s, lda int, x, y []%s, incy int)", e.name, e.name))
	Doc(fmt.Sprintf("%s is goGemv%s in AVX2+FMA: y[i*incy] = Σ_p a[i*lda+p]·x[p] for i < m, p < k, summed as goDot%s sums.", name, bits, bits),
		"a holds m rows of k at stride lda and len(x) >= k: the caller's.")
	m := Load(Param("m"), GP64())
	pa := Load(Param("a").Base(), GP64())
	lda := Load(Param("lda"), GP64())
	SHLQ(U8(log2(e.size)), lda)
	py := Load(Param("y").Base(), GP64())
	incy := Load(Param("incy"), GP64())
	SHLQ(U8(log2(e.size)), incy)
	gemvQuads(e, name, m, pa, lda, py, incy)
	TESTQ(m, m)
	JZ(LabelRef(name + "_done"))

	Label(name + "_row")
	k := Load(Param("k"), GP64())
	px := Load(Param("x").Base(), GP64())
	ra := GP64()
	MOVQ(pa, ra)
	acc := [2]reg.VecVirtual{YMM(), YMM()}
	t := YMM()
	for _, r := range acc {
		VXORPS(r, r, r)
	}
	Label(name + "_pair")
	CMPQ(k, U8(2*lanes))
	JL(LabelRef(name + "_single"))
	for j, r := range acc {
		e.move(Mem{Base: px, Disp: j * 32}, t)
		e.fma(Mem{Base: ra, Disp: j * 32}, t, r)
	}
	ADDQ(U8(64), ra)
	ADDQ(U8(64), px)
	SUBQ(U8(2*lanes), k)
	JMP(LabelRef(name + "_pair"))

	Label(name + "_single")
	CMPQ(k, U8(lanes))
	JL(LabelRef(name + "_reduce"))
	e.move(Mem{Base: px}, t)
	e.fma(Mem{Base: ra}, t, acc[0])
	ADDQ(U8(32), ra)
	ADDQ(U8(32), px)
	SUBQ(U8(lanes), k)

	Label(name + "_reduce")
	e.add(acc[1], acc[0], acc[0])
	s, h := acc[0].AsX(), t.AsX()
	VEXTRACTF128(U8(1), acc[0], h)
	e.add(h, s, s)
	if e.size == 8 {
		VPERMILPD(U8(1), s, h)
		VADDSD(h, s, s)
	} else {
		VMOVHLPS(s, s, h)
		VADDPS(h, s, s)
		VMOVSHDUP(s, h)
		VADDSS(h, s, s)
	}

	Label(name + "_tail")
	TESTQ(k, k)
	JZ(LabelRef(name + "_store"))
	if e.size == 8 {
		VMOVSD(Mem{Base: ra}, h)
		VFMADD231SD(Mem{Base: px}, h, s)
	} else {
		VMOVSS(Mem{Base: ra}, h)
		VFMADD231SS(Mem{Base: px}, h, s)
	}
	ADDQ(U8(e.size), ra)
	ADDQ(U8(e.size), px)
	DECQ(k)
	JMP(LabelRef(name + "_tail"))

	Label(name + "_store")
	if e.size == 8 {
		VMOVSD(s, Mem{Base: py})
	} else {
		VMOVSS(s, Mem{Base: py})
	}
	ADDQ(incy, py)
	ADDQ(lda, pa)
	DECQ(m)
	JNZ(LabelRef(name + "_row"))

	Label(name + "_done")
	VZEROUPPER()
	RET()
}

// gemvQuads emits the first loop of avxGemv64 and avxGemv32: blocks of
// four rows, each row summed with exactly the operations of the one-row
// loop after it (two YMM registers of partial sums, one register's step,
// the sums added in halves, the last steps fused one by one), four rows
// side by side so that x is loaded once for all four and the halving of
// four rows shares its shuffles: the low and high halves of rows 0 and 1
// (and 2 and 3) are added in one register, then the rest of each row's
// halving is done for the four rows at once, leaving row i's sum in lane
// i of one register, which is stored in one move when y is contiguous.
// It leaves m < 4 rows for the one-row loop, with pa and py on the first
// of them.
func gemvQuads(e elem, name string, m, pa, lda, py, incy reg.Register) {
	lanes := 32 / e.size
	Label(name + "_quad")
	CMPQ(m, U8(4))
	JL(LabelRef(name + "_quads_done"))
	k := Load(Param("k"), GP64())
	px := Load(Param("x").Base(), GP64())
	r0, r3 := GP64(), GP64()
	MOVQ(pa, r0)
	LEAQ(Mem{Base: lda, Index: lda, Scale: 2}, r3)
	ADDQ(r0, r3)
	// at is element disp (bytes) past the current step of row i.
	at := func(i, disp int) Mem {
		switch i {
		case 0:
			return Mem{Base: r0, Disp: disp}
		case 3:
			return Mem{Base: r3, Disp: disp}
		}
		return Mem{Base: r0, Index: lda, Scale: uint8(i), Disp: disp}
	}
	advance := func(bytes int) {
		ADDQ(U8(bytes), r0)
		ADDQ(U8(bytes), r3)
		ADDQ(U8(bytes), px)
	}
	var acc [4][2]reg.VecVirtual
	for i := range acc {
		for j := range acc[i] {
			acc[i][j] = YMM()
			VXORPS(acc[i][j], acc[i][j], acc[i][j])
		}
	}
	xv := [2]reg.VecVirtual{YMM(), YMM()}

	Label(name + "_quad_pair")
	CMPQ(k, U8(2*lanes))
	JL(LabelRef(name + "_quad_single"))
	for j := range xv {
		e.move(Mem{Base: px, Disp: j * 32}, xv[j])
	}
	for i := range acc {
		for j := range xv {
			e.fma(at(i, j*32), xv[j], acc[i][j])
		}
	}
	advance(64)
	SUBQ(U8(2*lanes), k)
	JMP(LabelRef(name + "_quad_pair"))

	Label(name + "_quad_single")
	CMPQ(k, U8(lanes))
	JL(LabelRef(name + "_quad_reduce"))
	e.move(Mem{Base: px}, xv[0])
	for i := range acc {
		e.fma(at(i, 0), xv[0], acc[i][0])
	}
	advance(32)
	SUBQ(U8(lanes), k)

	Label(name + "_quad_reduce")
	for i := range acc {
		e.add(acc[i][1], acc[i][0], acc[i][0])
	}
	// halves returns, for rows i and i+1, [lo_i + hi_i, lo_i+1 + hi_i+1].
	halves := func(i int) reg.VecVirtual {
		lo, hi := YMM(), YMM()
		VPERM2F128(U8(0x20), acc[i+1][0], acc[i][0], lo)
		VPERM2F128(U8(0x31), acc[i+1][0], acc[i][0], hi)
		e.add(hi, lo, lo)
		return lo
	}
	w01, w23 := halves(0), halves(2)
	// r holds row i's sum in lane i: a YMM for float64, an XMM for float32.
	var r reg.Register
	if e.size == 8 {
		y := YMM()
		VHADDPD(w23, w01, y)    // rows 0, 2, 1, 3
		VPERMPD(U8(0xD8), y, y) // rows 0, 1, 2, 3
		r = y
	} else {
		// Each 128-bit lane of w01 (w23) holds four sums t0..t3 of row 0
		// (2) and row 1 (3); (t0 + t2) + (t1 + t3) is each row's sum.
		u1, u2 := YMM(), YMM()
		VSHUFPS(U8(0x44), w23, w01, u1) // t0 t1 of rows 0|1, then 2|3
		VSHUFPS(U8(0xEE), w23, w01, u2) // t2 t3
		VADDPS(u2, u1, u1)
		VSHUFPS(U8(0x88), u1, u1, u2) // z0, z2 (rows 0, 2 | 1, 3)
		VSHUFPS(U8(0xDD), u1, u1, u1) // z1, z3
		VADDPS(u1, u2, u2)            // rows 0, 2, 0, 2 | 1, 3, 1, 3
		hi, x := XMM(), XMM()
		VEXTRACTF128(U8(1), u2, hi)
		VUNPCKLPS(hi, u2.AsX(), x) // rows 0, 1, 2, 3
		r = x
	}

	Label(name + "_quad_tail")
	TESTQ(k, k)
	JZ(LabelRef(name + "_quad_store"))
	if e.size == 8 {
		col, hi, xb := YMM(), XMM(), YMM()
		VMOVSD(at(0, 0), col.AsX())
		VMOVHPD(at(1, 0), col.AsX(), col.AsX())
		VMOVSD(at(2, 0), hi)
		VMOVHPD(at(3, 0), hi, hi)
		VINSERTF128(U8(1), hi, col, col)
		VBROADCASTSD(Mem{Base: px}, xb)
		VFMADD231PD(xb, col, r)
	} else {
		col, xb := XMM(), XMM()
		VMOVSS(at(0, 0), col)
		VINSERTPS(U8(0x10), at(1, 0), col, col)
		VINSERTPS(U8(0x20), at(2, 0), col, col)
		VINSERTPS(U8(0x30), at(3, 0), col, col)
		VBROADCASTSS(Mem{Base: px}, xb)
		VFMADD231PS(xb, col, r)
	}
	advance(e.size)
	DECQ(k)
	JMP(LabelRef(name + "_quad_tail"))

	Label(name + "_quad_store")
	CMPQ(incy, U8(e.size))
	JNE(LabelRef(name + "_quad_scatter"))
	e.move(r, Mem{Base: py})
	JMP(LabelRef(name + "_quad_next"))
	Label(name + "_quad_scatter")
	y3 := GP64()
	LEAQ(Mem{Base: incy, Index: incy, Scale: 2}, y3)
	ADDQ(py, y3)
	if e.size == 8 {
		lo, up := r.(reg.VecVirtual).AsX(), XMM()
		VEXTRACTF128(U8(1), r, up)
		VMOVSD(lo, Mem{Base: py})
		VMOVHPD(lo, Mem{Base: py, Index: incy, Scale: 1})
		VMOVSD(up, Mem{Base: py, Index: incy, Scale: 2})
		VMOVHPD(up, Mem{Base: y3})
	} else {
		VMOVSS(r, Mem{Base: py})
		VEXTRACTPS(U8(1), r, Mem{Base: py, Index: incy, Scale: 1})
		VEXTRACTPS(U8(2), r, Mem{Base: py, Index: incy, Scale: 2})
		VEXTRACTPS(U8(3), r, Mem{Base: y3})
	}
	Label(name + "_quad_next")
	LEAQ(Mem{Base: py, Index: incy, Scale: 4}, py)
	LEAQ(Mem{Base: pa, Index: lda, Scale: 4}, pa)
	SUBQ(U8(4), m)
	JMP(LabelRef(name + "_quad"))
	Label(name + "_quads_done")
}

// gemvColumns emits avxGemvColumns32 or avxGemvColumns64: y[i] = Σ_p
// a[i+p*lda]·x[p*incx] for each of m rows, each sum by fused multiply-adds
// in order of p from zero: blocks of 8 YMM registers of rows, then of 4,
// 2 and 1, then single rows. Each register is one chain of multiply-adds,
// as long as k, so a few rows (Xᵀr of a [1000,8] X: 8 float64 rows) take
// the widest block they fill, which runs its chains side by side.
func gemvColumns(e elem) {
	lanes := 32 / e.size
	bits := e.name[len("float"):]
	name := "avxGemvColumns" + bits
	TEXT(name, NOSPLIT, fmt.Sprintf("func(m, k int, a []%s, lda int, x []%s, incx int, y []%s)", e.name, e.name, e.name))
	Doc(fmt.Sprintf("%s is goGemvColumns%s in AVX2+FMA: y[i] = Σ_p a[i+p*lda]·x[p*incx] for i < m, p < k,", name, bits),
		"each sum by fused multiply-adds in order of p from zero.",
		"a holds k columns of m at stride lda, x k elements at stride incx and len(y) >= m: the caller's.")
	pa := Load(Param("a").Base(), GP64())
	lda := Load(Param("lda"), GP64())
	SHLQ(U8(log2(e.size)), lda)
	incx := Load(Param("incx"), GP64())
	SHLQ(U8(log2(e.size)), incx)
	py := Load(Param("y").Base(), GP64())
	left := Load(Param("m"), GP64())

	// block emits the loop for blocks of regs registers (regs == 0: one
	// row), labelled l, falling through to next when fewer rows are left.
	block := func(l, next string, regs int) {
		rows := max(1, regs*lanes)
		Label(name + "_" + l)
		CMPQ(left, U32(rows))
		JL(LabelRef(name + "_" + next))
		k := Load(Param("k"), GP64())
		px := Load(Param("x").Base(), GP64())
		col := GP64()
		MOVQ(pa, col)
		xv := YMM()
		if regs == 0 {
			s, xs := XMM(), XMM()
			VXORPS(s, s, s)
			Label(name + "_" + l + "_p")
			if e.size == 8 {
				VMOVSD(Mem{Base: px}, xs)
				VFMADD231SD(Mem{Base: col}, xs, s)
			} else {
				VMOVSS(Mem{Base: px}, xs)
				VFMADD231SS(Mem{Base: col}, xs, s)
			}
			ADDQ(incx, px)
			ADDQ(lda, col)
			DECQ(k)
			JNZ(LabelRef(name + "_" + l + "_p"))
			if e.size == 8 {
				VMOVSD(s, Mem{Base: py})
			} else {
				VMOVSS(s, Mem{Base: py})
			}
		} else {
			acc := make([]reg.VecVirtual, regs)
			for j := range acc {
				acc[j] = YMM()
				VXORPS(acc[j], acc[j], acc[j])
			}
			Label(name + "_" + l + "_p")
			e.broadcast(Mem{Base: px}, xv)
			for j := range acc {
				e.fma(Mem{Base: col, Disp: 32 * j}, xv, acc[j])
			}
			ADDQ(incx, px)
			ADDQ(lda, col)
			DECQ(k)
			JNZ(LabelRef(name + "_" + l + "_p"))
			for j := range acc {
				e.move(acc[j], Mem{Base: py, Disp: 32 * j})
			}
		}
		ADDQ(U32(rows*e.size), pa)
		ADDQ(U32(rows*e.size), py)
		SUBQ(U32(rows), left)
		JMP(LabelRef(name + "_" + l))
	}
	block("wide", "four", 8)
	block("four", "two", 4)
	block("two", "one", 2)
	block("one", "row", 1)
	block("row", "done", 0)
	Label(name + "_done")
	VZEROUPPER()
	RET()
}

// packRows emits avxPackRows32 or avxPackRows64: the rows of b that packB
// copies into its whole packed panels, one 64-byte piece (nr elements,
// two YMM registers) per panel and row: dst[j/nr*step + p*nr:][:nr] =
// src[p*lds+j:][:nr] for each row p < k and each whole piece j of its n
// elements, all rows in one call.
func packRows(e elem) {
	packRowsOf(e, cols*32/e.size, "avxPackRows")
}

// packRowsWide emits avxPackRowsWide32 or avxPackRowsWide64, packRows for
// the AVX-512 kernels' panels, twice as wide (128 bytes, four YMM moves).
func packRowsWide(e elem) {
	packRowsOf(e, 2*cols*32/e.size, "avxPackRowsWide")
}

func packRowsOf(e elem, nr int, base string) {
	bits := e.name[len("float"):]
	name := base + bits
	piece := nr * e.size
	TEXT(name, NOSPLIT, fmt.Sprintf("func(dst []%s, k, step int, src []%s, lds, n int)", e.name, e.name))
	Doc(fmt.Sprintf("%s is goPackRows(%d) in AVX: dst[j/%d*step + p*%d:][:%d] = src[p*lds+j:][:%d] for p < k and j = 0, %d, ... while j+%d <= n.", name, nr, nr, nr, nr, nr, nr, nr),
		fmt.Sprintf("dst holds (n/%d - 1)*step + k*%d elements and src k rows of n at stride lds: the caller's.", nr, nr))
	pd := Load(Param("dst").Base(), GP64())
	k := Load(Param("k"), GP64())
	step := Load(Param("step"), GP64())
	SHLQ(U8(log2(e.size)), step)
	pr := Load(Param("src").Base(), GP64())
	lds := Load(Param("lds"), GP64())
	SHLQ(U8(log2(e.size)), lds)
	pieces := Load(Param("n"), GP64())
	SHRQ(U8(log2(nr)), pieces)
	TESTQ(pieces, pieces)
	JZ(LabelRef(name + "_done"))
	TESTQ(k, k)
	JZ(LabelRef(name + "_done"))
	regs := make([]reg.VecVirtual, piece/32)
	for i := range regs {
		regs[i] = YMM()
	}
	ps, d, n := GP64(), GP64(), GP64()
	Label(name + "_row")
	MOVQ(pr, ps)
	MOVQ(pd, d)
	MOVQ(pieces, n)
	Label(name + "_piece")
	for i, x := range regs {
		e.move(Mem{Base: ps, Disp: 32 * i}, x)
	}
	for i, x := range regs {
		e.move(x, Mem{Base: d, Disp: 32 * i})
	}
	ADDQ(U32(piece), ps)
	ADDQ(step, d)
	DECQ(n)
	JNZ(LabelRef(name + "_piece"))
	ADDQ(lds, pr)
	ADDQ(U32(piece), pd)
	DECQ(k)
	JNZ(LabelRef(name + "_row"))
	Label(name + "_done")
	VZEROUPPER()
	RET()
}

// packColumns emits avxPackColumns32 or avxPackColumns64: packA's copy of
// a column-major a into panels of mr rows, going down each column once:
// dst[q*k*mr + p*mr + i] = a[p*lda + q*mr + i] for p < k, q < panels,
// i < mr, each column's whole panels one after another (mr elements are
// one XMM and one 8-byte move for float32, one YMM and one XMM for
// float64).
func packColumns(e elem) {
	bits := e.name[len("float"):]
	name := "avxPackColumns" + bits
	TEXT(name, NOSPLIT, fmt.Sprintf("func(dst []%s, k, panels int, a []%s, lda int)", e.name, e.name))
	Doc(fmt.Sprintf("%s is goPackColumns in AVX: dst[q*k*%d + p*%d + i] = a[p*lda + q*%d + i] for p < k, q < panels, i < %d.", name, mr, mr, mr, mr),
		fmt.Sprintf("dst holds panels*k*%d elements and a k columns of panels*%d at stride lda: the caller's.", mr, mr))
	pd := Load(Param("dst").Base(), GP64())
	k := Load(Param("k"), GP64())
	pa := Load(Param("a").Base(), GP64())
	lda := Load(Param("lda"), GP64())
	SHLQ(U8(log2(e.size)), lda)
	panelBytes := GP64()
	MOVQ(k, panelBytes)
	IMUL3Q(U32(mr*e.size), panelBytes, panelBytes)
	TESTQ(k, k)
	JZ(LabelRef(name + "_done"))
	Label(name + "_column")
	q := Load(Param("panels"), GP64())
	TESTQ(q, q)
	JZ(LabelRef(name + "_done"))
	src, dst := GP64(), GP64()
	MOVQ(pa, src)
	MOVQ(pd, dst)
	Label(name + "_panel")
	if e.size == 4 {
		x, y := XMM(), XMM()
		VMOVUPS(Mem{Base: src}, x)
		VMOVSD(Mem{Base: src, Disp: 16}, y)
		VMOVUPS(x, Mem{Base: dst})
		VMOVSD(y, Mem{Base: dst, Disp: 16})
	} else {
		x, y := YMM(), XMM()
		VMOVUPD(Mem{Base: src}, x)
		VMOVUPD(Mem{Base: src, Disp: 32}, y)
		VMOVUPD(x, Mem{Base: dst})
		VMOVUPD(y, Mem{Base: dst, Disp: 32})
	}
	ADDQ(U8(mr*e.size), src)
	ADDQ(panelBytes, dst)
	DECQ(q)
	JNZ(LabelRef(name + "_panel"))
	ADDQ(lda, pa)
	ADDQ(U8(mr*e.size), pd)
	DECQ(k)
	JNZ(LabelRef(name + "_column"))
	Label(name + "_done")
	VZEROUPPER()
	RET()
}

// packTail emits avxPackTail32 or avxPackTail64: packB's copy of the last,
// partial panel of a row-major b, by masked loads, which read only the
// first cols elements of each row and zero the rest: dst[p*nr + j] =
// src[p*lds + j] for j < cols, 0 for cols <= j < nr, p < k, 0 < cols < nr.
func packTail(e elem) {
	packTailOf(e, cols*32/e.size, "avxPackTail", "packTailMask")
}

// packTailWide emits avxPackTailWide32 or avxPackTailWide64, packTail for
// the AVX-512 kernels' panels, twice as wide (four YMM masked loads).
func packTailWide(e elem) {
	packTailOf(e, 2*cols*32/e.size, "avxPackTailWide", "packTailMaskWide")
}

func packTailOf(e elem, nr int, base, maskName string) {
	bits := e.name[len("float"):]
	name := base + bits
	// masks: nr lanes of all ones, then nr of zeros; the mask of the
	// first cols lanes of a register starts nr-cols lanes in.
	masks := GLOBL(maskName+bits, RODATA|NOPTR)
	for i := range 2 * nr {
		v := 0
		if i < nr {
			v = -1
		}
		if e.size == 8 {
			DATA(i*8, U64(uint64(int64(v))))
		} else {
			DATA(i*4, U32(uint32(int32(v))))
		}
	}
	TEXT(name, NOSPLIT, fmt.Sprintf("func(dst []%s, k int, src []%s, lds, cols int)", e.name, e.name))
	Doc(fmt.Sprintf("%s is goPackTail in AVX: dst[p*%d + j] = src[p*lds + j] for j < cols, 0 for cols <= j < %d, p < k.", name, nr, nr),
		fmt.Sprintf("0 < cols < %d, dst holds k*%d elements and src k rows of cols at stride lds: the caller's.", nr, nr))
	pd := Load(Param("dst").Base(), GP64())
	k := Load(Param("k"), GP64())
	ps := Load(Param("src").Base(), GP64())
	lds := Load(Param("lds"), GP64())
	SHLQ(U8(log2(e.size)), lds)
	c := Load(Param("cols"), GP64())
	off := GP64()
	MOVQ(U32(nr), off)
	SUBQ(c, off)
	SHLQ(U8(log2(e.size)), off)
	mbase := GP64()
	LEAQ(masks, mbase)
	ADDQ(mbase, off)
	n := nr * e.size / 32 // YMM registers per row
	ms, xs := make([]reg.VecVirtual, n), make([]reg.VecVirtual, n)
	for i := range ms {
		ms[i], xs[i] = YMM(), YMM()
		e.move(Mem{Base: off, Disp: 32 * i}, ms[i])
	}
	TESTQ(k, k)
	JZ(LabelRef(name + "_done"))
	Label(name + "_row")
	for i := range ms {
		if e.size == 8 {
			VMASKMOVPD(Mem{Base: ps, Disp: 32 * i}, ms[i], xs[i])
		} else {
			VMASKMOVPS(Mem{Base: ps, Disp: 32 * i}, ms[i], xs[i])
		}
	}
	for i := range xs {
		e.move(xs[i], Mem{Base: pd, Disp: 32 * i})
	}
	ADDQ(lds, ps)
	ADDQ(U32(nr*e.size), pd)
	DECQ(k)
	JNZ(LabelRef(name + "_row"))
	Label(name + "_done")
	VZEROUPPER()
	RET()
}
