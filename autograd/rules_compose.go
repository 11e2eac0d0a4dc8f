package autograd

import (
	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
)

// The gradient of an assembled value (concatenate, stack, roll, pad,
// repeat; issue 23). Each piece sends its box of the upstream gradient back
// to the part of its operand it read, summed over the axes it spread that
// part along. An operand whose parts are disjoint gets one assemble of its
// contributions (concatenate and stack: slices of g; roll: g rolled back);
// parts that overlap (the borders pad's edge, reflect, symmetric and wrap
// modes read from the interior) go to further layers of disjoint parts,
// each an assemble with zeros where it has none, and the layers are added.
// Tile and repeat with one count are reshapes and expands, tril and triu
// a Where, trace a Where and a Sum: their own rules differentiate them.

func addComposeRules[T dtype.Float](t *[expr.NumOps]vjp[T]) {
	t[expr.OpAssemble] = assembleGrad[T]
}

// part is a contribution to an operand's gradient: value v for the box at
// of extents size in the operand.
type part[T dtype.Float] struct {
	at, size []int
	v        expr.Expr[T]
}

func assembleGrad[T dtype.Float](n *expr.Node, g expr.Expr[T]) []expr.Any {
	args := n.Args()
	parts := make([][]part[T], len(args))
	for _, p := range n.Pieces() {
		a := args[p.Arg]
		if a.Op() == expr.OpScalar {
			continue // a constant fill (pad)
		}
		box := g
		for k, at := range p.At {
			if at != 0 || p.Size[k] != g.Shape()[k] {
				box = box.Slice(k, at, at+p.Size[k], 1)
			}
		}
		as := a.Shape()
		var c part[T]
		switch {
		case p.Whole() && len(as) == 0:
			c = part[T]{v: box.Sum()}
		case p.Whole():
			c = part[T]{at: make([]int, len(as)), size: as.Clone(), v: box.Reshape(as...)}
		default:
			var spread []int
			c = part[T]{at: p.From, size: make([]int, len(as))}
			for k, s := range p.Size {
				c.size[k] = s
				if p.Spread != nil && p.Spread[k] {
					c.size[k] = 1
					if s > 1 {
						spread = append(spread, k)
					}
				}
			}
			c.v = box
			if len(spread) > 0 {
				c.v = box.SumKeepDims(spread...)
			}
		}
		parts[p.Arg] = append(parts[p.Arg], c)
	}
	out := make([]expr.Any, len(args))
	for i, a := range args {
		if a.Op() == expr.OpScalar {
			continue
		}
		out[i] = gather(a.Shape(), parts[i])
	}
	return out
}

// gather adds the parts of an operand of the given shape into its gradient.
func gather[T dtype.Float](shape []int, parts []part[T]) expr.Expr[T] {
	var layers [][]part[T]
	for _, c := range parts {
		placed := false
		for l := range layers {
			if !overlapsAny(c, layers[l]) {
				layers[l] = append(layers[l], c)
				placed = true
				break
			}
		}
		if !placed {
			layers = append(layers, []part[T]{c})
		}
	}
	var sum expr.Expr[T]
	for i, l := range layers {
		v := layer(shape, l)
		if i == 0 {
			sum = v
		} else {
			sum = sum.Add(v)
		}
	}
	if len(layers) == 0 { // an operand of no elements
		sum = zero[T]().Expand(shape...)
	}
	return sum
}

// layer assembles disjoint parts into a tensor of the given shape, with
// zeros where no part is.
func layer[T dtype.Float](shape []int, parts []part[T]) expr.Expr[T] {
	total := volume(shape)
	if total == 0 {
		return zero[T]().Expand(shape...)
	}
	covered := 0
	for _, c := range parts {
		covered += volume(c.size)
	}
	if len(parts) == 1 && covered == total {
		return parts[0].v
	}
	pieces := make([]expr.Piece, 0, len(parts)+1)
	vals := make([]expr.Expr[T], 0, len(parts)+1)
	for i, c := range parts {
		pieces = append(pieces, expr.Piece{Arg: i, At: c.at, Size: c.size})
		vals = append(vals, c.v)
	}
	if covered < total {
		for _, box := range complement(shape, parts) {
			pieces = append(pieces, expr.Piece{Arg: len(parts), At: box[0], Size: box[1]})
		}
		vals = append(vals, zero[T]())
	}
	return expr.Assemble(shape, pieces, vals...)
}

func volume(s []int) int {
	n := 1
	for _, d := range s {
		n *= d
	}
	return n
}

func overlapsAny[T dtype.Float](c part[T], l []part[T]) bool {
	for _, d := range l {
		if boxesMeet(c.at, c.size, d.at, d.size) {
			return true
		}
	}
	return false
}

func boxesMeet(a, as, b, bs []int) bool {
	for k := range a {
		if a[k] >= b[k]+bs[k] || b[k] >= a[k]+as[k] {
			return false
		}
	}
	return true
}

// complement returns boxes ({at, size}) covering what parts leave of
// shape: the cells of the grid their edges cut the shape into that no part
// holds.
func complement[T dtype.Float](shape []int, parts []part[T]) [][2][]int {
	r := len(shape)
	cuts := make([][]int, r)
	for k, d := range shape {
		set := map[int]bool{0: true, d: true}
		for _, c := range parts {
			set[c.at[k]] = true
			set[c.at[k]+c.size[k]] = true
		}
		for v := range set {
			cuts[k] = append(cuts[k], v)
		}
		sortInts(cuts[k])
	}
	var out [][2][]int
	idx := make([]int, r)
	for {
		at, size := make([]int, r), make([]int, r)
		empty := false
		for k := range r {
			at[k] = cuts[k][idx[k]]
			size[k] = cuts[k][idx[k]+1] - at[k]
			empty = empty || size[k] == 0
		}
		if !empty && !overlapsAny(part[T]{at: at, size: size}, parts) {
			out = append(out, [2][]int{at, size})
		}
		k := r - 1
		for k >= 0 {
			idx[k]++
			if idx[k] < len(cuts[k])-1 {
				break
			}
			idx[k] = 0
			k--
		}
		if k < 0 {
			return out
		}
	}
}

func sortInts(s []int) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
