package tensor_test

import (
	"errors"
	"fmt"

	"github.com/tensorplay/tensorplay/tensor"
)

func ExampleFromSlice() {
	data := []float64{1, 2, 3, 4, 5, 6}
	x, err := tensor.FromSlice(data, 2, 3) // wraps data, no copy
	if err != nil {
		panic(err)
	}
	data[0] = 10
	fmt.Println(x)
	fmt.Println(x.Shape(), x.Strides())

	_, err = tensor.FromSlice(data, 4, 2)
	fmt.Println(err)
	// Output:
	// [[10.  2.  3.]
	//  [ 4.  5.  6.]]
	// [2, 3] [3 1]
	// invalid shape [4, 2]: needs 8 elements, data has 6
}

func ExampleArange() {
	x, _ := tensor.Arange(0, 10, 3)
	y, _ := tensor.Arange(1.0, 0.0, -0.25)
	fmt.Println(x)
	fmt.Println(y)
	// Output:
	// [0 3 6 9]
	// [1.   0.75 0.5  0.25]
}

func ExampleLinspace() {
	x, _ := tensor.Linspace(0.0, 1.0, 5)
	fmt.Println(x)
	// Output: [0.   0.25 0.5  0.75 1.  ]
}

func ExampleEye() {
	x, _ := tensor.Eye[int32](3)
	fmt.Printf("%+v\n", x)
	// Output:
	// tensor([[1, 0, 0],
	//         [0, 1, 0],
	//         [0, 0, 1]], dtype=int32)
}

func ExampleRandN() {
	a, _ := tensor.RandN[float64](7, 2, 3)
	b, _ := tensor.RandN[float64](7, 2, 3)
	fmt.Println(a.Shape(), fmt.Sprint(a) == fmt.Sprint(b))
	// Output: [2, 3] true
}

func ExampleFromNested2() {
	x, _ := tensor.FromNested2([][]float32{{1, 2}, {3, 4}})
	fmt.Println(x)
	_, err := tensor.FromNested2([][]int{{1, 2}, {3}})
	fmt.Println(err)
	// Output:
	// [[1. 2.]
	//  [3. 4.]]
	// FromNested2: row 1 has 1 elements, want 2 (the length of row 0)
}

func ExampleTensor_Reshape() {
	x := tensor.Must(tensor.Arange(0, 6, 1))
	m, _ := x.Reshape(2, -1) // a view: x is contiguous
	fmt.Println(m)
	fmt.Println(m.SameStorage(x))

	t, _ := m.T()
	flat, _ := t.Reshape(6) // a transposed matrix cannot be viewed flat: copies
	fmt.Println(flat, flat.SameStorage(x))

	_, err := t.ReshapeView(6)
	fmt.Println(err != nil)
	// Output:
	// [[0 1 2]
	//  [3 4 5]]
	// true
	// [0 3 1 4 2 5] false
	// true
}

func ExampleTensor_Slice() {
	x := tensor.Must(tensor.Arange(0, 10, 1))
	a, _ := x.Slice(0, 1, 8, 3)    // x[1:8:3]
	b, _ := x.Slice(0, -3, 100, 1) // x[-3:100], clamped like Python
	fmt.Println(a, b)
	_, err := x.Slice(0, 0, 5, 0)
	fmt.Println(err)
	// Output:
	// [1 4 7] [7 8 9]
	// Slice: slice step cannot be zero
}

func ExampleTensor_Index() {
	x := tensor.Must(tensor.Must(tensor.Arange(0, 6, 1)).Reshape(2, 3))
	row, _ := x.Index(0, -1)
	col, _ := x.Index(1, 1)
	fmt.Println(row, col)
	_, err := x.Index(0, 2)
	fmt.Println(err)
	// Output:
	// [3 4 5] [1 4]
	// index 2 is out of bounds for dimension 0 with size 2
}

func ExampleTensor_Expand() {
	x := tensor.Must(tensor.FromSlice([]float64{1, 2, 3}, 3, 1))
	e, _ := x.Expand(2, 3, 4) // stride 0 on the new and the grown axes
	fmt.Println(e.Shape(), e.Strides())

	_, err := x.Expand(2, 4)
	fmt.Println(err)
	var ee *tensor.ExpandError
	fmt.Println(errors.As(err, &ee), ee.Dim)
	// Output:
	// [2, 3, 4] [0 1 0]
	// The expanded size of the tensor (2) must match the existing size (3) at non-singleton dimension 0.  Target sizes: [2, 4].  Tensor sizes: [3, 1]
	// true 0
}

func ExampleTensor_Permute() {
	x := tensor.Must(tensor.Zeros[float32](2, 3, 4))
	p, _ := x.Permute(2, 0, 1)
	fmt.Println(p.Shape(), p.Strides(), p.IsContiguous())
	// Output: [4, 2, 3] [1 12 4] false
}

func ExampleTensor_At() {
	x := tensor.Must(tensor.Must(tensor.Arange(0.0, 6, 1)).Reshape(2, 3))
	_ = x.Set(-1, 1, -1)
	v, _ := x.At(1, 2)
	fmt.Println(v)
	_, err := x.At(0, 3)
	fmt.Println(err)
	// Output:
	// -1
	// index 3 is out of bounds for dimension 1 with size 3
}

func ExampleTensor_Format() {
	x := tensor.Must(tensor.FromSlice([]float64{1, 2.5, -1.0 / 3, 1e3}, 2, 2))
	fmt.Printf("%v\n", x)
	fmt.Printf("%.2v\n", x)
	fmt.Printf("%+v\n", x)
	c := tensor.Must(tensor.FromSlice([]complex128{1 + 2i, 3.5 - 1i}, 2))
	b := tensor.Must(tensor.FromSlice([]bool{true, false}, 2))
	fmt.Println(c, b)
	// Output:
	// [[ 1.00000000e+00  2.50000000e+00]
	//  [-3.33333333e-01  1.00000000e+03]]
	// [[ 1.00e+00  2.50e+00]
	//  [-3.33e-01  1.00e+03]]
	// tensor([[ 1.00000000e+00,  2.50000000e+00],
	//         [-3.33333333e-01,  1.00000000e+03]], dtype=float64)
	// [1. +2.j 3.5-1.j] [ True False]
}

func ExampleTensor_Format_summary() {
	x := tensor.Must(tensor.Arange(0, 2000, 1))
	fmt.Println(x)
	// Output: [   0    1    2 ... 1997 1998 1999]
}

func ExampleBroadcastShapes() {
	s, _ := tensor.BroadcastShapes(tensor.Shape{5, 1, 4, 1}, tensor.Shape{3, 1, 1})
	fmt.Println(s)

	_, err := tensor.BroadcastShapes(tensor.Shape{5, 2, 4, 1}, tensor.Shape{3, 1, 1})
	fmt.Println(err)
	var be *tensor.BroadcastError
	if errors.As(err, &be) {
		fmt.Println(be.Dim, be.SizeA, be.SizeB)
	}
	// Output:
	// [5, 3, 4, 1]
	// The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1
	// 1 2 3
}

func ExampleCheckBroadcastShape() {
	fmt.Println(tensor.CheckBroadcastShape(tensor.Shape{2, 1}, tensor.Shape{2, 10}))
	fmt.Println(tensor.CheckBroadcastShape(tensor.Shape{2, 2}, tensor.Shape{2, 10}))
	// Output:
	// true
	// false
}

func ExampleBroadcastInferShape() {
	s, _ := tensor.BroadcastInferShape(tensor.Shape{2, 2, 5}, tensor.Shape{2, 1, 5})
	fmt.Println(s)
	_, err := tensor.BroadcastInferShape(tensor.Shape{2, 2}, tensor.Shape{2, 5})
	fmt.Println(err)
	// Output:
	// [2, 2, 5]
	// The tensor whose shape is [2, 2] and the tensor whose shape is [2, 5] do not meet the broadcast condition
}

func ExampleMergedBroadcastShape() {
	m, _ := tensor.MergedBroadcastShape(tensor.Shape{5, 1, 5, 1, 5, 1}, tensor.Shape{5, 5, 5, 5, 5, 5})
	fmt.Println(m, m.Rank())
	m, _ = tensor.MergedBroadcastShape(tensor.Shape{5, 1, 5, 5, 1, 1}, tensor.Shape{5, 5, 5, 5, 5, 5})
	fmt.Println(m, m.Rank())
	// Output:
	// [5, 5, 5, 5, 5, 5] 6
	// [5, 5, 25, 25] 4
}

// SetHugePages turns on the huge-page advice (where Linux has transparent
// huge pages) for what is allocated next, here a 4 MiB tensor, and the
// previous setting comes back after.
func ExampleSetHugePages() {
	was := tensor.SetHugePages(true)
	defer tensor.SetHugePages(was)
	x := tensor.Must(tensor.New[float64](512, 1024))
	fmt.Println(x.Numel()*8>>20, "MiB")
	// Output: 4 MiB
}

// Idx takes NumPy's whole subscript in one call: u[1:-1, ::-1].
func ExampleTensor_Idx() {
	u, _ := tensor.FromSlice([]float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, 3, 4)
	inner, err := u.Idx(tensor.S(1, -1), tensor.Step(-1))
	fmt.Println(inner, err)
	_, err = u.Idx(tensor.All, tensor.I(4))
	fmt.Println(err)
	// Output:
	// [[7. 6. 5. 4.]] <nil>
	// Idx[:, 4] of shape [3, 4] at dimension 1: index 4 is out of bounds for dimension 1 with size 4
}

// Flip reverses axes as a view with negative strides.
func ExampleTensor_Flip() {
	a, _ := tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	f, _ := a.Flip(1)
	fmt.Println(f, f.Strides())
	// Output:
	// [[3. 2. 1.]
	//  [6. 5. 4.]] [3 -1]
}
