package exec

import (
	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/internal/matmul"
	"github.com/tensorplay/tensorplay/tensor"
)

// gemmArgs is one run's operand lists of a matmul step, reused across runs
// (matmulStep.args) so that a cached plan's product allocates nothing of
// its own: the batch's matrices, the batch index, and the epilogue's
// callback, made once with the lists.
type gemmArgs[T dtype.Numeric] struct {
	dst, a, b []matmul.Matrix[T]
	idx       []int
	epi       matmul.Epilogue // ga.span
	sr        spanRunner
	vals      []tensor.Any
	m         int
}

// getGemmArgs returns the step's lists for a batch of nb products.
func getGemmArgs[T dtype.Numeric](s *matmulStep, nb int) *gemmArgs[T] {
	ga, _ := s.args.Get().(*gemmArgs[T])
	if ga == nil || cap(ga.dst) < nb {
		ga = &gemmArgs[T]{dst: make([]matmul.Matrix[T], nb), a: make([]matmul.Matrix[T], nb),
			b: make([]matmul.Matrix[T], nb), idx: make([]int, len(s.batch))}
		ga.epi = ga.span
	}
	ga.dst, ga.a, ga.b = ga.dst[:nb], ga.a[:nb], ga.b[:nb]
	clear(ga.idx)
	return ga
}

// span applies the epilogue to a block of the result: a window of its rows
// of m elements.
func (ga *gemmArgs[T]) span(off, rows, cols int) {
	ga.sr.runSpan(ga.vals, off/ga.m, rows, off%ga.m, cols)
}

// put forgets the run's tensors and gives the lists back to the step.
func (ga *gemmArgs[T]) put(s *matmulStep) {
	clear(ga.dst)
	clear(ga.a)
	clear(ga.b)
	ga.sr, ga.vals = nil, nil
	s.args.Put(ga)
}
