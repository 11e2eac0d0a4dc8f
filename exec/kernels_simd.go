package exec

import (
	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/simd"
)

// The AVX2 loops of internal/simd come first for float32 and float64, and
// for the binary add, sub and (16- and 32-bit) mul of the sized integer
// types and int32's DivTrunc and DivFloor: they compute what the Go loops
// compute, bit for bit, four to thirty-two lanes at a time. Where they are missing (another CPU or
// architecture, the purego tag, simd.Enabled cleared) the lookups fall
// through to the Go loops.

var simdOps = map[expr.Op]simd.Op{
	expr.OpAdd: simd.Add,
	expr.OpSub: simd.Sub,
	expr.OpMul: simd.Mul,
	expr.OpDiv: simd.Div,
}

var simdUnaryOps = map[expr.Op]simd.UnaryOp{
	expr.OpNeg:    simd.Neg,
	expr.OpAbs:    simd.Abs,
	expr.OpSqrt:   simd.Sqrt,
	expr.OpSquare: simd.Square,
	expr.OpRelu:   simd.Relu,
	expr.OpSign:   simd.Sign,
}

// streamBytes is the size of a region's outputs from which the kernels
// that write them directly, and the copies of regions without kernels, use
// the AVX2 loops' streaming forms:
// non-temporal stores, which go around the caches and do not read each
// line of the destination in first. An output that large leaves the
// caches anyway; storing around them saves a quarter of a+b's memory
// traffic, and measured 1.3x on 1e7-element float64 a+b with two
// goroutines. Below it, outputs stay in cache for whatever reads them
// next. 32 MiB is a large last-level cache. Tests lower it.
var streamBytes = 32 << 20

// streamRow is the length, in bytes, of the pieces of a tile's rows from
// which a row-mode region streams its output even when they do not start
// and end on cache lines (see markStreams).
const streamRow = 4096

// streamCopyOf returns the AVX2 loop that copies around the caches for T,
// or nil: there is one for float32 and float64 where the loops are
// enabled.
func streamCopyOf[T dtype.Elem]() func(d, x []T) {
	var f any
	switch any(*new(T)).(type) {
	case float64:
		f, _ = simd.UnaryStream[float64](simd.Copy)
	case float32:
		f, _ = simd.UnaryStream[float32](simd.Copy)
	}
	k, _ := f.(func(d, x []T))
	return k
}

// streamsCopy reports whether slot s's values can be copied around the
// caches: float32 and float64, with the AVX2 loops.
func (g *region) streamsCopy(s int) bool {
	dt := g.slotDT[s]
	return (dt == dtype.Float32 || dt == dtype.Float64) && simd.Enabled
}

// viaSIMD adapts a lookup of internal/simd, keyed by its ops, to the
// executor's lookups, keyed by expr ops (ops maps the ones it has).
func viaSIMD[O comparable, K any](ops map[expr.Op]O, lookup func(O) (K, bool)) func(expr.Op) (K, bool) {
	return func(op expr.Op) (K, bool) {
		o, ok := ops[op]
		if !ok {
			var none K
			return none, false
		}
		return lookup(o)
	}
}

// asBinFns adapts a lookup of simd.Binary loops to binFns.
func asBinFns[T simd.Elem](lookup func(simd.Op) (simd.Binary[T], bool)) func(simd.Op) (binFns[T], bool) {
	return func(o simd.Op) (binFns[T], bool) {
		k, ok := lookup(o)
		return binFns[T]{vv: k.VV, vs: k.VS, sv: k.SV}, ok
	}
}

// pairViaSIMD is viaSIMD for fused pairs; inner must be add, sub or mul.
func pairViaSIMD[F any](lookup func(outer, inner simd.Op, left bool) (F, bool)) func(outer, inner expr.Op, left bool) (F, bool) {
	return func(outer, inner expr.Op, left bool) (F, bool) {
		if o, i, ok := simdPair(outer, inner); ok {
			return lookup(o, i, left)
		}
		var none F
		return none, false
	}
}

// firstPair chains fused-pair lookups as firstOf chains the others.
func firstPair[F any](fs ...func(outer, inner expr.Op, left bool) (F, bool)) func(outer, inner expr.Op, left bool) (F, bool) {
	return func(outer, inner expr.Op, left bool) (F, bool) {
		for _, f := range fs {
			if k, ok := f(outer, inner, left); ok {
				return k, true
			}
		}
		var none F
		return none, false
	}
}

// simdPair maps a fused pair's ops; inner must be add, sub or mul.
func simdPair(outer, inner expr.Op) (simd.Op, simd.Op, bool) {
	o, ok1 := simdOps[outer]
	i, ok2 := simdOps[inner]
	return o, i, ok1 && ok2 && i != simd.Div
}

// withSIMD puts the AVX2 loops in front of m's lookups, and gives m their
// streaming forms.
func withSIMD[T dtype.Float](m *impl[T]) *impl[T] {
	simdFused := pairViaSIMD(simd.Fused[T])
	m.bin = firstOf(viaSIMD(simdOps, asBinFns(simd.BinaryOf[T])), m.bin)
	m.un = firstOf(viaSIMD(simdUnaryOps, simd.Unary[T]), m.un)
	m.fused = firstPair(simdFused, m.fused)
	m.fusedS = firstPair(pairViaSIMD(simd.FusedS[T]), m.fusedS)
	m.binStream = viaSIMD(simdOps, asBinFns(simd.BinaryStreamOf[T]))
	m.unStream = viaSIMD(simdUnaryOps, simd.UnaryStream[T])
	add, _ := simd.BinaryOf[T](simd.Add)
	m.reduces.sum = simdSum(m.reduces.sum, add.VV)
	m.fusedStream = pairViaSIMD(simd.FusedStream[T])
	m.fusedSStream = pairViaSIMD(simd.FusedSStream[T])
	if unfused := m.unfused; unfused != nil {
		// Fuse what the AVX2 loops cover. Looked up when planning; a plan
		// made with them still gets Go kernels if they are turned off.
		m.unfused = func(outer, inner expr.Op) bool {
			if _, ok := simdFused(outer, inner, true); ok {
				return false
			}
			return unfused(outer, inner)
		}
	}
	return m
}

// simdDivOps maps the integer divisions to simd.IntDivOf's floor argument.
var simdDivOps = map[expr.Op]bool{expr.OpDivTrunc: false, expr.OpDivFloor: true}

// withSIMDInt puts the AVX2 integer loops (add, sub, and mul for 16- and
// 32-bit T; division for int32) in front of m's binary lookups, and gives m
// the streaming forms of the first three.
func withSIMDInt[T simd.Int](m *impl[T]) *impl[T] {
	div := func(floor bool) (binFns[T], bool) {
		k, ok := simd.IntDivOf[T](floor)
		return binFns[T]{vv: k.VV, vs: k.VS, sv: k.SV}, ok
	}
	m.bin = firstOf(viaSIMD(simdOps, asBinFns(simd.IntBinaryOf[T])), viaSIMD(simdDivOps, div), m.bin)
	m.binStream = viaSIMD(simdOps, asBinFns(simd.IntBinaryStreamOf[T]))
	add, _ := simd.IntBinaryOf[T](simd.Add)
	m.reduces.sum = simdSum(m.reduces.sum, add.VV)
	return m
}

// simdSum makes sum fold vectors into vectors (its vcombine, d[i] += a[i])
// with the AVX2 add loop add, the same adds four to thirty-two a step, while
// the loops are on. Summing rows into a row, sum(x, 0), spends its time
// there: the Go loop was 79% of it on 1000² float64, and the AVX2 loop made
// it 1.15–1.5x faster.
// shortVector is the length below which simdSum's vcombine adds in its Go
// loop: summing 1000 rows of 4 into 4 (k-means' cluster counts) made two
// calls per row into the AVX2 loop, which cost more than the four adds.
const shortVector = 16

func simdSum[T dtype.Elem](sum *reduceOp[T], add func(d, x, y []T)) *reduceOp[T] {
	if add == nil {
		return sum
	}
	s := *sum
	s.vcombine = func(d, a []T) {
		if !simd.Enabled || len(d) < shortVector {
			sum.vcombine(d, a) // the same adds: one rounding per element either way
			return
		}
		add(d, d, a)
	}
	return &s
}

// vectorized reports whether the loop of in runs as an AVX2 loop that
// keeps up with memory: float32 or float64 arithmetic, a fused pair, or a
// unary op internal/simd has, or integer add, sub or (16- and 32-bit) mul.
// (int32 division runs an AVX2 loop too, but it is bound by the divider:
// it gets no long blocks or streaming stores.)
func (g *region) vectorized(in instrSpec) bool {
	dt := g.slotDT[in.dst]
	if !simd.Enabled || in.compiled != nil {
		return false
	}
	switch dt {
	case dtype.Int8, dtype.Uint8, dtype.Int16, dtype.Uint16, dtype.Int32, dtype.Uint32, dtype.Int64, dtype.Uint64:
		o, ok := simdOps[in.op.KernelOp()]
		return ok && in.inner == expr.OpInvalid && g.slotDT[in.args[0]] == dt &&
			(o == simd.Add || o == simd.Sub || o == simd.Mul && (dt.Size() == 2 || dt.Size() == 4))
	case dtype.Float32, dtype.Float64:
	default:
		return false
	}
	op := in.op.KernelOp()
	if in.inner != expr.OpInvalid {
		_, _, ok := simdPair(op, in.inner)
		return ok
	}
	if _, ok := simdOps[op]; ok {
		return g.slotDT[in.args[0]] == g.slotDT[in.dst] // not a comparison or a cast
	}
	_, ok := simdUnaryOps[op]
	return ok && g.slotDT[in.args[0]] == g.slotDT[in.dst]
}

// simdDiv reports whether the loop of in is int32 division's AVX2 loop,
// which vectorized leaves out (see there).
func (g *region) simdDiv(in instrSpec) bool {
	_, ok := simdDivOps[in.op.KernelOp()]
	dt := g.slotDT[in.dst]
	return ok && simd.Enabled && in.compiled == nil && in.inner == expr.OpInvalid && dt == dtype.Int32 && g.slotDT[in.args[0]] == dt
}

// transposeRows is the number of rows simd.Transpose writes for element
// type dt (simd.TransposeRows), 0 without the AVX2 loops.
func transposeRows(dt dtype.DType) int {
	switch dt {
	case dtype.Bool, dtype.Int8, dtype.Uint8:
		return simd.TransposeRows[uint8]()
	case dtype.Int16, dtype.Uint16:
		return simd.TransposeRows[uint16]()
	case dtype.Float32, dtype.Int32, dtype.Uint32:
		return simd.TransposeRows[float32]()
	case dtype.Float64, dtype.Int64, dtype.Uint64, dtype.Complex64:
		return simd.TransposeRows[float64]()
	case dtype.Complex128:
		return simd.TransposeRows[complex128]()
	}
	return 0
}
