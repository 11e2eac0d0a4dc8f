package tensor_test

import (
	"math"
	"slices"
	"testing"

	"github.com/tensorplay/tensorplay/tensor"
)

// dense is the reference model of a tensor for FuzzViews: a shape and its
// values in row-major order, transformed by plain index arithmetic.
type dense struct {
	shape []int
	vals  []float64
}

// viewExtents maps a fuzz byte to an extent: small ones, and the extremes
// that only a zero-size tensor can have.
var viewExtents = [...]int{0, 1, 2, 3, 4, huge, math.MaxInt, big}

func (d dense) numel() int {
	for _, e := range d.shape {
		if e == 0 {
			return 0
		}
	}
	n := 1
	for _, e := range d.shape {
		n *= e
	}
	return n
}

// gather builds the dense tensor of the given shape whose element at index
// idx is d's element at src(idx).
func (d dense) gather(shape []int, src func(idx []int) []int) dense {
	out := dense{shape: shape}
	n := dense{shape: shape}.numel()
	idx := make([]int, len(shape))
	for range n {
		out.vals = append(out.vals, d.vals[d.flat(src(idx))])
		for a := len(idx) - 1; a >= 0; a-- {
			if idx[a]++; idx[a] < shape[a] {
				break
			}
			idx[a] = 0
		}
	}
	return out
}

func (d dense) flat(idx []int) int {
	f := 0
	for a, i := range idx {
		f = f*d.shape[a] + i
	}
	return f
}

// FuzzViews applies a random chain of view operations to a small tensor and
// checks each result against the dense model: same shape, same values, and a
// layout that stays inside the storage. No input may panic.
func FuzzViews(f *testing.F) {
	f.Add([]byte{2, 3, 4, 0, 1, 0})
	f.Add([]byte{3, 2, 1, 3, 1, 2, 0, 1, 5, 2, 2, 3, 0, 4})
	f.Add([]byte{1, 4, 2, 0, 9, 1, 3, 2, 1})
	f.Add([]byte{0, 4, 3, 2})
	// Zero-size tensors with extreme extents (huge is 2^62 on 64-bit):
	// [0, 3, huge], [0, 2, 2, 1, huge], [MaxInt, 0, MaxInt] and [huge,
	// huge, 0], sliced, indexed, unsqueezed and reshaped.
	f.Add([]byte{3, 0, 3, 5, 0, 5, 1, 0, 3, 9, 1, 1, 2, 2, 1, 4})
	f.Add([]byte{5, 0, 2, 2, 1, 5, 4, 5, 2, 1, 1, 2, 3, 3, 5, 1, 2, 4, 3})
	f.Add([]byte{3, 6, 0, 6, 2, 1, 3, 9, 3, 1, 3, 5, 0, 6, 1, 0})
	f.Add([]byte{3, 5, 5, 0, 0, 0, 3, 3, 2, 5, 6, 5, 4, 0})
	// Flips and slices with negative steps, then the other views of them.
	f.Add([]byte{2, 3, 4, 1, 7, 0, 8, 9, 0, 2, 1, 8, 2, 3, 1, 2, 0, 1, 4})
	f.Add([]byte{3, 4, 3, 2, 3, 7, 2, 8, 10, 0, 3, 1, 0, 0, 7, 1, 1, 1, 2, 4})
	f.Fuzz(func(t *testing.T, prog []byte) {
		next := func() int {
			if len(prog) == 0 {
				return 0
			}
			b := prog[0]
			prog = prog[1:]
			return int(b)
		}
		rank := next() % 6
		shape := make([]int, rank)
		for i := range shape {
			shape[i] = viewExtents[next()%len(viewExtents)]
		}
		if n, err := tensor.Shape(shape).Numel(); err != nil || n > 256 {
			shape[0] = 0 // a zero-size tensor may have any extents
		}
		ref := dense{shape: shape}
		for i := range ref.numel() {
			ref.vals = append(ref.vals, float64(i))
		}
		x, err := tensor.FromSlice(slices.Clone(ref.vals), shape...)
		if err != nil {
			t.Fatal(err)
		}
		for steps := 0; len(prog) > 0 && steps < 8; steps++ {
			y, want, ok := applyViewOp(t, x, ref, next)
			if !ok {
				continue
			}
			if !slices.Equal(y.Shape(), tensor.Shape(want.shape)) {
				t.Fatalf("shape %v, want %v", y.Shape(), want.shape)
			}
			if got := y.Values(); !slices.Equal(got, want.vals) && !(len(got) == 0 && len(want.vals) == 0) {
				t.Fatalf("shape %v strides %v offset %d: values %v, want %v", y.Shape(), y.Strides(), y.Offset(), got, want.vals)
			}
			if _, err := tensor.AsStrided(y.Data(), y.Shape(), y.Strides(), y.Offset()); err != nil {
				t.Fatalf("layout leaves its storage: %v", err)
			}
			x, ref = y, want
		}
	})
}

// applyViewOp decodes one operation, applies it to x and to ref, and checks
// that x's method fails exactly when the operation is invalid.
func applyViewOp(t *testing.T, x *tensor.Tensor[float64], ref dense, next func() int) (*tensor.Tensor[float64], dense, bool) {
	rank := len(ref.shape)
	axis := next()%(rank+2) - 1 // may be out of range, or -1
	resolved, axisOK := axis, axis >= -rank && axis < rank
	if axis < 0 {
		resolved += rank
	}
	switch op := next() % 9; op {
	case 0: // permute: rotate the axes by axis
		perm := make([]int, rank)
		for i := range perm {
			perm[i] = (i + max(axis, 0)) % max(rank, 1)
		}
		y, err := x.Permute(perm...)
		if err != nil {
			t.Fatalf("Permute(%v) of %v: %v", perm, ref.shape, err)
		}
		shape := make([]int, rank)
		for i, p := range perm {
			shape[i] = ref.shape[p]
		}
		return y, ref.gather(shape, func(idx []int) []int {
			src := make([]int, rank)
			for i, p := range perm {
				src[p] = idx[i]
			}
			return src
		}), true
	case 1: // slice
		start, stop, step := next()%9-4, next()%9-4, next()%4
		if step == 3 {
			step = math.MaxInt
		}
		y, err := x.Slice(axis, start, stop, step)
		if !axisOK || step <= 0 {
			if err == nil {
				t.Fatalf("Slice(%d, %d, %d, %d) of %v: no error", axis, start, stop, step, ref.shape)
			}
			return nil, dense{}, false
		}
		if err != nil {
			t.Fatalf("Slice: %v", err)
		}
		// The picks are b, b+step, … below e; counted, not listed, since
		// an axis of a zero-size tensor may be huge.
		n := ref.shape[resolved]
		b, e := pyBound(start, n), pyBound(stop, n)
		length := 0
		if e > b {
			length = int(uint64(e-b-1)/uint64(step)) + 1
		}
		shape := slices.Clone(ref.shape)
		shape[resolved] = length
		return y, ref.gather(shape, func(idx []int) []int {
			src := slices.Clone(idx)
			src[resolved] = b + idx[resolved]*step
			return src
		}), true
	case 2: // index
		i := next()%7 - 3
		y, err := x.Index(axis, i)
		if !axisOK {
			if err == nil {
				t.Fatal("Index: no error for a bad axis")
			}
			return nil, dense{}, false
		}
		j := i
		if j < 0 {
			j += ref.shape[resolved]
		}
		if j < 0 || j >= ref.shape[resolved] {
			if err == nil {
				t.Fatalf("Index(%d, %d) of %v: no error", axis, i, ref.shape)
			}
			return nil, dense{}, false
		}
		if err != nil {
			t.Fatalf("Index: %v", err)
		}
		shape := slices.Delete(slices.Clone(ref.shape), resolved, resolved+1)
		return y, ref.gather(shape, func(idx []int) []int {
			return slices.Insert(slices.Clone(idx), resolved, j)
		}), true
	case 3: // expand: grow every 1 to 2 and add a leading axis of 2
		sizes := []int{2}
		for _, e := range ref.shape {
			if e == 1 {
				sizes = append(sizes, 2)
			} else {
				sizes = append(sizes, -1)
			}
		}
		if ref.numel()*(1<<len(sizes)) > 4096 {
			return nil, dense{}, false
		}
		y, err := x.Expand(sizes...)
		if err != nil {
			t.Fatalf("Expand(%v) of %v: %v", sizes, ref.shape, err)
		}
		shape := []int{2}
		for _, e := range ref.shape {
			shape = append(shape, max(e, min(e, 1)*2))
		}
		return y, ref.gather(shape, func(idx []int) []int {
			src := slices.Clone(idx[1:])
			for a := range src {
				if ref.shape[a] == 1 {
					src[a] = 0
				}
			}
			return src
		}), true
	case 4: // reshape to the shape with axes merged or split
		target := []int{-1}
		if n := ref.numel(); n > 0 && n%2 == 0 && axis >= 0 {
			target = []int{2, n / 2}
		}
		y, err := x.Reshape(target...)
		if err != nil {
			t.Fatalf("Reshape(%v) of %v: %v", target, ref.shape, err)
		}
		shape := slices.Clone(target)
		if shape[0] == -1 {
			shape[0] = ref.numel()
		}
		return y, dense{shape: shape, vals: ref.vals}, true
	case 5: // unsqueeze
		y, err := x.Unsqueeze(axis)
		pos := axis
		if pos < 0 {
			pos += rank + 1
		}
		if pos < 0 || pos > rank {
			if err == nil {
				t.Fatal("Unsqueeze: no error")
			}
			return nil, dense{}, false
		}
		if err != nil {
			t.Fatalf("Unsqueeze(%d) of %v: %v", axis, ref.shape, err)
		}
		return y, dense{shape: slices.Insert(slices.Clone(ref.shape), pos, 1), vals: ref.vals}, true
	case 7: // flip one axis, or all of them for an axis past the end
		var axes []int
		if axis < rank {
			axes = []int{axis}
		}
		y, err := x.Flip(axes...)
		if !axisOK && axes != nil {
			if err == nil {
				t.Fatalf("Flip(%d) of %v: no error", axis, ref.shape)
			}
			return nil, dense{}, false
		}
		if err != nil {
			t.Fatalf("Flip(%v) of %v: %v", axes, ref.shape, err)
		}
		return y, ref.gather(slices.Clone(ref.shape), func(idx []int) []int {
			src := slices.Clone(idx)
			for a := range src {
				if axes == nil || a == resolved {
					src[a] = ref.shape[a] - 1 - idx[a]
				}
			}
			return src
		}), true
	case 8: // slice with a negative step
		start, stop, step := next()%11-5, next()%11-5, -1-next()%4
		if step == -4 {
			step = math.MinInt
		}
		y, err := x.Slice(axis, start, stop, step)
		if !axisOK {
			if err == nil {
				t.Fatalf("Slice(%d, %d, %d, %d) of %v: no error", axis, start, stop, step, ref.shape)
			}
			return nil, dense{}, false
		}
		if err != nil {
			t.Fatalf("Slice: %v", err)
		}
		n := ref.shape[resolved]
		b, e := pyBoundDown(start, n), pyBoundDown(stop, n)
		length := 0
		if b > e {
			length = int(uint64(b-e-1)/(uint64(-(step+1))+1)) + 1
		}
		shape := slices.Clone(ref.shape)
		shape[resolved] = length
		return y, ref.gather(shape, func(idx []int) []int {
			src := slices.Clone(idx)
			src[resolved] = b + idx[resolved]*step
			return src
		}), true
	default: // squeeze every 1
		y, err := x.Squeeze()
		if err != nil {
			t.Fatalf("Squeeze of %v: %v", ref.shape, err)
		}
		shape := []int{}
		for _, e := range ref.shape {
			if e != 1 {
				shape = append(shape, e)
			}
		}
		return y, dense{shape: shape, vals: ref.vals}, true
	}
}

func pyBound(i, n int) int {
	if i < 0 {
		i = max(i+n, 0)
	}
	return min(i, n)
}

// pyBoundDown is pyBound for a negative step: bounds clamp to [-1, n-1].
func pyBoundDown(i, n int) int {
	if i < 0 {
		i = max(i+n, -1)
	}
	return min(i, n-1)
}
