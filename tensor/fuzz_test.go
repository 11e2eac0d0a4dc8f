package tensor_test

import (
	"errors"
	"math"
	"testing"

	"github.com/tensorplay/tensorplay/tensor"
)

// fuzzExtents maps a fuzz byte to an extent; zeros, ones and a negative are
// over-represented because that is where broadcasting rules bite.
var fuzzExtents = [...]int{0, 1, 1, 2, 3, 5, 7, -1}

func fuzzShape(b []byte) tensor.Shape {
	s := tensor.Shape{}
	for i, x := range b {
		if i == 8 {
			break
		}
		s = append(s, fuzzExtents[x%8])
	}
	return s
}

// naiveBroadcast is the rule written out per axis: the result, whether the
// shapes broadcast, and the right-most mismatching axis.
func naiveBroadcast(a, b tensor.Shape) (out tensor.Shape, ok bool, dim int) {
	rank := max(len(a), len(b))
	out = make(tensor.Shape, rank)
	ok, dim = true, -1
	for d := 0; d < rank; d++ {
		x, y := 1, 1
		if i := d - (rank - len(a)); i >= 0 {
			x = a[i]
		}
		if i := d - (rank - len(b)); i >= 0 {
			y = b[i]
		}
		switch {
		case x == y || y == 1:
			out[d] = x
		case x == 1:
			out[d] = y
		default:
			ok, dim = false, d
		}
	}
	return out, ok, dim
}

func hasNegative(s tensor.Shape) bool {
	for _, d := range s {
		if d < 0 {
			return true
		}
	}
	return false
}

func FuzzBroadcastShapes(f *testing.F) {
	f.Add([]byte{}, []byte{})
	f.Add([]byte{5, 6, 4}, []byte{5, 6, 4})
	f.Add([]byte{0}, []byte{3, 3})
	f.Add([]byte{5, 1, 6, 1}, []byte{4, 1, 1})
	f.Add([]byte{5, 3, 6, 1}, []byte{4, 1, 1})
	f.Add([]byte{7}, []byte{1})
	f.Fuzz(func(t *testing.T, ab, bb []byte) {
		a, b := fuzzShape(ab), fuzzShape(bb)
		got, err := tensor.BroadcastShapes(a, b)
		rev, revErr := tensor.BroadcastShapes(b, a)
		check := tensor.CheckBroadcastShape(a, b)
		if check != tensor.CheckBroadcastShape(b, a) {
			t.Fatalf("CheckBroadcastShape is not symmetric for %v, %v", a, b)
		}
		inferred, inferErr := tensor.BroadcastInferShape(a, b)
		merged, mergedErr := tensor.MergedBroadcastShape(a, b)

		if hasNegative(a) || hasNegative(b) {
			var se *tensor.ShapeError
			if !errors.As(err, &se) || !errors.As(revErr, &se) || check || !errors.As(inferErr, &se) || mergedErr == nil {
				t.Fatalf("%v, %v: negative extents must be a *ShapeError, got %v", a, b, err)
			}
			return
		}
		want, ok, dim := naiveBroadcast(a, b)
		if check != ok || (err == nil) != ok || (revErr == nil) != ok || (inferErr == nil) != ok || (mergedErr == nil) != ok {
			t.Fatalf("%v, %v: broadcastable=%v but BroadcastShapes err %v, reversed %v, check %v, infer %v, merged %v",
				a, b, ok, err, revErr, check, inferErr, mergedErr)
		}
		if ok {
			if !got.Equal(want) || !rev.Equal(want) || !inferred.Equal(want) {
				t.Fatalf("%v, %v: got %v (reversed %v, inferred %v), want %v", a, b, got, rev, inferred, want)
			}
			n, _ := want.Numel()
			m, _ := merged.Numel()
			if m != n && !(n == 0 && m == 0) || merged.Rank() > max(want.Rank(), 1) {
				t.Fatalf("%v, %v: merged %v does not cover %v", a, b, merged, want)
			}
			return
		}
		var be, rbe *tensor.BroadcastError
		if !errors.As(err, &be) || !errors.As(revErr, &rbe) {
			t.Fatalf("%v, %v: errors %T, %T are not *BroadcastError", a, b, err, revErr)
		}
		if be.Dim != dim || rbe.Dim != dim || be.SizeA != rbe.SizeB || be.SizeB != rbe.SizeA {
			t.Fatalf("%v, %v: %v / %v, want the mismatch at dimension %d", a, b, err, revErr, dim)
		}
		var ce *tensor.BroadcastConditionError
		if !errors.As(inferErr, &ce) {
			t.Fatalf("%v, %v: BroadcastInferShape error %T", a, b, inferErr)
		}
	})
}

// shapeInts maps a fuzz byte to an integer for FuzzShapeFunctions: small
// extents, and the extremes where products, sums and negations overflow.
var shapeInts = [...]int{0, 1, 2, 3, 5, -1, math.MaxInt, math.MinInt, huge, big, math.MaxInt - 1, -2}

func shapeOfBytes(b []byte) tensor.Shape {
	s := tensor.Shape{}
	for i, x := range b {
		if i == 6 {
			break
		}
		s = append(s, shapeInts[int(x)%len(shapeInts)])
	}
	return s
}

// FuzzShapeFunctions calls every shape function with extreme integers and
// checks that none panics and that their results keep their promises: a
// result shape's element count fits int, CheckBroadcastShape is symmetric
// and true exactly when BroadcastShapes succeeds, strides are never
// negative, a resolved slice lies inside its axis and a resolved axis
// inside its rank. Its seed corpus runs in go test; fuzz longer with
// go test ./tensor -run '^$' -fuzz FuzzShapeFunctions -fuzztime 5m.
func FuzzShapeFunctions(f *testing.F) {
	f.Add([]byte{}, []byte{}, []byte{0, 0, 0, 1})
	f.Add([]byte{9}, []byte{9, 1}, []byte{6, 0, 1, 6})          // [big] with [big, 1]
	f.Add([]byte{0, 8, 8}, []byte{8, 8, 0}, []byte{0, 7, 6, 6}) // zero beside huge
	f.Add([]byte{6, 0, 6}, []byte{1}, []byte{6, 7, 6, 6})       // MaxInt, MinInt
	f.Add([]byte{8, 1, 0}, []byte{1, 8, 1}, []byte{1, 0, 1, 6})
	f.Add([]byte{5, 2}, []byte{7}, []byte{5, 7, 7, 5})
	f.Add([]byte{9, 9, 0, 1}, []byte{9, 9, 1, 0}, []byte{2, 4, 10, 8})
	f.Fuzz(func(t *testing.T, ab, bb, ib []byte) {
		a, b := shapeOfBytes(ab), shapeOfBytes(bb)
		arg := func(i int) int {
			if i < len(ib) {
				return shapeInts[int(ib[i])%len(shapeInts)]
			}
			return 0
		}
		checkNumel := func(name string, s tensor.Shape) {
			n, err := s.Numel()
			if err != nil {
				var se *tensor.ShapeError
				if !errors.As(err, &se) {
					t.Fatalf("%s %v: Numel error %T", name, s, err)
				}
				return
			}
			if n < 0 {
				t.Fatalf("%s %v: Numel %d", name, s, n)
			}
			for _, d := range s {
				if d == 0 && n != 0 {
					t.Fatalf("%s %v: an extent of 0 but Numel %d", name, s, n)
				}
			}
		}
		checkNumel("a", a)
		checkNumel("b", b)

		out, err := tensor.BroadcastShapes(a, b)
		check := tensor.CheckBroadcastShape(a, b)
		if check != tensor.CheckBroadcastShape(b, a) {
			t.Fatalf("CheckBroadcastShape(%v, %v) is not symmetric", a, b)
		}
		if check != (err == nil) {
			t.Fatalf("CheckBroadcastShape(%v, %v) = %v, BroadcastShapes error %v", a, b, check, err)
		}
		inferred, inferErr := tensor.BroadcastInferShape(a, b)
		merged, mergedErr := tensor.MergedBroadcastShape(a, b)
		if err != nil {
			if inferErr == nil || mergedErr == nil {
				t.Fatalf("%v, %v: BroadcastShapes fails (%v) but infer %v, merged %v", a, b, err, inferErr, mergedErr)
			}
			return
		}
		n, nerr := out.Numel()
		if nerr != nil {
			t.Fatalf("%v, %v: result %v does not count: %v", a, b, out, nerr)
		}
		if inferErr != nil || !inferred.Equal(out) {
			t.Fatalf("%v, %v: BroadcastInferShape %v, %v; want %v", a, b, inferred, inferErr, out)
		}
		if mergedErr == nil {
			if m, err := merged.Numel(); err != nil || m != n {
				t.Fatalf("%v, %v: merged %v counts %d (%v), want %d", a, b, merged, m, err, n)
			}
		} else if n != 0 {
			t.Fatalf("%v, %v: merging a countable nonempty result failed: %v", a, b, mergedErr)
		}
		for _, st := range tensor.RowMajorStrides(out) {
			if st < 0 {
				t.Fatalf("RowMajorStrides(%v) = %v", out, tensor.RowMajorStrides(out))
			}
		}

		// Expand a tensor of shape a to b: a zero-size one, or one element.
		src := a
		if n, err := a.Numel(); err != nil || n > 1 {
			src = tensor.Shape{1}
		}
		if x, err := tensor.New[int8](src...); err == nil {
			if y, err := x.Expand(b...); err == nil {
				if _, err := y.Shape().Numel(); err != nil {
					t.Fatalf("Expand(%v) of %v: shape %v does not count", b, src, y.Shape())
				}
				for _, st := range y.Strides() {
					if st < 0 {
						t.Fatalf("Expand(%v) of %v: strides %v", b, src, y.Strides())
					}
				}
			}
		}

		extent, start, stop, step := arg(0), arg(1), arg(2), arg(3)
		begin, end, length, err := tensor.SliceRange(extent, start, stop, step)
		if err == nil {
			if begin < 0 || begin > end || end > extent || length < 0 || length > end-begin {
				t.Fatalf("SliceRange(%d, %d, %d, %d) = %d, %d, %d", extent, start, stop, step, begin, end, length)
			}
			if length > 0 && (length-1) > (end-begin-1)/step {
				t.Fatalf("SliceRange(%d, %d, %d, %d): element %d is past the end", extent, start, stop, step, length-1)
			}
		} else if extent >= 0 && step > 0 {
			t.Fatalf("SliceRange(%d, %d, %d, %d): %v", extent, start, stop, step, err)
		}
		ax, err := tensor.Axis(start, len(a))
		var ae *tensor.AxisError
		if err == nil && (ax < 0 || ax >= len(a)) || err != nil && !errors.As(err, &ae) {
			t.Fatalf("Axis(%d, %d) = %d, %v", start, len(a), ax, err)
		}
	})
}
