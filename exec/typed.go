package exec

import (
	"fmt"
	"math/cmplx"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/matmul"
	"github.com/tensorplay/tensorplay/tensor"
)

// typed is everything the executor does that depends on the element type,
// behind one interface: the planner works on dtypes, and typedFor maps a
// dtype to the generic implementation instantiated for it.
type typed interface {
	newSlot(block int, scalar bool) slotAny
	newSlots(lens []int, scalar []bool) []slotAny
	alloc(shape tensor.Shape) tensor.Any
	isNil(t tensor.Any) bool
	asStrided(t tensor.Any, shape tensor.Shape, strides []int, off int) tensor.Any
	// instr builds the kernel call of an elementwise node whose result has
	// this element type, reading args and writing d.
	instr(in instrSpec, d slotAny, args []slotAny, cs *castScratch) (func(n int), error)
	// fusedInstr builds the kernel call of a fused pair (see instrSpec).
	fusedInstr(in instrSpec, d slotAny, args []slotAny) (func(n int), error)
	hasFused(outer, inner expr.Op) bool
	reducer
}

// impl is typed for T. Its kernel lookups are filled per dtype family in
// typedTable, since Go cannot narrow T's constraint inside a method.
type impl[T dtype.Elem] struct {
	bin     func(expr.Op) (binFns[T], bool)
	cmp     func(expr.Op) (cmpFns[T], bool)
	un      func(expr.Op) (func(d, a []T), bool)
	realOf  func(op expr.Op, d any, a any) bool // d = a's real, imag or |a|
	reduces reduceFns[T]
	gemm    func(s *matmulStep, vals []tensor.Any, r matmul.Runner)
	fused   func(outer, inner expr.Op, left bool) (func(d, x, y, z []T), bool)
	fusedS  func(outer, inner expr.Op, left bool) (func(d, x []T, y T, z []T), bool)
	// unfused, when set, names the pairs the planner should not fuse
	// although fused has a kernel for them (a separate loop is faster).
	// It is advice: fused kernels exist for any pair a plan asks for.
	unfused func(outer, inner expr.Op) bool

	// Streaming forms (non-temporal stores) of bin, un, fused and fusedS,
	// for kernels that write large outputs; nil where there are none.
	binStream    func(expr.Op) (binFns[T], bool)
	unStream     func(expr.Op) (func(d, a []T), bool)
	fusedStream  func(outer, inner expr.Op, left bool) (func(d, x, y, z []T), bool)
	fusedSStream func(outer, inner expr.Op, left bool) (func(d, x []T, y T, z []T), bool)
}

var typedTable = map[dtype.DType]typed{
	dtype.Bool:       &impl[bool]{bin: boolBinary[bool], cmp: elemCompare[bool], un: boolUnary[bool], reduces: boolReduces()},
	dtype.Int8:       withSIMDInt(intImpl[int8]()),
	dtype.Int16:      withSIMDInt(intImpl[int16]()),
	dtype.Int32:      withSIMDCompare(withSIMDInt(intImpl[int32]())),
	dtype.Int64:      withSIMDCompare(withSIMDInt(intImpl[int64]())),
	dtype.Uint8:      withSIMDInt(intImpl[uint8]()),
	dtype.Uint16:     withSIMDInt(intImpl[uint16]()),
	dtype.Uint32:     withSIMDInt(intImpl[uint32]()),
	dtype.Uint64:     withSIMDInt(intImpl[uint64]()),
	dtype.Float32:    withSIMDCompare(withSIMD(floatImpl[float32]())),
	dtype.Float64:    withSIMDCompare(withSIMD(float64Impl())),
	dtype.Complex64:  complexImpl[complex64](),
	dtype.Complex128: complexImpl[complex128](),
}

func typedFor(d dtype.DType) typed { return typedTable[d] }

func intImpl[T dtype.Integer]() *impl[T] {
	return &impl[T]{
		bin:     firstOf(numericBinary[T], realBinary[T], signedPow[T], integerBinary[T]),
		cmp:     firstOf(elemCompare[T], realCompare[T]),
		un:      firstOf(numericUnary[T], realUnary[T], integerUnary[T]),
		reduces: realReduces[T](),
		gemm:    batchedGemm[T],
		fused:   numericFused[T],
		fusedS:  numericFusedS[T],
	}
}

func floatImpl[T dtype.Float]() *impl[T] {
	return &impl[T]{
		bin:     firstOf(numericBinary[T], realBinary[T], floatBinary[T], inexactBinary[T]),
		cmp:     firstOf(elemCompare[T], realCompare[T]),
		un:      firstOf(numericUnary[T], realUnary[T], floatUnary[T]),
		reduces: floatReduces[T](),
		gemm:    batchedGemm[T],
		fused:   inexactOrNumericFused[T],
		fusedS:  inexactOrNumericFusedS[T],
	}
}

func complexImpl[T dtype.Complex]() *impl[T] {
	return &impl[T]{
		bin:     firstOf(numericBinary[T], complexBinary[T], inexactBinary[T]),
		cmp:     elemCompare[T],
		un:      firstOf(numericUnary[T], complexUnary[T]),
		realOf:  complexParts[T],
		reduces: complexReduces[T](),
		gemm:    batchedGemm[T],
		fused:   inexactOrNumericFused[T],
		fusedS:  inexactOrNumericFusedS[T],
		unfused: complexMulUnfused,
	}
}

// complexMulUnfused keeps complex multiplications out of fused pairs. Go
// may compute a complex product's a*c-b*d with a fused multiply-add (it
// does on arm64, and on amd64 with GOAMD64=v3), and whether it does depends
// on the code around it, which no conversion can pin down: a product fused
// into a pair could round differently from the same product alone. Alone,
// a complex multiplication is always the same loop, so a graph gives the
// same bits whether or not it is fused.
func complexMulUnfused(outer, inner expr.Op) bool { return outer == expr.OpMul || inner == expr.OpMul }

// firstOf chains kernel lookups: the first that knows the op answers.
func firstOf[K any](fs ...func(expr.Op) (K, bool)) func(expr.Op) (K, bool) {
	return func(op expr.Op) (K, bool) {
		for _, f := range fs {
			if k, ok := f(op); ok {
				return k, true
			}
		}
		var zero K
		return zero, false
	}
}

// complexParts computes real, imag or cabs of a complex block *a (a *[]C)
// into *d (a *[]float32 or *[]float64).
func complexParts[C dtype.Complex](op expr.Op, d any, a any) bool {
	src := *a.(*[]C)
	switch d := d.(type) {
	case *[]float32:
		partsInto(op, *d, src)
	case *[]float64:
		partsInto(op, *d, src)
	default:
		return false
	}
	return true
}

func partsInto[F dtype.Float, C dtype.Complex](op expr.Op, d []F, a []C) {
	a = a[:len(d)]
	switch op {
	case expr.OpReal:
		for i := range d {
			d[i] = F(real(complex128(a[i])))
		}
	case expr.OpImag:
		for i := range d {
			d[i] = F(imag(complex128(a[i])))
		}
	case expr.OpCAbs:
		for i := range d {
			d[i] = F(cmplx.Abs(complex128(a[i])))
		}
	}
}

func (impl[T]) newSlot(block int, scalar bool) slotAny { return newSlot[T](block, scalar) }

func (impl[T]) newSlots(lens []int, scalar []bool) []slotAny { return newSlots[T](lens, scalar) }

// alloc allocates a result, temporary or staging tensor of a run. One
// that does not fit (tensor.New's error) stops the run before any step
// has written anything: the run allocates all its tensors first.
func (impl[T]) alloc(shape tensor.Shape) tensor.Any {
	t, err := tensor.New[T](shape...)
	if err != nil {
		fail(err)
	}
	return t
}

// isNil reports whether t is a nil *tensor.Tensor[T].
func (impl[T]) isNil(t tensor.Any) bool {
	p, ok := t.(*tensor.Tensor[T])
	return ok && p == nil
}

// nilTensor reports whether t is nil or holds a nil *tensor.Tensor, whose
// methods (but DType) would panic.
func nilTensor(t tensor.Any) bool {
	if t == nil {
		return true
	}
	m := typedFor(t.DType())
	return m != nil && m.isNil(t)
}

func (impl[T]) asStrided(t tensor.Any, shape tensor.Shape, strides []int, off int) tensor.Any {
	v, err := t.(*tensor.Tensor[T]).AsStrided(shape, strides, off) // keeps a mapped file's Backing
	if err != nil {
		panic("exec: internal error: " + err.Error()) // layouts are derived from valid views
	}
	return v
}

func (m *impl[T]) instr(in instrSpec, ds slotAny, args []slotAny, cs *castScratch) (func(n int), error) {
	d := ds.(*slot[T])
	op, argType := in.op.KernelOp(), in.argType // expr.OpBroadcastAdd computes as expr.OpAdd
	switch op.Class() {
	case expr.ClassUnary:
		return m.unaryInstr(op, d, args[0], argType, cs, in.stream)
	case expr.ClassBinary:
		if dtype.Of[T]() == dtype.Bool && argType != dtype.Bool || op >= expr.OpEq && op <= expr.OpGe {
			return compareInstr(op, d, args, argType)
		}
		k, ok := m.binFor(op, in.stream && !d.scalar)
		if !ok {
			return nil, fmt.Errorf("exec: no %s kernel for %s", op, dtype.Of[T]())
		}
		return binaryInstr(k, d, args[0].(*slot[T]), args[1].(*slot[T])), nil
	case expr.ClassTernary:
		return whereInstr(d, args[0].(*slot[bool]), args[1].(*slot[T]), args[2].(*slot[T])), nil
	}
	return nil, fmt.Errorf("exec: %s is not elementwise", op)
}

// binFor returns the kernels of a binary op: with stream, the streaming
// forms where there are any.
func (m *impl[T]) binFor(op expr.Op, stream bool) (binFns[T], bool) {
	if stream && m.binStream != nil {
		if k, ok := m.binStream(op); ok {
			return k, true
		}
	}
	return m.bin(op)
}

// unFor is binFor for unary ops.
func (m *impl[T]) unFor(op expr.Op, stream bool) (func(d, a []T), bool) {
	if stream && m.unStream != nil {
		if f, ok := m.unStream(op); ok {
			return f, true
		}
	}
	return m.un(op)
}

func (m *impl[T]) unaryInstr(op expr.Op, d *slot[T], src slotAny, argType dtype.DType, cs *castScratch, stream bool) (func(n int), error) {
	if isPredicate(op) {
		return predicateInstr(op, any(d).(*slot[bool]), src, argType)
	}
	switch op {
	case expr.OpCast:
		path := castPath(argType, dtype.Of[T]())
		return func(n int) {
			if d.scalar {
				cs.cast(path, d.out(1), src.block(1), 1)
				d.s = d.one[0]
				return
			}
			cs.cast(path, d.out(n), src.block(n), n)
		}, nil
	case expr.OpReal, expr.OpImag, expr.OpCAbs:
		parts := typedFor(argType).(partsTaker)
		return func(n int) {
			if d.scalar {
				parts.parts(op, d.out(1), src.block(1))
				d.s = d.one[0]
				return
			}
			parts.parts(op, d.out(n), src.block(n))
		}, nil
	}
	f, ok := m.unFor(op, stream && !d.scalar)
	if !ok {
		return nil, fmt.Errorf("exec: no %s kernel for %s", op, dtype.Of[T]())
	}
	a := src.(*slot[T])
	if d.scalar {
		return func(int) {
			a.one[0] = a.s
			f(d.one[:], a.one[:])
			d.s = d.one[0]
		}, nil
	}
	return func(n int) { f(d.v[:n], a.v[:n]) }, nil
}

// partsTaker is implemented by the complex impls: real, imag and |z|.
type partsTaker interface {
	parts(op expr.Op, d any, a any)
}

func (m *impl[T]) parts(op expr.Op, d any, a any) { m.realOf(op, d, a) }

// binaryInstr is: for i := range d { d[i] = op(a[i], b[i]) }, with the loop
// variant chosen once for which operands are scalars. Arithmetic (U = T)
// and comparisons (U = bool) share it.
func binaryInstr[T, U dtype.Elem](k pairFns[T, U], d *slot[U], a, b *slot[T]) func(n int) {
	switch {
	case d.scalar:
		return func(int) {
			a.one[0] = a.s
			k.vs(d.one[:], a.one[:], b.s)
			d.s = d.one[0]
		}
	case a.scalar:
		return func(n int) { k.sv(d.v[:n], a.s, b.v[:n]) }
	case b.scalar:
		return func(n int) { k.vs(d.v[:n], a.v[:n], b.s) }
	}
	return func(n int) { k.vv(d.v[:n], a.v[:n], b.v[:n]) }
}

func compareInstr[T dtype.Elem](op expr.Op, dAny *slot[T], args []slotAny, argType dtype.DType) (func(n int), error) {
	d := any(dAny).(*slot[bool])
	return typedFor(argType).(comparer).compareTo(op, d, args[0], args[1])
}

// comparer builds comparison kernels, which read one type and write bools.
type comparer interface {
	compareTo(op expr.Op, d *slot[bool], a, b slotAny) (func(n int), error)
}

func (m *impl[T]) compareTo(op expr.Op, d *slot[bool], as, bs slotAny) (func(n int), error) {
	k, ok := m.cmp(op)
	if !ok {
		return nil, fmt.Errorf("exec: no %s kernel for %s", op, dtype.Of[T]())
	}
	return binaryInstr(k, d, as.(*slot[T]), bs.(*slot[T])), nil
}

// whereInstr is: for i := range d { if c[i] { d[i] = a[i] } else { d[i] = b[i] } }
// with the loop chosen once for which operands are scalars.
func whereInstr[T dtype.Elem](d *slot[T], c *slot[bool], a, b *slot[T]) func(n int) {
	switch {
	case d.scalar:
		return func(int) {
			if c.s {
				d.s = a.s
			} else {
				d.s = b.s
			}
		}
	case c.scalar:
		// One branch for the whole block.
		return func(n int) {
			src := b
			if c.s {
				src = a
			}
			if src.scalar {
				fill(d.v[:n], src.s)
			} else {
				copy(d.v[:n], src.v[:n])
			}
		}
	case a.scalar && b.scalar:
		return func(n int) { whereSS(d.v[:n], c.v[:n], a.s, b.s) }
	}
	vv, vs, sv := whereVV[T], whereVS[T], whereSV[T]
	if w, ok := simdWhere[T](); ok {
		vv, vs, sv = w.vv, w.vs, w.sv
	}
	switch {
	case a.scalar:
		return func(n int) { sv(d.v[:n], c.v[:n], a.s, b.v[:n]) }
	case b.scalar:
		return func(n int) { vs(d.v[:n], c.v[:n], a.v[:n], b.s) }
	}
	return func(n int) { vv(d.v[:n], c.v[:n], a.v[:n], b.v[:n]) }
}

func whereVV[T any](d []T, c []bool, a, b []T) {
	c, a, b = c[:len(d)], a[:len(d)], b[:len(d)]
	for i := range d {
		if c[i] {
			d[i] = a[i]
		} else {
			d[i] = b[i]
		}
	}
}

func whereVS[T any](d []T, c []bool, a []T, y T) {
	c, a = c[:len(d)], a[:len(d)]
	for i := range d {
		if c[i] {
			d[i] = a[i]
		} else {
			d[i] = y
		}
	}
}

func whereSV[T any](d []T, c []bool, x T, b []T) {
	c, b = c[:len(d)], b[:len(d)]
	for i := range d {
		if c[i] {
			d[i] = x
		} else {
			d[i] = b[i]
		}
	}
}

func whereSS[T any](d []T, c []bool, x, y T) {
	c = c[:len(d)]
	for i := range d {
		if c[i] {
			d[i] = x
		} else {
			d[i] = y
		}
	}
}

func fill[T any](d []T, v T) {
	for i := range d {
		d[i] = v
	}
}
