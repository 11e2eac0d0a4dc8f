package linalg

import (
	"fmt"
	"sync"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// Float is an element type of the matrix functions. Both are computed in
// float64 by gonum's LAPACK; float32 results are rounded from it.
type Float interface {
	float32 | float64
}

// stack is a batch of m×n matrices in float64, row-major and contiguous:
// matrix b is data[b*m*n : (b+1)*m*n].
type stack struct {
	batch tensor.Shape
	m, n  int
	data  []float64
}

func (s *stack) count() int { return numel(s.batch) }

// mat returns matrix b.
func (s *stack) mat(b int) []float64 { return s.data[b*s.m*s.n : (b+1)*s.m*s.n] }

func numel(s tensor.Shape) int {
	n := 1
	for _, d := range s {
		n *= d
	}
	return n
}

// load evaluates e on c's executor and reads it as a stack of matrices
// (minRank 2) or, with minRank 1, of vectors seen as n×1 matrices.
func load[T Float](c config, op string, e expr.Expr[T], minRank int) (*stack, error) {
	if err := e.Err(); err != nil {
		return nil, err
	}
	shape := e.Shape()
	if len(shape) < minRank {
		return nil, &tensor.ShapeError{Shape: shape, Axis: -1,
			Reason: fmt.Sprintf("%s needs at least %d dimensions", op, minRank)}
	}
	t, err := exec.EvalWith(c.x, e)
	if err != nil {
		return nil, err
	}
	r := len(shape)
	s := &stack{}
	if minRank == 1 {
		s.batch, s.m, s.n = shape[:r-1].Clone(), shape[r-1], 1
	} else {
		s.batch, s.m, s.n = shape[:r-2].Clone(), shape[r-2], shape[r-1]
	}
	if err := tensor.CheckAlloc(dtype.Float64, shape); err != nil {
		return nil, err
	}
	vals := t.Values()
	if v, ok := any(vals).([]float64); ok {
		s.data = v // Values is a fresh copy: ours to overwrite
		return s, nil
	}
	s.data = make([]float64, len(vals))
	for i, v := range vals {
		s.data[i] = float64(v)
	}
	return s, nil
}

// square checks that s holds square matrices.
func square(op string, s *stack) error {
	if s.m != s.n {
		shape := append(s.batch.Clone(), s.m, s.n)
		return &tensor.ShapeError{Shape: shape, Axis: len(shape) - 1,
			Reason: fmt.Sprintf("%s needs square matrices, these are %d×%d", op, s.m, s.n)}
	}
	return nil
}

// result makes a tensor of T of the given shape from float64 values,
// rounding them for float32.
func result[T Float](data []float64, shape ...int) (*tensor.Tensor[T], error) {
	if d, ok := any(data).([]T); ok {
		return tensor.FromSlice(d, shape...)
	}
	out := make([]T, len(data))
	for i, v := range data {
		out[i] = T(v)
	}
	return tensor.FromSlice(out, shape...)
}

// with appends dims to a batch shape, as a new []int.
func with(batch tensor.Shape, dims ...int) []int {
	return append(append(make([]int, 0, len(batch)+len(dims)), batch...), dims...)
}

// unravel returns the multi-index of flat index i in shape.
func unravel(i int, shape tensor.Shape) []int {
	idx := make([]int, len(shape))
	for k := len(shape) - 1; k >= 0; k-- {
		if shape[k] > 0 {
			idx[k] = i % shape[k]
			i /= shape[k]
		}
	}
	return idx
}

// broadcastIndex maps each flat index of shape to to the flat index of the
// same element in shape from, which broadcasts to it (right-aligned, size-1
// axes repeated).
func broadcastIndex(from, to tensor.Shape) []int {
	idx := make([]int, numel(to))
	pad := len(to) - len(from)
	for i := range idx {
		at, k := 0, i
		stride := 1
		for d := len(to) - 1; d >= 0; d-- {
			c := k % to[d]
			k /= to[d]
			if fd := d - pad; fd >= 0 {
				if from[fd] != 1 {
					at += c * stride
				}
				stride *= from[fd]
			}
		}
		idx[i] = at
	}
	return idx
}

// batchError is the error of matrix b of a batch.
type batchError struct {
	b   int
	err error
}

// parallelWork is the number of flops (about) below which a batch is
// factorized on the calling goroutine alone.
const parallelWork = 1 << 16

// each calls f for every matrix b in [0, count), splitting the batch into
// contiguous ranges over at most c's worker count of goroutines when the
// work (count matrices of about cost flops each) is large enough. Each
// range stops at its first error; each returns the error of the first
// failing matrix in row-major order, so that the error, like the results,
// does not depend on the number of workers. A panic in f is returned as an
// error.
func (c config) each(op string, batch tensor.Shape, cost int, f func(b int) error) error {
	count := numel(batch)
	if count == 0 {
		return nil
	}
	tasks := 1
	if w := c.x.Workers(); w > 1 && count > 1 && count*max(cost, 1) >= parallelWork {
		tasks = min(w, count)
	}
	first := make([]batchError, tasks)
	run := func(t int) {
		lo, hi := t*count/tasks, (t+1)*count/tasks
		defer func() {
			if r := recover(); r != nil {
				first[t] = batchError{lo, fmt.Errorf("%s: internal error: %v", op, r)}
			}
		}()
		for b := lo; b < hi; b++ {
			if err := f(b); err != nil {
				first[t] = batchError{b, err}
				return
			}
		}
	}
	if tasks == 1 {
		run(0)
	} else {
		var wg sync.WaitGroup
		for t := range tasks {
			wg.Go(func() { run(t) })
		}
		wg.Wait()
	}
	for _, e := range first {
		if e.err != nil {
			return e.err
		}
	}
	return nil
}

// eps is the machine epsilon of T.
func eps[T Float]() float64 {
	if _, ok := any(T(0)).(float32); ok {
		return 0x1p-23
	}
	return 0x1p-52
}
