package linalg

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// Einsum returns the Einstein summation of the operands described by
// subscripts, as numpy.einsum and torch.einsum do, as a lazy expression.
//
// Each operand has a term of letters (a–z, A–Z), one per axis, and the terms
// are separated by commas; "->" and an output term make the output
// explicit, otherwise it is implicit: the letters that occur once, in
// character-code order (upper case first). "..." stands for the axes not
// named by letters; they broadcast across operands (right-aligned) and lead
// an implicit output. A letter repeated in one term takes the diagonal
// ("ii->i"); a letter absent from the output is summed ("ii->" is the
// trace, "ij,jk->ik" the matrix product). Extents of 1 broadcast.
//
// The result is planned onto expr's ops, never a loop per subscript:
// diagonals are strided slices of a reshape, letters found in one operand
// only are summed at once, and the operands are contracted left to right,
// each pair as a batched MatMul (or a broadcasting Mul when nothing is
// contracted) between permutes and reshapes. It is differentiable. Bad
// subscripts are a *tensor.ArgError, mismatched extents a
// *tensor.ShapeError, carried by the result (Err).
func Einsum[T dtype.Numeric](subscripts string, operands ...expr.Expr[T]) expr.Expr[T] {
	for _, o := range operands {
		if err := o.Err(); err != nil {
			return o
		}
	}
	shapes := make([]tensor.Shape, len(operands))
	for i, o := range operands {
		shapes[i] = o.Shape()
	}
	p, err := planEinsum(subscripts, shapes)
	if err != nil {
		return fail[T](err)
	}
	ops := make([]term[T], len(operands))
	for i, o := range operands {
		ops[i] = term[T]{o, p.inputs[i]}
	}
	for i := range ops {
		ops[i] = ops[i].diagonals()
		p.inputs[i] = ops[i].labels
	}
	for i := range ops {
		ops[i] = ops[i].sumUnless(p.needed(i, -1))
		p.inputs[i] = ops[i].labels
	}
	acc := ops[0]
	for i := 1; i < len(ops); i++ {
		acc = contract(acc, ops[i], p.needed(-1, i))
	}
	acc = acc.sumUnless(p.labelSet(p.output))
	return acc.arrange(p.output)
}

// fail is an expression carrying err.
func fail[T dtype.Elem](err error) expr.Expr[T] { return expr.From[T](nil, err) }

// A label names an axis of an einsum: a letter's character code, or
// ellipsisLabel+k for the k-th axis of "..." counted from the right.
type label int

const ellipsisLabel label = 1 << 10

// einsumPlan is parsed, checked subscripts: each operand's labels, one per
// axis (ellipses resolved), and the output's.
type einsumPlan struct {
	inputs [][]label
	output []label
}

// labelSet returns the set of ls.
func (p *einsumPlan) labelSet(ls []label) map[label]bool {
	s := make(map[label]bool, len(ls))
	for _, l := range ls {
		s[l] = true
	}
	return s
}

// needed returns the labels that must survive: the output's and those of
// every operand j other than skip with j > done (the operands not yet
// contracted).
func (p *einsumPlan) needed(skip, done int) map[label]bool {
	s := p.labelSet(p.output)
	for j, ls := range p.inputs {
		if j == skip || j <= done {
			continue
		}
		for _, l := range ls {
			s[l] = true
		}
	}
	return s
}

func planEinsum(subscripts string, shapes []tensor.Shape) (*einsumPlan, error) {
	const op = "linalg.Einsum"
	in, out, explicit := strings.Cut(subscripts, "->")
	terms := strings.Split(in, ",")
	if len(terms) != len(shapes) {
		return nil, &tensor.ArgError{Op: op, Reason: fmt.Sprintf("subscripts %q have %d operand terms for %d operands", subscripts, len(terms), len(shapes))}
	}
	p := &einsumPlan{inputs: make([][]label, len(shapes))}
	extent := map[label]int{}
	maxEllipsis := 0
	count := map[label]int{}
	for i, t := range terms {
		letters, ell, err := parseTerm(op, t)
		if err != nil {
			return nil, err
		}
		r := len(shapes[i])
		nEll := r - len(letters)
		if nEll < 0 || (ell < 0 && nEll != 0) {
			return nil, &tensor.ShapeError{Shape: shapes[i], Axis: -1,
				Reason: fmt.Sprintf("%s: operand %d has %d dimensions, its subscripts %q name %d", op, i, r, t, len(letters))}
		}
		ls := letters
		if ell >= 0 {
			ls = slices.Concat(letters[:ell], ellipsisLabels(nEll), letters[ell:])
			maxEllipsis = max(maxEllipsis, nEll)
		}
		own := map[label]int{}
		for ax, l := range ls {
			d := shapes[i][ax]
			if prev, ok := own[l]; ok && prev != d {
				return nil, &tensor.ShapeError{Shape: shapes[i], Axis: ax,
					Reason: fmt.Sprintf("%s: subscript %s is repeated in operand %d with extents %d and %d", op, l, i, prev, d)}
			}
			own[l] = d
			if prev, ok := extent[l]; ok && prev != d && prev != 1 && d != 1 {
				return nil, &tensor.ShapeError{Shape: shapes[i], Axis: ax,
					Reason: fmt.Sprintf("%s: subscript %s has extent %d in operand %d and %d in an earlier operand", op, l, d, i, prev)}
			}
			if d != 1 || extent[l] == 0 {
				extent[l] = d
			}
		}
		for l := range own {
			count[l]++
		}
		if _, ok := repeated(letters); ok {
			for i, l := range letters {
				if slices.Contains(letters[i+1:], l) {
					count[l]++ // a letter repeated in one term is no implicit output
				}
			}
		}
		p.inputs[i] = ls
	}
	if !explicit {
		p.output = ellipsisLabels(maxEllipsis)
		var once []label
		for l, c := range count {
			if c == 1 && l < ellipsisLabel {
				once = append(once, l)
			}
		}
		slices.Sort(once)
		p.output = append(p.output, once...)
		return p, nil
	}
	letters, ell, err := parseTerm(op, out)
	if err != nil {
		return nil, err
	}
	if ell < 0 && maxEllipsis > 0 {
		return nil, &tensor.ArgError{Op: op, Reason: fmt.Sprintf("subscripts %q: the output has no '...' for the %d broadcast dimensions", subscripts, maxEllipsis)}
	}
	p.output = letters
	if ell >= 0 {
		p.output = slices.Concat(letters[:ell], ellipsisLabels(maxEllipsis), letters[ell:])
	}
	seen := map[label]bool{}
	for _, l := range letters {
		if seen[l] {
			return nil, &tensor.ArgError{Op: op, Reason: fmt.Sprintf("subscripts %q: output subscript %s is repeated", subscripts, l)}
		}
		seen[l] = true
		if _, ok := extent[l]; !ok {
			return nil, &tensor.ArgError{Op: op, Reason: fmt.Sprintf("subscripts %q: output subscript %s is in no operand", subscripts, l)}
		}
	}
	return p, nil
}

// String returns the letter of l, or "..." for an axis of an ellipsis.
func (l label) String() string {
	if l >= ellipsisLabel {
		return "..."
	}
	return string(rune(l))
}

// ellipsisLabels returns the labels of n ellipsis axes, left to right.
func ellipsisLabels(n int) []label {
	ls := make([]label, n)
	for i := range ls {
		ls[i] = ellipsisLabel + label(n-1-i)
	}
	return ls
}

// parseTerm reads one term: its letters and where "..." stands among them
// (-1 without one).
func parseTerm(op, t string) ([]label, int, error) {
	t = strings.TrimSpace(t)
	var ls []label
	ell := -1
	for i := 0; i < len(t); i++ {
		switch ch := t[i]; {
		case ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z':
			ls = append(ls, label(ch))
		case strings.HasPrefix(t[i:], "...") && ell < 0:
			ell = len(ls)
			i += 2
		default:
			return nil, 0, &tensor.ArgError{Op: op, Reason: fmt.Sprintf("invalid subscript %q in term %q (letters and one '...' only)", t[i:i+1], t)}
		}
	}
	return ls, ell, nil
}
