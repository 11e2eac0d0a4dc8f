package expr

import (
	"fmt"
	"slices"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// Shape ops that build a new value from pieces of their operands (issue
// 23): concatenate, stack and roll are assemble nodes (assemble.go); pad
// and repeat are too, or compositions of them; tile is a broadcast view
// read through a reshape. All are lazy: nothing is computed here.

// JoinError reports pieces of a Concatenate or Stack that do not fit
// together: ranks or extents that differ, naming the pieces' shapes, the
// piece and the dimension.
type JoinError struct {
	Op     string         // "concatenate" or "stack"
	Shapes []tensor.Shape // every piece's shape
	Index  int            // the piece that does not fit the first
	Dim    int            // the dimension where it differs; -1 for its rank
}

// Error returns NumPy's message, with the shapes.
func (e *JoinError) Error() string {
	a, b := e.Shapes[0], e.Shapes[e.Index]
	switch {
	case e.Op == "stack":
		return fmt.Sprintf("expr: stack: all input arrays must have the same shape, but the array at index 0 has shape %v and the array at index %d has shape %v", a, e.Index, b)
	case e.Dim < 0:
		return fmt.Sprintf("expr: %s: all the input arrays must have same number of dimensions, but the array at index 0 has %d dimension(s) (shape %v) and the array at index %d has %d dimension(s) (shape %v)",
			e.Op, len(a), a, e.Index, len(b), b)
	}
	return fmt.Sprintf("expr: %s: all the input array dimensions except for the concatenation axis must match exactly, but along dimension %d, the array at index 0 has size %d and the array at index %d has size %d (shapes %v and %v)",
		e.Op, e.Dim, a[e.Dim], e.Index, b[e.Dim], a, b)
}

// Node returns n itself, so that a *Node is an Any (ConcatenateAny returns
// one for an invalid graph).
func (n *Node) Node() *Node { return n }

// Concatenate joins xs along an existing axis (NumPy's concatenate;
// negative axes count from the end). Every extent but the axis's must
// match; each piece is written by its producer straight into its slice of
// the result. For pieces of several dtypes, ConcatenateAny promotes them
// as NumPy does.
func Concatenate[T dtype.Elem](axis int, xs ...Expr[T]) Expr[T] {
	return Expr[T]{concatenate(axis, nodesOf(xs))}
}

// ConcatenateAny is Concatenate for pieces of any dtypes: they are cast
// to NumPy's promoted dtype (dtype.PromoteNumPy: int32 with float32 gives
// float64), and the result is an Expr of that dtype (an Expr[float64] for
// that example), or, for an invalid graph, a *Node carrying the error.
func ConcatenateAny(axis int, xs ...Any) Any {
	ns := make([]*Node, len(xs))
	for i, x := range xs {
		ns[i] = nodeOf(x)
	}
	if bad := firstErr(OpAssemble, ns...); bad != nil {
		return bad
	}
	dt := dtype.Invalid
	for i, n := range ns {
		if i == 0 {
			dt = n.dt
		} else {
			dt = dtype.PromoteNumPy(dt, n.dt)
		}
	}
	for i, n := range ns {
		if n.dt != dt {
			ns[i] = cast(n, dt)
		}
	}
	return typedAny(concatenate(axis, ns))
}

func nodesOf[T dtype.Elem](xs []Expr[T]) []*Node {
	ns := make([]*Node, len(xs))
	for i, x := range xs {
		ns[i] = x.Node()
	}
	return ns
}

func concatenate(axis int, xs []*Node) *Node {
	const op = "concatenate"
	if len(xs) == 0 {
		return errNode(OpAssemble, &ShapeOpError{Op: op, Reason: "need at least one array to concatenate"})
	}
	if bad := firstErr(OpAssemble, xs...); bad != nil {
		return bad
	}
	first := xs[0].shape
	if len(first) == 0 {
		return errNode(OpAssemble, &ShapeOpError{Op: op, Reason: "zero-dimensional arrays cannot be concatenated"})
	}
	shapes := make([]tensor.Shape, len(xs))
	for i, x := range xs {
		shapes[i] = x.shape
	}
	for i, s := range shapes {
		if len(s) != len(first) {
			return errNode(OpAssemble, &JoinError{Op: op, Shapes: shapes, Index: i, Dim: -1})
		}
	}
	p, err := tensor.Axis(axis, len(first))
	if err != nil {
		return errNode(OpAssemble, err)
	}
	out := first.Clone()
	out[p] = 0
	pieces := make([]Piece, len(xs))
	for i, s := range shapes {
		for k := range s {
			if k != p && s[k] != first[k] && s[k] >= 0 && first[k] >= 0 {
				return errNode(OpAssemble, &JoinError{Op: op, Shapes: shapes, Index: i, Dim: k})
			}
		}
		at := make([]int, len(s))
		at[p] = out[p]
		pieces[i] = Piece{Arg: i, At: at, Size: slices.Clone(s)}
		if s[p] > 0 && out[p] > maxInt-s[p] {
			return errNode(OpAssemble, &tensor.ShapeError{Shape: out, Axis: p, Reason: "number of elements overflows int"})
		}
		out[p] += s[p]
	}
	if len(xs) == 1 {
		return xs[0]
	}
	return assemble(op, xs[0].dt, out, pieces, xs)
}

// Stack joins xs, all of one shape, along a new axis inserted at axis of
// the result (NumPy's stack; negative axes count in the result's rank).
func Stack[T dtype.Elem](axis int, xs ...Expr[T]) Expr[T] {
	const op = "stack"
	ns := nodesOf(xs)
	if len(ns) == 0 {
		return Expr[T]{errNode(OpAssemble, &ShapeOpError{Op: op, Reason: "need at least one array to stack"})}
	}
	if bad := firstErr(OpAssemble, ns...); bad != nil {
		return Expr[T]{bad}
	}
	shapes := make([]tensor.Shape, len(ns))
	for i, n := range ns {
		shapes[i] = n.shape
	}
	for i, s := range shapes {
		if !s.Equal(shapes[0]) {
			return Expr[T]{errNode(OpAssemble, &JoinError{Op: op, Shapes: shapes, Index: i})}
		}
	}
	p, err := tensor.Axis(axis, len(shapes[0])+1)
	if err != nil {
		return Expr[T]{errNode(OpAssemble, err)}
	}
	size := slices.Insert(slices.Clone([]int(shapes[0])), p, 1)
	out := slices.Clone(size)
	out[p] = len(ns)
	pieces := make([]Piece, len(ns))
	for i := range ns {
		at := make([]int, len(size))
		at[p] = i
		pieces[i] = Piece{Arg: i, At: at, Size: size}
	}
	return Expr[T]{assemble(op, dtype.Of[T](), out, pieces, ns)}
}

// typedAny returns n as the Expr of its dtype, or n itself when it is
// invalid.
func typedAny(n *Node) Any {
	if n.err != nil {
		return n
	}
	switch n.dt {
	case dtype.Bool:
		return Expr[bool]{n}
	case dtype.Int8:
		return Expr[int8]{n}
	case dtype.Int16:
		return Expr[int16]{n}
	case dtype.Int32:
		return Expr[int32]{n}
	case dtype.Int64:
		return Expr[int64]{n}
	case dtype.Uint8:
		return Expr[uint8]{n}
	case dtype.Uint16:
		return Expr[uint16]{n}
	case dtype.Uint32:
		return Expr[uint32]{n}
	case dtype.Uint64:
		return Expr[uint64]{n}
	case dtype.Float32:
		return Expr[float32]{n}
	case dtype.Float64:
		return Expr[float64]{n}
	case dtype.Complex64:
		return Expr[complex64]{n}
	case dtype.Complex128:
		return Expr[complex128]{n}
	}
	return n
}

// Roll shifts the elements by shift along each of axes, wrapping around
// (NumPy's roll; negative shifts go backward). Without axes it rolls the
// flattened value and keeps the shape.
func (x Expr[T]) Roll(shift int, axes ...int) Expr[T] {
	a := x.Node()
	if a.err != nil {
		return x
	}
	if len(axes) == 0 {
		return x.Flatten().RollAxes([]int{shift}, []int{0}).Reshape(a.shape...)
	}
	shifts := make([]int, len(axes))
	for i := range shifts {
		shifts[i] = shift
	}
	return x.RollAxes(shifts, axes)
}

// RollAxes shifts by shifts[i] along axes[i]; an axis named twice adds its
// shifts (NumPy's roll with tuples).
func (x Expr[T]) RollAxes(shifts, axes []int) Expr[T] {
	const op = "roll"
	a := x.Node()
	if a.err != nil {
		return x
	}
	if len(shifts) != len(axes) {
		return Expr[T]{errNode(OpAssemble, &ShapeOpError{Op: op, Reason: fmt.Sprintf("%d shifts %v for %d axes %v", len(shifts), shifts, len(axes), axes)})}
	}
	r := len(a.shape)
	total := make([]int, r)
	for i, ax := range axes {
		p, err := tensor.Axis(ax, r)
		if err != nil {
			return Expr[T]{errNode(OpAssemble, err)}
		}
		if n := a.shape[p]; n > 0 {
			total[p] = ((total[p]+shifts[i]%n)%n + n) % n
		}
	}
	// Per axis, one run (no shift) or two: out[s:] = in[:n-s], out[:s] = in[n-s:].
	runs := make([][]run, r)
	for k, n := range a.shape {
		s := total[k]
		if s == 0 {
			runs[k] = []run{{at: 0, from: 0, size: n}}
		} else {
			runs[k] = []run{{at: s, from: 0, size: n - s}, {at: 0, from: n - s, size: s}}
		}
	}
	if slices.Equal(total, make([]int, r)) {
		return x
	}
	return Expr[T]{assemble(op, a.dt, a.shape, productPieces(runs), []*Node{a})}
}

// run is a stretch of one axis of an assembled value: size elements from
// at, read from `from` on in the operand, or from `from` alone, repeated
// (spread).
type run struct {
	at, from, size int
	spread         bool
}

// productPieces returns a piece of operand 0 for every combination of one
// run per axis.
func productPieces(runs [][]run) []Piece {
	pieces := []Piece{{At: []int{}, Size: []int{}, From: []int{}, Spread: []bool{}}}
	for _, rs := range runs {
		next := make([]Piece, 0, len(pieces)*len(rs))
		for _, p := range pieces {
			for _, rn := range rs {
				next = append(next, Piece{
					At: append(slices.Clone(p.At), rn.at), Size: append(slices.Clone(p.Size), rn.size),
					From: append(slices.Clone(p.From), rn.from), Spread: append(slices.Clone(p.Spread), rn.spread)})
			}
		}
		pieces = next
	}
	return pieces
}

// Tile repeats x reps[k] times along each axis (NumPy's tile): reps
// shorter than the rank are padded with leading 1s, and a longer reps
// gives x leading axes of extent 1. It is a broadcast view of x read
// through a reshape.
func (x Expr[T]) Tile(reps ...int) Expr[T] {
	a := x.Node()
	if a.err != nil {
		return x
	}
	d := max(len(reps), len(a.shape))
	rs := make([]int, d)
	ss := make([]int, d)
	for i := range d {
		rs[i], ss[i] = 1, 1
	}
	copy(rs[d-len(reps):], reps)
	copy(ss[d-len(a.shape):], a.shape)
	inter := make([]int, 0, 2*d) // [1, s0, 1, s1, …]
	wide := make([]int, 0, 2*d)  // [r0, s0, r1, s1, …]
	out := make([]int, 0, d)     // [r0*s0, r1*s1, …]
	for i := range d {
		if rs[i] < 0 {
			return Expr[T]{errNode(OpExpand, &ShapeOpError{Op: "tile", Reason: fmt.Sprintf("negative repetition %d at dimension %d in %v", rs[i], i, reps)})}
		}
		if rs[i] != 0 && ss[i] > maxInt/rs[i] {
			return Expr[T]{errNode(OpExpand, &tensor.ShapeError{Shape: ss, Axis: i, Reason: "number of elements overflows int"})}
		}
		inter = append(inter, 1, ss[i])
		wide = append(wide, rs[i], ss[i])
		out = append(out, rs[i]*ss[i])
	}
	return x.Reshape(inter...).Expand(wide...).Reshape(out...)
}

// Repeat repeats each element along axis (NumPy's repeat; without an axis,
// of the flattened value): counts is one count for every element, or one
// per element along the axis. Per-element counts are a concrete slice, so
// that the result's shape is known when the graph is built.
func (x Expr[T]) Repeat(counts []int, axis ...int) Expr[T] {
	const op = "repeat"
	a := x.Node()
	if a.err != nil {
		return x
	}
	if len(axis) > 1 {
		return Expr[T]{errNode(OpAssemble, &ShapeOpError{Op: op, Reason: fmt.Sprintf("one axis, not %v", axis)})}
	}
	if len(axis) == 0 {
		return x.Flatten().Repeat(counts, 0)
	}
	p, err := tensor.Axis(axis[0], len(a.shape))
	if err != nil {
		return Expr[T]{errNode(OpAssemble, err)}
	}
	n := a.shape[p]
	for i, c := range counts {
		if c < 0 {
			return Expr[T]{errNode(OpAssemble, &ShapeOpError{Op: op, Reason: fmt.Sprintf("negative count %d at %d: negative dimensions are not allowed", c, i)})}
		}
	}
	switch {
	case len(counts) == 1:
		c := counts[0]
		inter := slices.Insert(slices.Clone([]int(a.shape)), p+1, 1)
		wide := slices.Clone(inter)
		wide[p+1] = c
		out := a.shape.Clone()
		out[p] = n * c
		if c != 0 && out[p]/c != n {
			return Expr[T]{errNode(OpAssemble, &tensor.ShapeError{Shape: out, Axis: p, Reason: "number of elements overflows int"})}
		}
		return x.Reshape(inter...).Expand(wide...).Reshape(out...)
	case len(counts) != n:
		return Expr[T]{errNode(OpAssemble, &ShapeOpError{Op: op, Reason: fmt.Sprintf("%d counts for %d elements along dimension %d of shape %v", len(counts), n, p, a.shape)})}
	}
	// Per-element counts: a run of elements repeated once is one piece,
	// an element repeated c > 1 times another.
	var rs []run
	at := 0
	for i := 0; i < n; {
		c := counts[i]
		if c == 1 {
			j := i
			for j < n && counts[j] == 1 {
				j++
			}
			rs = append(rs, run{at: at, from: i, size: j - i})
			at += j - i
			i = j
			continue
		}
		if c > 1 {
			rs = append(rs, run{at: at, from: i, size: c, spread: true})
		}
		if at > maxInt-c {
			return Expr[T]{errNode(OpAssemble, &tensor.ShapeError{Shape: a.shape, Axis: p, Reason: "number of elements overflows int"})}
		}
		at += c
		i++
	}
	out := a.shape.Clone()
	out[p] = at
	return Expr[T]{assemble(op, a.dt, out, axisPieces(a.shape, p, rs), []*Node{a})}
}

// axisPieces returns a piece of operand 0 per run along axis p, each
// spanning the whole of the other axes of shape.
func axisPieces(shape tensor.Shape, p int, rs []run) []Piece {
	runs := make([][]run, len(shape))
	for k, d := range shape {
		runs[k] = []run{{size: d}}
	}
	runs[p] = rs
	return productPieces(runs)
}
