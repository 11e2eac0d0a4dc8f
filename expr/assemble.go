package expr

import (
	"fmt"
	"slices"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// An assemble node is a value built from pieces: each Piece is a box of
// the result filled from one operand. Concatenate, Stack, Roll, Pad and
// Repeat with per-element counts build one; the executor writes each
// piece's producer straight into its box of the result, so a concatenate
// of computed pieces makes no temporaries (see docs/shape-ops.md).

// A Piece fills the box At[k] ≤ i[k] < At[k]+Size[k] of an assembled value
// from operand Arg of the node.
//
// With From nil the piece is the whole operand, computed into the box: the
// operand's shape is Size, or Size with its extent-1 axes removed (a piece
// of Stack), or the operand is 0-d and fills the box (Pad's constant).
//
// With From set the operand has the result's rank and the piece reads the
// box of it that starts at From: From[k] … From[k]+Size[k]-1 along axis k,
// or From[k] alone, repeated Size[k] times, where Spread[k] is true.
type Piece struct {
	Arg    int
	At     []int
	Size   []int
	From   []int
	Spread []bool
}

// Whole reports whether the piece is its whole operand (From is nil).
func (p Piece) Whole() bool { return p.From == nil }

// Numel returns the number of elements of the piece's box.
func (p Piece) Numel() int {
	n := 1
	for _, d := range p.Size {
		n *= d
	}
	return n
}

// Pieces returns the pieces of an assemble node (nil for any other node);
// the slice must not be modified.
func (n *Node) Pieces() []Piece {
	if n.ext == nil {
		return nil
	}
	return n.ext.pieces
}

// Assemble returns the value of the given shape whose boxes are filled by
// pieces of args: the lower-level form of Concatenate, Stack, Roll and Pad.
// The pieces must cover the shape exactly, each element once; a piece
// outside the shape or its operand, or pieces that overlap or leave
// elements uncovered, make a *ShapeOpError.
func Assemble[T dtype.Elem](shape []int, pieces []Piece, args ...Expr[T]) Expr[T] {
	nodes := make([]*Node, len(args))
	for i, a := range args {
		nodes[i] = a.Node()
	}
	return Expr[T]{assemble("assemble", dtype.Of[T](), shape, pieces, nodes)}
}

// assemble builds an assemble node; op names the caller in errors.
func assemble(op string, dt dtype.DType, shape []int, pieces []Piece, args []*Node) *Node {
	n, ok := newNode(OpAssemble, args...)
	if !ok {
		return n
	}
	if len(args) == 0 {
		n.err = &ShapeOpError{Op: op, Reason: "needs at least one operand"}
		return n
	}
	for i, a := range args {
		if a.sym() != nil {
			n.err = &ShapeOpError{Op: op, Reason: fmt.Sprintf("operand %d has the symbolic shape %v: specialise the graph first", i, a.Dims())}
			return n
		}
		if a.dt != dt {
			n.err = &ShapeOpError{Op: op, Reason: fmt.Sprintf("operand %d is %s, the result %s (cast it first)", i, a.dt, dt)}
			return n
		}
	}
	s := tensor.Shape(shape).Clone()
	total, err := s.Numel()
	if err != nil {
		n.err = err
		return n
	}
	var kept []Piece
	covered := 0
	for i, p := range pieces {
		if err := checkPiece(op, i, p, s, args); err != nil {
			n.err = err
			return n
		}
		if v := p.Numel(); v > 0 {
			kept = append(kept, clonePiece(p))
			covered += v
		}
	}
	if covered != total {
		n.err = &ShapeOpError{Op: op, Reason: fmt.Sprintf("pieces of %d elements for a result of shape %v (%d elements)", covered, s, total)}
		return n
	}
	for i := range kept {
		for j := range i {
			if boxesOverlap(kept[i], kept[j]) {
				n.err = &ShapeOpError{Op: op, Reason: fmt.Sprintf("pieces at %v and %v overlap", kept[j].At, kept[i].At)}
				return n
			}
		}
	}
	n.dt = dt
	n.extra().pieces = kept
	setShape(n, s)
	return n
}

// checkPiece checks that piece i lies inside the result and its operand.
func checkPiece(op string, i int, p Piece, s tensor.Shape, args []*Node) error {
	bad := func(format string, a ...any) error {
		return &ShapeOpError{Op: op, Reason: fmt.Sprintf("piece %d: ", i) + fmt.Sprintf(format, a...)}
	}
	if p.Arg < 0 || p.Arg >= len(args) {
		return bad("operand %d of %d", p.Arg, len(args))
	}
	if len(p.At) != len(s) || len(p.Size) != len(s) {
		return bad("box at %v of size %v for a result of shape %v", p.At, p.Size, s)
	}
	for k := range s {
		if p.At[k] < 0 || p.Size[k] < 0 || p.At[k] > s[k]-p.Size[k] {
			return bad("box at %v of size %v leaves the result's shape %v at dimension %d", p.At, p.Size, s, k)
		}
	}
	a := args[p.Arg].shape
	if p.Whole() {
		if len(a) == 0 || a.Equal(tensor.Shape(p.Size)) || slices.Equal(withoutOnes(a), withoutOnes(p.Size)) {
			return nil
		}
		return bad("operand of shape %v does not fill a box of size %v", a, p.Size)
	}
	if len(p.From) != len(s) || len(a) != len(s) || (p.Spread != nil && len(p.Spread) != len(s)) {
		return bad("reads from %v of an operand of shape %v for a result of rank %d", p.From, a, len(s))
	}
	for k := range s {
		take := p.Size[k]
		if p.Spread != nil && p.Spread[k] {
			take = min(take, 1)
		}
		if p.From[k] < 0 || p.From[k] > a[k]-take {
			return bad("reads %d elements from %d at dimension %d of an operand of shape %v", take, p.From[k], k, a)
		}
	}
	return nil
}

func withoutOnes(s []int) []int {
	var out []int
	for _, d := range s {
		if d != 1 {
			out = append(out, d)
		}
	}
	return out
}

func clonePiece(p Piece) Piece {
	return Piece{Arg: p.Arg, At: slices.Clone(p.At), Size: slices.Clone(p.Size), From: slices.Clone(p.From), Spread: slices.Clone(p.Spread)}
}

// boxesOverlap reports whether the result boxes of a and b share an element.
func boxesOverlap(a, b Piece) bool {
	for k := range a.At {
		if a.At[k] >= b.At[k]+b.Size[k] || b.At[k] >= a.At[k]+a.Size[k] {
			return false
		}
	}
	return true
}

// samePieces reports whether two piece lists are equal.
func samePieces(a, b []Piece) bool {
	return slices.EqualFunc(a, b, func(p, q Piece) bool {
		return p.Arg == q.Arg && slices.Equal(p.At, q.At) && slices.Equal(p.Size, q.Size) &&
			slices.Equal(p.From, q.From) && slices.Equal(p.Spread, q.Spread)
	})
}

// PieceKey appends to key an encoding of n's pieces (nothing for a node
// without pieces) that differs between any two different piece lists: the
// part of a node's attributes that plan caches and signatures key on
// besides its shape, axes and slice.
func PieceKey(key []uint64, n *Node) []uint64 {
	ps := n.Pieces()
	if ps == nil {
		return key
	}
	key = append(key, uint64(len(ps)))
	ints := func(v []int) {
		key = append(key, uint64(len(v)))
		for _, x := range v {
			key = append(key, uint64(x))
		}
	}
	for _, p := range ps {
		key = append(key, uint64(p.Arg))
		ints(p.At)
		ints(p.Size)
		ints(p.From)
		key = append(key, uint64(len(p.Spread)))
		for _, b := range p.Spread {
			if b {
				key = append(key, 1)
			} else {
				key = append(key, 0)
			}
		}
	}
	return key
}

// SamePieces reports whether nodes n and m have equal pieces.
func SamePieces(n, m *Node) bool { return samePieces(n.Pieces(), m.Pieces()) }

// printPieces prints an assemble node's pieces: operand (from where, or
// repeated along axes marked *) -> box.
func printPieces(n *Node) string {
	var b []byte
	for i, p := range n.Pieces() {
		if i > 0 {
			b = append(b, ' ')
		}
		b = fmt.Appendf(b, "#%d", p.Arg)
		if !p.Whole() {
			b = append(b, '[')
			for k, f := range p.From {
				if k > 0 {
					b = append(b, ',')
				}
				b = fmt.Appendf(b, "%d", f)
				if p.Spread != nil && p.Spread[k] {
					b = append(b, '*')
				}
			}
			b = append(b, ']')
		}
		b = fmt.Appendf(b, "->%s+%s", compactShape(p.At), compactShape(p.Size))
	}
	return " " + string(b)
}
