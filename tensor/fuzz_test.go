package tensor_test

import (
	"errors"
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
