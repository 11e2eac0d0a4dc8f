package exec

import (
	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/simd"
)

// The AVX2 loops of internal/simd come first for float32 and float64: they
// compute what the Go loops compute, bit for bit, four or eight lanes at a
// time. Where they are missing (another CPU or architecture, the purego tag,
// simd.Enabled cleared) the lookups fall through to the Go loops.

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
}

// streamBytes is the size of a region's outputs from which the kernels
// that write them directly use the AVX2 loops' streaming forms:
// non-temporal stores, which go around the caches and do not read each
// line of the destination in first. An output that large leaves the
// caches anyway; storing around them saves a quarter of a+b's memory
// traffic, and measured 1.3x on 1e7-element float64 a+b with two
// goroutines. Below it, outputs stay in cache for whatever reads them
// next. 32 MiB is a large last-level cache. Tests lower it.
var streamBytes = 32 << 20

func simdBinary[T dtype.Float](op expr.Op) (binFns[T], bool) {
	return simdBinaryOf(op, simd.BinaryOf[T])
}

func simdBinaryStream[T dtype.Float](op expr.Op) (binFns[T], bool) {
	return simdBinaryOf(op, simd.BinaryStreamOf[T])
}

func simdBinaryOf[T dtype.Float](op expr.Op, lookup func(simd.Op) (simd.Binary[T], bool)) (binFns[T], bool) {
	o, ok := simdOps[op]
	if !ok {
		return binFns[T]{}, false
	}
	k, ok := lookup(o)
	return binFns[T]{vv: k.VV, vs: k.VS, sv: k.SV}, ok
}

func simdUnary[T dtype.Float](op expr.Op) (func(d, a []T), bool) {
	o, ok := simdUnaryOps[op]
	if !ok {
		return nil, false
	}
	return simd.Unary[T](o)
}

func simdUnaryStream[T dtype.Float](op expr.Op) (func(d, a []T), bool) {
	o, ok := simdUnaryOps[op]
	if !ok {
		return nil, false
	}
	return simd.UnaryStream[T](o)
}

// simdPair maps a fused pair's ops; inner must be add, sub or mul.
func simdPair(outer, inner expr.Op) (simd.Op, simd.Op, bool) {
	o, ok1 := simdOps[outer]
	i, ok2 := simdOps[inner]
	return o, i, ok1 && ok2 && i != simd.Div
}

// withSIMD puts the AVX2 loops in front of m's lookups.
func withSIMD[T dtype.Float](m *impl[T]) *impl[T] {
	m.bin = firstOf(simdBinary[T], m.bin)
	m.un = firstOf(simdUnary[T], m.un)
	m.binStream, m.unStream = simdBinaryStream[T], simdUnaryStream[T]
	m.fusedStream = func(outer, inner expr.Op, left bool) (func(d, x, y, z []T), bool) {
		if o, i, ok := simdPair(outer, inner); ok {
			return simd.FusedStream[T](o, i, left)
		}
		return nil, false
	}
	m.fusedSStream = func(outer, inner expr.Op, left bool) (func(d, x []T, y T, z []T), bool) {
		if o, i, ok := simdPair(outer, inner); ok {
			return simd.FusedSStream[T](o, i, left)
		}
		return nil, false
	}
	fused, fusedS, unfused := m.fused, m.fusedS, m.unfused
	if unfused != nil {
		// Fuse what the AVX2 loops cover. Looked up when planning; a plan
		// made with them still gets Go kernels if they are turned off.
		m.unfused = func(outer, inner expr.Op) bool {
			if o, i, ok := simdPair(outer, inner); ok {
				if _, ok := simd.Fused[T](o, i, true); ok {
					return false
				}
			}
			return unfused(outer, inner)
		}
	}
	m.fused = func(outer, inner expr.Op, left bool) (func(d, x, y, z []T), bool) {
		if o, i, ok := simdPair(outer, inner); ok {
			if f, ok := simd.Fused[T](o, i, left); ok {
				return f, true
			}
		}
		return fused(outer, inner, left)
	}
	m.fusedS = func(outer, inner expr.Op, left bool) (func(d, x []T, y T, z []T), bool) {
		if o, i, ok := simdPair(outer, inner); ok {
			if f, ok := simd.FusedS[T](o, i, left); ok {
				return f, true
			}
		}
		return fusedS(outer, inner, left)
	}
	return m
}

// vectorized reports whether the loop of in runs as an AVX2 loop: float32
// or float64 arithmetic, a fused pair, or a unary op internal/simd has.
func (g *region) vectorized(in instrSpec) bool {
	dt := g.slotDT[in.dst]
	if dt != dtype.Float32 && dt != dtype.Float64 || !simd.Enabled || in.compiled != nil {
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
