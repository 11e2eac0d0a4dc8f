package tensor

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBasicIdxMatchesViewMap checks Idx's direct path for integers and
// slices against the view IndexMap describes, which it replaces: the same
// shape, strides and offset, over random shapes (extents 0 to 5, some
// tensors themselves strided views) and random subscripts of integers
// and slices with every kind of bound and step, in and out of range; and
// that it declines exactly the subscripts IndexMap refuses.
func TestBasicIdxMatchesViewMap(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 4))
	bound := func(n int) int { return r.IntN(2*n+5) - n - 2 }
	item := func(n int) IndexItem {
		switch r.IntN(7) {
		case 0:
			return I(bound(n))
		case 1:
			return All
		case 2:
			return From(bound(n))
		case 3:
			return To(bound(n))
		case 4:
			return S(bound(n), bound(n))
		case 5:
			return S(bound(n), bound(n)).Step(r.IntN(7) - 3) // 0 is refused
		}
		return Step(r.IntN(5) - 2)
	}
	checked, declined := 0, 0
	for c := range 4000 {
		rank := r.IntN(5)
		shape := make([]int, rank)
		for i := range shape {
			shape[i] = r.IntN(6)
		}
		base, err := New[float64](append([]int{2}, shape...)...)
		require.NoError(t, err)
		x := base
		if rank > 0 && r.IntN(2) == 0 { // a view from an offset, one axis reversed
			x = Must(Must(base.Index(0, 1)).Flip(0))
		} else {
			x = Must(base.Index(0, 0))
		}
		items := make([]IndexItem, r.IntN(rank+2))
		for i := range items {
			n := 3
			if i < rank {
				n = x.shape[i]
			}
			items[i] = item(n)
		}
		name := fmt.Sprintf("case %d: %v%s", c, x.shape, formatIndex(items))
		got, ok := x.basicIdx(items)
		m, err := IndexMap(x.shape, items...)
		if err != nil {
			assert.False(t, ok, "%s: IndexMap refuses it (%v)", name, err)
			declined++
			continue
		}
		require.True(t, ok, name)
		want := x.ViewOf(m)
		assert.Equal(t, want.shape, got.shape, name)
		assert.Equal(t, want.strides, got.strides, name)
		assert.Equal(t, want.offset, got.offset, name)
		assert.Equal(t, want.Values(), got.Values(), name)
		checked++
	}
	assert.Greater(t, checked, 1000)
	assert.Greater(t, declined, 100)

	x := Must(New[float64](2, 3))
	for _, items := range [][]IndexItem{{NewAxis}, {Ellipsis, I(0)}, {I(0).Step(2)}} {
		_, ok := x.basicIdx(items)
		assert.False(t, ok, "%s is left to IndexMap", formatIndex(items))
	}
}

// TestViewAllocations pins what making a view allocates: the tensor and
// one slice holding its shape and strides (Slice, Idx of slices and
// integers, T, Transpose, Permute, Index, Unsqueeze, Squeeze, AsStrided);
// a 0-d view only the tensor.
func TestViewAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	u := Must(New[float64](4, 1, 6))
	m := Must(New[float64](5, 6))
	perm, sh, st := []int{2, 0, 1}, Shape{6, 5}, []int{1, 6} // the arguments' own allocations are the caller's
	cases := []struct {
		name string
		want float64
		view func() (*Tensor[float64], error)
	}{
		{"Slice", 2, func() (*Tensor[float64], error) { return u.Slice(2, 1, 5, 2) }},
		{"Idx", 2, func() (*Tensor[float64], error) { return u.Idx(S(1, -1), All, From(2).Step(2)) }},
		{"Idx to 0-d", 1, func() (*Tensor[float64], error) { return u.Idx(I(1), I(0), I(-1)) }},
		{"T", 2, func() (*Tensor[float64], error) { return m.T() }},
		{"Transpose", 2, func() (*Tensor[float64], error) { return u.Transpose(0, 2) }},
		{"Permute", 2, func() (*Tensor[float64], error) { return u.Permute(perm...) }},
		{"Index", 2, func() (*Tensor[float64], error) { return u.Index(0, 3) }},
		{"Unsqueeze", 2, func() (*Tensor[float64], error) { return m.Unsqueeze(1) }},
		{"Squeeze", 2, func() (*Tensor[float64], error) { return u.Squeeze() }},
		{"AsStrided", 2, func() (*Tensor[float64], error) { return AsStrided(m.Data(), sh, st, 0) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.view()
			require.NoError(t, err)
			assert.Equal(t, c.want, testing.AllocsPerRun(50, func() { _, _ = c.view() }))
		})
	}
}
