package exec

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/tensor"
)

// White-box tests of the layout algebra: mergeDims, reshapeStrides and
// internalOverlap, by tables and by brute force over random layouts.

func TestMergeDims(t *testing.T) {
	cases := []struct {
		name    string
		sizes   []int
		strides [][]int
		want    layout
	}{
		{"contiguous is flat", []int{4, 5}, [][]int{{5, 1}, {5, 1}, {5, 1}},
			layout{[]int{20}, [][]int{{1}, {1}, {1}}}},
		{"row broadcast", []int{4, 5}, [][]int{{5, 1}, {5, 1}, {0, 1}},
			layout{[]int{4, 5}, [][]int{{5, 1}, {5, 1}, {0, 1}}}},
		{"column broadcast", []int{4, 5}, [][]int{{5, 1}, {5, 1}, {1, 0}},
			layout{[]int{4, 5}, [][]int{{5, 1}, {5, 1}, {1, 0}}}},
		{"outer product", []int{4, 5}, [][]int{{5, 1}, {1, 0}, {0, 1}},
			layout{[]int{4, 5}, [][]int{{5, 1}, {1, 0}, {0, 1}}}},
		{"size-1 axes drop", []int{4, 1, 5}, [][]int{{5, 5, 1}, {5, 99, 1}},
			layout{[]int{20}, [][]int{{1}, {1}}}},
		{"0-d", []int{}, [][]int{{}, {}},
			layout{[]int{1}, [][]int{{0}, {0}}}},
		{"all ones", []int{1, 1}, [][]int{{1, 1}, {7, 3}},
			layout{[]int{1}, [][]int{{0}, {0}}}},
		{"ordered by the first operand", []int{4, 5}, [][]int{{1, 4}, {1, 4}},
			layout{[]int{20}, [][]int{{1}, {1}}}},
		{"transposed input stays 2-D", []int{4, 5}, [][]int{{5, 1}, {1, 4}},
			layout{[]int{4, 5}, [][]int{{5, 1}, {1, 4}}}},
		{"broadcast leading axis", []int{3, 4, 5}, [][]int{{20, 5, 1}, {0, 5, 1}},
			layout{[]int{3, 20}, [][]int{{20, 1}, {0, 1}}}},
		{"scalar operand", []int{3, 4, 5}, [][]int{{20, 5, 1}, {0, 0, 0}},
			layout{[]int{60}, [][]int{{1}, {0}}}},
		{"strided slice merges its outer axes", []int{2, 3, 4}, [][]int{{12, 4, 1}, {24, 8, 2}},
			layout{[]int{24}, [][]int{{1}, {2}}}},
		{"a gap stops merging", []int{2, 3, 4}, [][]int{{12, 4, 1}, {16, 4, 1}},
			layout{[]int{2, 12}, [][]int{{12, 1}, {16, 1}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := mergeDims(c.sizes, c.strides, 0)
			assert.Equal(t, c.want.sizes, got.sizes, got.String())
			assert.Equal(t, c.want.strides, got.strides, got.String())
			checkLayoutWalk(t, c.sizes, c.strides, got)
		})
	}
}

// offsetTuples lists, for every index of sizes in row-major order, the
// offset of each operand.
func offsetTuples(sizes []int, strides [][]int) [][]int {
	n := 1
	for _, d := range sizes {
		n *= d
	}
	var out [][]int
	if n == 0 {
		return out
	}
	idx := make([]int, len(sizes))
	for {
		tup := make([]int, len(strides))
		for op, st := range strides {
			for k, i := range idx {
				tup[op] += i * st[k]
			}
		}
		out = append(out, tup)
		k := len(idx) - 1
		for ; k >= 0; k-- {
			idx[k]++
			if idx[k] < sizes[k] {
				break
			}
			idx[k] = 0
		}
		if k < 0 {
			return out
		}
	}
}

func compareTuples(a, b []int) int { return slices.Compare(a, b) }

// checkLayoutWalk checks that walking the merged layout visits the same
// offset tuples as walking the original space (as a multiset), that no axis
// of extent 1 is left (but for the one-axis form of a trivial space), that
// no two adjacent axes could still merge, and that the ordering operand's
// strides do not increase inward.
func checkLayoutWalk(t *testing.T, sizes []int, strides [][]int, l layout) {
	t.Helper()
	want := offsetTuples(sizes, strides)
	got := offsetTuples(l.sizes, l.strides)
	slices.SortFunc(want, compareTuples)
	slices.SortFunc(got, compareTuples)
	require.Equal(t, len(want), len(got), "element count of %v", l)
	require.Equal(t, want, got, "offsets visited by %v (from sizes %v strides %v)", l, sizes, strides)
	require.NotEmpty(t, l.sizes)
	for op := range l.strides {
		require.Len(t, l.strides[op], len(l.sizes))
	}
	for k, d := range l.sizes {
		if d == 1 {
			require.Len(t, l.sizes, 1, "an axis of extent 1 is left in %v", l)
		}
		if k+1 < len(l.sizes) {
			mergeable := true
			for op := range l.strides {
				if l.strides[op][k] != l.strides[op][k+1]*l.sizes[k+1] {
					mergeable = false
				}
			}
			assert.False(t, mergeable, "axes %d and %d of %v could merge", k, k+1, l)
			assert.GreaterOrEqual(t, l.strides[0][k], l.strides[0][k+1], "operand 0 not walked outer-to-inner in %v", l)
		}
	}
}

func randomLayout(r *rand.Rand) ([]int, [][]int) {
	rank := r.IntN(6)
	sizes := make([]int, rank)
	for i := range sizes {
		sizes[i] = 1 + r.IntN(4)
		if r.IntN(10) == 0 {
			sizes[i] = 0
		}
	}
	nops := 1 + r.IntN(3)
	strides := make([][]int, nops)
	for op := range strides {
		// Mostly layouts of real views: a permuted row-major layout,
		// sometimes with broadcast (0) axes or a step; else random.
		st := make([]int, rank)
		switch r.IntN(3) {
		case 0:
			for i := range st {
				st[i] = r.IntN(30)
			}
		default:
			perm := r.Perm(rank)
			acc := 1 + r.IntN(2)
			for k := rank - 1; k >= 0; k-- {
				ax := perm[k]
				st[ax] = acc
				acc *= max(sizes[ax], 1)
				if r.IntN(5) == 0 {
					st[ax] = 0
				}
			}
		}
		strides[op] = st
	}
	return sizes, strides
}

func TestMergeDimsRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		sizes, strides := randomLayout(r)
		checkLayoutWalk(t, sizes, strides, mergeDims(sizes, strides, 0))
		if t.Failed() {
			return
		}
	}
}

func FuzzMergeDims(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Add(uint64(7), uint64(99))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		sizes, strides := randomLayout(rand.New(rand.NewPCG(a, b)))
		checkLayoutWalk(t, sizes, strides, mergeDims(sizes, strides, 0))
	})
}

func TestReshapeStrides(t *testing.T) {
	cases := []struct {
		shape    tensor.Shape
		strides  []int
		newShape tensor.Shape
		want     []int // nil: not a view
	}{
		{tensor.Shape{2, 3, 4}, []int{12, 4, 1}, tensor.Shape{6, 4}, []int{4, 1}},
		{tensor.Shape{2, 3, 4}, []int{12, 4, 1}, tensor.Shape{24}, []int{1}},
		{tensor.Shape{2, 3, 4}, []int{12, 4, 1}, tensor.Shape{2, 1, 12, 1}, []int{12, 12, 1, 1}},
		{tensor.Shape{3, 2}, []int{1, 3}, tensor.Shape{6}, nil},
		{tensor.Shape{3, 2}, []int{1, 3}, tensor.Shape{3, 2, 1}, []int{1, 3, 1}},
		{tensor.Shape{4, 3}, []int{6, 1}, tensor.Shape{2, 2, 3}, []int{12, 6, 1}},
		{tensor.Shape{4, 3}, []int{6, 1}, tensor.Shape{12}, nil},
		{tensor.Shape{1, 4, 1}, []int{100, 1, 7}, tensor.Shape{4}, []int{1}},
		{tensor.Shape{1, 4, 1}, []int{100, 1, 7}, tensor.Shape{2, 2}, []int{2, 1}},
		{tensor.Shape{3, 4}, []int{0, 1}, tensor.Shape{3, 2, 2}, []int{0, 2, 1}},
		{tensor.Shape{3, 4}, []int{0, 1}, tensor.Shape{12}, nil},
		{tensor.Shape{0, 3}, []int{3, 1}, tensor.Shape{3, 0}, []int{0, 1}},
		{tensor.Shape{}, []int{}, tensor.Shape{1, 1}, []int{1, 1}},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%v%v->%v", c.shape, c.strides, c.newShape), func(t *testing.T) {
			got, ok := reshapeStrides(c.shape, c.strides, c.newShape)
			if c.want == nil {
				assert.False(t, ok, "got strides %v", got)
				return
			}
			require.True(t, ok)
			if n, _ := c.shape.Numel(); n == 0 {
				return // any strides read an empty tensor
			}
			assert.Equal(t, c.want, got)
		})
	}
}

// TestReshapeStridesRandom reshapes random views of a buffer: whenever
// reshapeStrides finds strides, the view reads the same elements in the same
// order; whenever the tensor package can view the reshape, so can the
// executor (no needless copies).
func TestReshapeStridesRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 2000 {
		rank := r.IntN(5)
		shape := make([]int, rank)
		for i := range shape {
			shape[i] = 1 + r.IntN(4)
		}
		n := 1
		for _, d := range shape {
			n *= d
		}
		data := make([]int32, 4*n+8)
		for i := range data {
			data[i] = int32(i)
		}
		// A random view of the buffer: a step along one axis, then a
		// permutation.
		v := tensor.Must(tensor.FromSlice(data[:n], shape...))
		if rank > 0 && r.IntN(2) == 0 {
			k := r.IntN(rank)
			bs := slices.Clone(shape)
			bs[k] *= 2
			v = tensor.Must(tensor.Must(tensor.FromSlice(data[:2*n], bs...)).Slice(k, 1, bs[k], 2))
		}
		if rank > 1 && r.IntN(2) == 0 {
			v = tensor.Must(v.Permute(r.Perm(rank)...))
		}
		// A random factorization of n as the new shape.
		var ns []int
		rest := n
		for rest > 1 {
			d := 1 + r.IntN(rest)
			for rest%d != 0 {
				d--
			}
			ns = append(ns, d)
			rest /= d
			if d == 1 {
				ns = append(ns, rest)
				rest = 1
			}
		}
		if r.IntN(3) == 0 {
			ns = slices.Insert(ns, r.IntN(len(ns)+1), 1)
		}
		st, ok := reshapeStrides(v.Shape(), v.Strides(), ns)
		_, terr := v.ReshapeView(ns...)
		ctx := fmt.Sprintf("trial %d: shape %v strides %v -> %v", trial, v.Shape(), v.Strides(), ns)
		if terr == nil {
			assert.True(t, ok, "tensor.ReshapeView can view it, the executor copies: %s", ctx)
		}
		if !ok {
			continue
		}
		w, err := tensor.AsStrided(v.Data(), ns, st, v.Offset())
		require.NoError(t, err, ctx)
		require.Equal(t, v.Values(), w.Values(), ctx)
		if t.Failed() {
			return
		}
	}
}

func TestInternalOverlap(t *testing.T) {
	cases := []struct {
		shape   tensor.Shape
		strides []int
		want    bool
	}{
		{tensor.Shape{3, 4}, []int{4, 1}, false},
		{tensor.Shape{3, 4}, []int{1, 3}, false},
		{tensor.Shape{3, 4}, []int{0, 1}, true},
		{tensor.Shape{1, 4}, []int{0, 1}, false},
		{tensor.Shape{2, 2}, []int{1, 1}, true},
		{tensor.Shape{3, 3}, []int{2, 1}, true},
		{tensor.Shape{3, 2}, []int{2, 1}, false},
		{tensor.Shape{2, 3}, []int{10, 2}, false},
		{tensor.Shape{0, 3}, []int{0, 0}, false},
		{tensor.Shape{}, []int{}, false},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, internalOverlap(c.shape, c.strides), "%v strides %v", c.shape, c.strides)
	}
	// Brute force: a layout with two elements at one offset must be
	// reported; a permuted, stepped row-major layout must not.
	r := rand.New(rand.NewPCG(5, 6))
	for range 3000 {
		sizes, strides := randomLayout(r)
		st := strides[0]
		seen := map[int]bool{}
		dup := false
		for _, tup := range offsetTuples(sizes, [][]int{st}) {
			if seen[tup[0]] {
				dup = true
			}
			seen[tup[0]] = true
		}
		got := internalOverlap(sizes, st)
		if dup {
			require.True(t, got, "sizes %v strides %v repeat an offset", sizes, st)
		}
	}
	for range 1000 {
		rank := r.IntN(5)
		sizes := make([]int, rank)
		st := make([]int, rank)
		acc := 1 + r.IntN(3)
		for _, ax := range r.Perm(rank) {
			sizes[ax] = 1 + r.IntN(4)
			st[ax] = acc
			acc *= sizes[ax] + r.IntN(2)
		}
		require.False(t, internalOverlap(sizes, st), "sizes %v strides %v do not overlap", sizes, st)
	}
}
