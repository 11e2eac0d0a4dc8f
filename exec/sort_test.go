package exec_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// npLess is NumPy's ascending order with NaN last, for the reference sorts.
func npLess(a, b float64) int {
	an, bn := math.IsNaN(a), math.IsNaN(b)
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// tiesAndNaNs is a [4,6,5] float64 tensor with many equal elements,
// signed zeros and NaNs, permuted so that it is not contiguous.
func tiesAndNaNs(t *testing.T) *tensor.Tensor[float64] {
	r := rand.New(rand.NewPCG(7, 8))
	data := make([]float64, 4*6*5)
	for i := range data {
		switch r.IntN(10) {
		case 0:
			data[i] = math.NaN()
		case 1:
			data[i] = math.Copysign(0, -1)
		case 2:
			data[i] = math.Inf(-1)
		default:
			data[i] = float64(r.IntN(7) - 3)
		}
	}
	base := tensor.Must(tensor.FromSlice(data, 5, 6, 4))
	return tensor.Must(base.Permute(2, 1, 0))
}

// TestSortMatchesStableReference sorts along every axis, both ways, on 1
// and 3 workers, and compares values and indices with a stable sort of
// each row; the indices must gather the sorted values.
func TestSortMatchesStableReference(t *testing.T) {
	x := tiesAndNaNs(t)
	shape := x.Shape()
	vals := x.Values()
	for _, workers := range []int{1, 3} {
		ex := exec.New(exec.Workers(workers), exec.Grain(1))
		defer ex.Close()
		for axis := range 3 {
			for _, desc := range []bool{false, true} {
				t.Run(fmt.Sprintf("workers=%d/axis=%d/descending=%v", workers, axis, desc), func(t *testing.T) {
					opts := []exec.SortOption{exec.Using(ex)}
					if desc {
						opts = append(opts, exec.Descending())
					}
					got, err := exec.Sort(expr.Of(x), axis-3, opts...)
					require.NoError(t, err)
					idx, err := exec.ArgSort(expr.Of(x), axis, opts...)
					require.NoError(t, err)
					require.Equal(t, shape, got.Shape())
					require.Equal(t, shape, idx.Shape())
					strides := tensor.RowMajorStrides(shape)
					g, gi := got.Values(), idx.Values()
					forEachRow(shape, axis, func(start int) {
						n, step := shape[axis], strides[axis]
						order := make([]int, n)
						for j := range order {
							order[j] = j
						}
						slices.SortStableFunc(order, func(a, b int) int {
							c := npLess(vals[start+a*step], vals[start+b*step])
							if desc {
								c = -c
							}
							return c
						})
						for j, o := range order {
							at := start + j*step
							require.Equal(t, int64(o), gi[at], "index at %d", at)
							w := vals[start+o*step]
							if math.IsNaN(w) {
								assert.True(t, math.IsNaN(g[at]))
							} else {
								assert.Equal(t, math.Float64bits(w), math.Float64bits(g[at]), "value at %d", at)
							}
						}
					})
				})
			}
		}
	}
}

// forEachRow calls f with the row-major position of the first element of
// every row along axis.
func forEachRow(shape tensor.Shape, axis int, f func(start int)) {
	strides := tensor.RowMajorStrides(shape)
	n := 1
	for _, s := range shape {
		n *= s
	}
	for i := range n {
		if i/strides[axis]%shape[axis] == 0 {
			f(i)
		}
	}
}

// TestTopKAndKthValue checks TopK and KthValue against ArgSort on the same
// rows, both ways, and KeepDims.
func TestTopKAndKthValue(t *testing.T) {
	x := expr.Of(tiesAndNaNs(t))
	for axis := range 3 {
		n := x.Shape()[axis]
		for _, smallest := range []bool{false, true} {
			var opts, sortOpts []exec.SortOption
			if smallest {
				opts = append(opts, exec.Smallest())
			} else {
				sortOpts = append(sortOpts, exec.Descending())
			}
			order, err := exec.ArgSort(x, axis, sortOpts...)
			require.NoError(t, err)
			sorted, err := exec.Sort(x, axis, sortOpts...)
			require.NoError(t, err)
			for _, k := range []int{0, 1, n} {
				v, i, err := exec.TopK(x, k, axis, opts...)
				require.NoError(t, err)
				wantV := tensor.Must(sorted.Slice(axis, 0, k, 1))
				wantI := tensor.Must(order.Slice(axis, 0, k, 1))
				assert.Equal(t, wantI.Values(), i.Values(), "axis %d k %d smallest %v", axis, k, smallest)
				assertSameFloats(t, wantV.Values(), v.Values())
			}
		}
		asc, err := exec.Sort(x, axis)
		require.NoError(t, err)
		for _, k := range []int{1, n} {
			v, _, err := exec.KthValue(x, k, axis)
			require.NoError(t, err)
			want := tensor.Must(asc.Slice(axis, k-1, k, 1))
			wantShape := slices.Delete(x.Shape().Clone(), axis, axis+1)
			assert.Equal(t, tensor.Shape(wantShape), v.Shape())
			assertSameFloats(t, want.Values(), v.Values())
			kept, _, err := exec.KthValue(x, k, axis, exec.KeepDims())
			require.NoError(t, err)
			assert.Equal(t, want.Shape(), kept.Shape())
		}
	}
}

// assertSameFloats compares floats bit for bit, any NaN matching any NaN.
func assertSameFloats(t *testing.T, want, got []float64) {
	t.Helper()
	require.Len(t, got, len(want))
	for i := range want {
		if math.IsNaN(want[i]) {
			assert.True(t, math.IsNaN(got[i]), "element %d", i)
			continue
		}
		assert.Equal(t, math.Float64bits(want[i]), math.Float64bits(got[i]), "element %d", i)
	}
}

// TestSearchSortedProperties compares SearchSorted with a linear scan, for
// a 1-D sequence with a 2-D batch of values and for batched sequences.
func TestSearchSortedProperties(t *testing.T) {
	seq := []float64{-1, 0, 0, 0, 2.5, 3, 3, math.NaN()}
	probe := []float64{-2, -1, 0, 1, 2.5, 3, 4, math.Inf(1), math.NaN(), 0, 3, -1}
	linear := func(a []float64, v float64, right bool) int64 {
		for i, x := range a {
			c := npLess(x, v)
			if c > 0 || (c == 0 && !right) {
				return int64(i)
			}
		}
		return int64(len(a))
	}
	for _, right := range []bool{false, true} {
		var opts []exec.SortOption
		if right {
			opts = append(opts, exec.Right())
		}
		values := tensor.Must(tensor.FromSlice(probe, 3, 4))
		got, err := exec.SearchSorted(expr.Of(tensor.Must(tensor.FromSlice(seq, 8))), expr.Of(values), opts...)
		require.NoError(t, err)
		require.Equal(t, tensor.Shape{3, 4}, got.Shape())
		for i, v := range probe {
			assert.Equal(t, linear(seq, v, right), got.Values()[i], "value %v right %v", v, right)
		}
		// Batched: two sequences, six values each.
		seqs := tensor.Must(tensor.FromSlice(append(slices.Clone(seq), 0, 1, 2, 3, 4, 5, 6, 7), 2, 8))
		vals := tensor.Must(tensor.FromSlice(probe, 2, 6))
		bat, err := exec.SearchSorted(expr.Of(seqs), expr.Of(vals), opts...)
		require.NoError(t, err)
		for b := range 2 {
			for j := range 6 {
				want := linear(seqs.Values()[b*8:(b+1)*8], probe[b*6+j], right)
				assert.Equal(t, want, bat.Values()[b*6+j])
			}
		}
	}
}

// TestUniqueProperties checks Unique on ints against a map, and its inverse
// and counts, flattened and along an axis.
func TestUniqueProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	data := make([]int32, 60)
	for i := range data {
		data[i] = int32(r.IntN(3))
	}
	x := tensor.Must(tensor.FromSlice(data, 20, 3))
	u, err := exec.Unique(expr.Of(x))
	require.NoError(t, err)
	seen := map[int32]int64{}
	for _, v := range data {
		seen[v]++
	}
	keys := make([]int32, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	assert.Equal(t, keys, u.Values.Values())
	for i, k := range keys {
		assert.Equal(t, seen[k], u.Counts.Values()[i])
	}
	for i, v := range data {
		assert.Equal(t, v, keys[u.Inverse.Values()[i]])
	}

	rows, err := exec.Unique(expr.Of(x), exec.UniqueAxis(0))
	require.NoError(t, err)
	nu := rows.Values.Shape()[0]
	require.Equal(t, tensor.Shape{nu, 3}, rows.Values.Shape())
	rv := rows.Values.Values()
	for i := 1; i < nu; i++ {
		assert.Negative(t, slices.Compare(rv[(i-1)*3:i*3], rv[i*3:(i+1)*3]), "rows in lexicographic order")
	}
	var total int64
	for i := range 20 {
		k := rows.Inverse.Values()[i]
		assert.Equal(t, data[i*3:(i+1)*3], rv[k*3:(k+1)*3], "row %d", i)
	}
	for _, c := range rows.Counts.Values() {
		total += c
	}
	assert.Equal(t, int64(20), total)

	cols, err := exec.Unique(expr.Of(x), exec.UniqueAxis(-1))
	require.NoError(t, err)
	assert.Equal(t, 20, cols.Values.Shape()[0], "columns keep their length")
	assert.Equal(t, tensor.Shape{3}, cols.Inverse.Shape())
}

// TestSortErrors checks the typed errors, and that a sticky expression
// error comes back unchanged.
func TestSortErrors(t *testing.T) {
	x := expr.Of(tensor.Must(tensor.FromSlice([]float32{3, 1, 2}, 3)))
	var axisErr *tensor.AxisError
	_, err := exec.Sort(x, 1)
	assert.ErrorAs(t, err, &axisErr)
	_, err = exec.ArgSort(x, -2)
	assert.ErrorAs(t, err, &axisErr)
	_, err = exec.Unique(x, exec.UniqueAxis(2))
	assert.ErrorAs(t, err, &axisErr)

	var argErr *tensor.ArgError
	_, _, err = exec.TopK(x, 4, 0)
	require.ErrorAs(t, err, &argErr)
	assert.EqualError(t, err, "TopK: k (4) is out of range for dimension 0 with size 3 (shape [3])")
	_, _, err = exec.TopK(x, -1, 0)
	assert.ErrorAs(t, err, &argErr)
	_, _, err = exec.KthValue(x, 0, 0)
	assert.ErrorAs(t, err, &argErr)
	_, _, err = exec.KthValue(x, 4, 0)
	assert.ErrorAs(t, err, &argErr)

	var shapeErr *tensor.ShapeError
	m := expr.Of(tensor.Must(tensor.New[float32](2, 3)))
	_, err = exec.SearchSorted(m, expr.Of(tensor.Must(tensor.New[float32](3, 3))))
	require.ErrorAs(t, err, &shapeErr)
	assert.Equal(t, 0, shapeErr.Axis)
	_, err = exec.SearchSorted(m, x)
	assert.ErrorAs(t, err, &shapeErr)
	_, err = exec.SearchSorted(expr.Of(tensor.Must(tensor.New[float32]())), x)
	assert.ErrorAs(t, err, &shapeErr)

	bad := x.Add(expr.Of(tensor.Must(tensor.New[float32](2))))
	require.Error(t, bad.Err())
	_, err = exec.Sort(bad, 0)
	assert.Same(t, bad.Err(), err)
	_, err = exec.SearchSorted(x, bad)
	assert.Same(t, bad.Err(), err)

	closed := exec.New()
	closed.Close()
	_, err = exec.Sort(x, 0, exec.Using(closed))
	assert.ErrorIs(t, err, exec.ErrClosed)
	_, err = exec.Unique(x, exec.Using(nil))
	assert.ErrorIs(t, err, exec.ErrNilExecutor)
}

// TestSortEmptyAndBool covers zero-size axes, other axes of size zero and
// bool order.
func TestSortEmptyAndBool(t *testing.T) {
	empty := expr.Of(tensor.Must(tensor.New[float64](3, 0)))
	for _, axis := range []int{0, 1} {
		got, err := exec.Sort(empty, axis)
		require.NoError(t, err)
		assert.Equal(t, tensor.Shape{3, 0}, got.Shape())
		v, i, err := exec.TopK(empty, 0, axis)
		require.NoError(t, err)
		assert.Equal(t, 0, v.Numel()+i.Numel())
	}
	b := expr.Of(tensor.Must(tensor.FromSlice([]bool{true, false, true, false, false}, 5)))
	idx, err := exec.ArgSort(b, 0, exec.Descending())
	require.NoError(t, err)
	assert.Equal(t, []int64{0, 2, 1, 3, 4}, idx.Values())
	u, err := exec.Unique(b)
	require.NoError(t, err)
	assert.Equal(t, []bool{false, true}, u.Values.Values())
	assert.Equal(t, []int64{3, 2}, u.Counts.Values())
}

// The rows of a matrix sorted, the indices of the two largest per row, and
// where new values fit into a sorted sequence.
func ExampleSort() {
	m := expr.Of(tensor.Must(tensor.FromSlice([]float64{3, 1, 2, math.NaN(), -1, 0}, 2, 3)))
	sorted, _ := exec.Sort(m, -1)
	fmt.Println(sorted.Values())
	vals, idx, _ := exec.TopK(m, 2, -1)
	fmt.Println(vals.Values(), idx.Values())
	seq := expr.Of(tensor.Must(tensor.FromSlice([]float64{1, 2, 2, 5}, 4)))
	at, _ := exec.SearchSorted(seq, expr.Of(tensor.Must(tensor.FromSlice([]float64{2, 6}, 2))))
	fmt.Println(at.Values())
	// Output:
	// [1 2 3 -1 0 NaN]
	// [3 2 NaN 0] [0 2 0 2]
	// [1 4]
}

// TestArgSortStableOnLongRows checks stability where the sort is not an
// insertion sort: rows of 3000 elements with five distinct values.
func TestArgSortStableOnLongRows(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	data := make([]float32, 2*3000)
	for i := range data {
		data[i] = float32(r.IntN(5))
	}
	x := expr.Of(tensor.Must(tensor.FromSlice(data, 2, 3000)))
	for _, desc := range []bool{false, true} {
		var opts []exec.SortOption
		if desc {
			opts = append(opts, exec.Descending())
		}
		idx, err := exec.ArgSort(x, 1, opts...)
		require.NoError(t, err)
		got := idx.Values()
		for row := range 2 {
			want := make([]int64, 3000)
			for j := range want {
				want[j] = int64(j)
			}
			vals := data[row*3000 : (row+1)*3000]
			slices.SortStableFunc(want, func(a, b int64) int {
				if desc {
					return int(vals[b]) - int(vals[a])
				}
				return int(vals[a]) - int(vals[b])
			})
			assert.Equal(t, want, got[row*3000:(row+1)*3000], "row %d descending %v", row, desc)
		}
	}
}
