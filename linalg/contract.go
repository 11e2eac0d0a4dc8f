package linalg

import (
	"slices"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
)

// term is an expression with a label per axis.
type term[T dtype.Numeric] struct {
	e      expr.Expr[T]
	labels []label
}

// diagonals replaces every label repeated in t by one axis holding the
// diagonal: the repeated axes are moved last and merged by a reshape, and
// the diagonal is the slice of that axis with step 1 + n + n² + … (the
// distance between [i, i, …] and [i+1, i+1, …]).
func (t term[T]) diagonals() term[T] {
	for {
		l, ok := repeated(t.labels)
		if !ok {
			return t
		}
		var keep, rep []int
		for ax, m := range t.labels {
			if m == l {
				rep = append(rep, ax)
			} else {
				keep = append(keep, ax)
			}
		}
		shape := t.e.Shape()
		n := shape[rep[0]]
		merged, step := 1, 0
		for range rep {
			step = step*n + 1
			merged *= n
		}
		dims := make([]int, 0, len(keep)+1)
		labels := make([]label, 0, len(keep)+1)
		for _, ax := range keep {
			dims = append(dims, shape[ax])
			labels = append(labels, t.labels[ax])
		}
		e := t.e.Permute(slices.Concat(keep, rep)...).Reshape(append(dims, merged)...)
		if n > 1 {
			e = e.Slice(-1, 0, merged, step)
		}
		t = term[T]{e, append(labels, l)}
	}
}

// repeated returns a label that occurs more than once in ls.
func repeated(ls []label) (label, bool) {
	for i, l := range ls {
		if slices.Contains(ls[i+1:], l) {
			return l, true
		}
	}
	return 0, false
}

// sumUnless sums the axes of t whose labels are not in keep.
func (t term[T]) sumUnless(keep map[label]bool) term[T] {
	var axes []int
	var labels []label
	for ax, l := range t.labels {
		if keep[l] {
			labels = append(labels, l)
		} else {
			axes = append(axes, ax)
		}
	}
	if len(axes) == 0 {
		return t
	}
	return term[T]{t.e.Sum(axes...), labels}
}

// arrange permutes t's axes into the order of labels (which holds each of
// t's labels once).
func (t term[T]) arrange(labels []label) expr.Expr[T] {
	perm := make([]int, len(labels))
	for i, l := range labels {
		perm[i] = slices.Index(t.labels, l)
	}
	if len(perm) == 0 {
		return t.e
	}
	return t.e.Permute(perm...)
}

// extent returns the extent of t's axis labeled l.
func (t term[T]) extent(l label) int { return t.e.Shape()[slices.Index(t.labels, l)] }

// contract multiplies a and b and sums the labels they share that keep
// does not hold; the labels of either alone that keep does not hold are
// summed first. The result's labels are the shared kept ones ("batch"),
// then a's own, then b's own. With something to sum, a is permuted to
// [batch, a's own, summed] and b to [batch, summed, b's own], the own and
// summed groups are merged by reshapes, and one batched MatMul does the
// rest (its batch axes broadcast); with nothing to sum, a broadcasting Mul
// of the two, each reshaped with size-1 axes for the other's own labels.
func contract[T dtype.Numeric](a, b term[T], keep map[label]bool) term[T] {
	both := map[label]bool{}
	for _, l := range a.labels {
		if slices.Contains(b.labels, l) {
			both[l] = true
		}
	}
	keepOrShared := func(l label) bool { return keep[l] || both[l] }
	aKeep, bKeep := map[label]bool{}, map[label]bool{}
	for _, l := range a.labels {
		aKeep[l] = keepOrShared(l)
	}
	for _, l := range b.labels {
		bKeep[l] = keepOrShared(l)
	}
	a, b = a.sumUnless(aKeep), b.sumUnless(bKeep)
	var batch, summed, ownA, ownB []label
	for _, l := range a.labels {
		switch {
		case both[l] && keep[l]:
			batch = append(batch, l)
		case both[l]:
			summed = append(summed, l)
		default:
			ownA = append(ownA, l)
		}
	}
	for _, l := range b.labels {
		if !both[l] {
			ownB = append(ownB, l)
		}
	}
	// A summed label of extent 1 on one side and n on the other: broadcast.
	for _, l := range summed {
		if ea, eb := a.extent(l), b.extent(l); ea != eb {
			if ea == 1 {
				a = a.expandTo(l, eb)
			} else {
				b = b.expandTo(l, ea)
			}
		}
	}
	out := slices.Concat(batch, ownA, ownB)
	if len(summed) == 0 {
		ea := a.arrange(slices.Concat(batch, ownA)).Reshape(slices.Concat(a.dims(batch), a.dims(ownA), ones(len(ownB)))...)
		eb := b.arrange(slices.Concat(batch, ownB)).Reshape(slices.Concat(b.dims(batch), ones(len(ownA)), b.dims(ownB))...)
		return term[T]{ea.Mul(eb), out}
	}
	k := prod(a.dims(summed))
	fa, fb := prod(a.dims(ownA)), prod(b.dims(ownB))
	ea := a.arrange(slices.Concat(batch, ownA, summed)).Reshape(slices.Concat(a.dims(batch), []int{fa, k})...)
	eb := b.arrange(slices.Concat(batch, summed, ownB)).Reshape(slices.Concat(b.dims(batch), []int{k, fb})...)
	mm := ea.MatMul(eb)
	bdims := mm.Shape()[:len(batch)]
	return term[T]{mm.Reshape(slices.Concat(bdims, a.dims(ownA), b.dims(ownB))...), out}
}

// expandTo broadcasts t's size-1 axis labeled l to extent n.
func (t term[T]) expandTo(l label, n int) term[T] {
	shape := []int(t.e.Shape().Clone())
	shape[slices.Index(t.labels, l)] = n
	return term[T]{t.e.Expand(shape...), t.labels}
}

// dims returns the extents of t's axes labeled ls.
func (t term[T]) dims(ls []label) []int {
	d := make([]int, len(ls))
	for i, l := range ls {
		d[i] = t.extent(l)
	}
	return d
}

func ones(n int) []int {
	d := make([]int, n)
	for i := range d {
		d[i] = 1
	}
	return d
}

func prod(d []int) int {
	p := 1
	for _, v := range d {
		p *= v
	}
	return p
}
