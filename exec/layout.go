package exec

import (
	"fmt"
	"slices"
	"strings"
)

// layout is an iteration space after broadcasting, dropping size-1 axes,
// ordering axes by one operand's strides and merging axes that every operand
// walks as one (PyTorch's coalescing). Axes run outermost first; strides are
// per operand, in elements, 0 where an operand is broadcast.
type layout struct {
	sizes   []int
	strides [][]int // strides[op][axis]
}

// mergeDims builds the layout of an iteration over sizes in which operand op
// steps by strides[op]. Axes are ordered by the strides of operand `order`
// (largest outermost) so that it is walked in memory order; ties keep the
// original order. A 0-d or all-ones space becomes one axis of extent 1.
func mergeDims(sizes []int, strides [][]int, order int) layout {
	var axes []int
	for i, d := range sizes {
		if d != 1 {
			axes = append(axes, i)
		}
	}
	key := strides[order]
	slices.SortStableFunc(axes, func(a, b int) int {
		// Larger strides go outside.
		switch {
		case key[a] > key[b]:
			return -1
		case key[a] < key[b]:
			return 1
		}
		return 0
	})
	return mergeAxes(sizes, strides, axes)
}

// mergeAxes builds the layout of an iteration over the given axes of sizes,
// in that order (outermost first), merging adjacent axes where every
// operand allows.
func mergeAxes(sizes []int, strides [][]int, axes []int) layout {
	l := layout{strides: make([][]int, len(strides))}
	for _, ax := range axes {
		l.sizes = append(l.sizes, sizes[ax])
		for op := range strides {
			l.strides[op] = append(l.strides[op], strides[op][ax])
		}
	}
	// Merge from the inside out: axis k folds into axis k+1 when every
	// operand's stride on k is its stride on k+1 times the extent of k+1.
	for k := len(l.sizes) - 2; k >= 0; k-- {
		ok := true
		for op := range l.strides {
			if l.strides[op][k] != l.strides[op][k+1]*l.sizes[k+1] {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		l.sizes[k+1] *= l.sizes[k]
		l.sizes = slices.Delete(l.sizes, k, k+1)
		for op := range l.strides {
			l.strides[op] = slices.Delete(l.strides[op], k, k+1)
		}
	}
	if len(l.sizes) == 0 {
		l.sizes = []int{1}
		for op := range l.strides {
			l.strides[op] = []int{0}
		}
	}
	return l
}

func (l layout) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "sizes=%v", l.sizes)
	for op, st := range l.strides {
		fmt.Fprintf(&b, " s%d=%v", op, st)
	}
	return b.String()
}
