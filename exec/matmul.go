package exec

import (
	"fmt"
	"io"
	"sync"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/matmul"
	"github.com/tensorplay/tensorplay/tensor"
)

// matmulStep multiplies two values with NumPy's matmul rules. Each operand
// is seen as a batch of strided matrices (a 1-D operand as a row or column
// vector, broadcast batch axes with stride 0) and handed to internal/matmul,
// which runs them on the executor's workers (see poolRunner).
type matmulStep struct {
	a, b, out  int
	batch      tensor.Shape
	aMat, bMat mat   // the matrix part of each operand
	aBatch     []int // operand strides over batch
	bBatch     []int
	n, k, m    int
	dt         dtype.DType
	epi        *epilogue // applied to each block of the result, or nil (see fuseEpilogues)
	args       sync.Pool // *gemmArgs[T]: a run's operand lists (see matmul_args.go)
}

// spanRunner is *epilogue's runSpan.
type spanRunner interface {
	runSpan(vals []tensor.Any, r0, rows, c0, cols int)
}

// mat is a matrix view: offset, extents and strides.
type mat struct{ off, rows, cols, rs, cs int }

func (pl *planner) buildMatMul(n *expr.Node) (step, error) {
	args := pl.args(n)
	s := &matmulStep{a: pl.valueOf[args[0]], b: pl.valueOf[args[1]], out: pl.valueOf[n], dt: n.DType()}
	// internal/matmul packs operands of non-negative strides: a reversed
	// operand (a flipped view) is copied first, just before the product.
	for _, op := range []*int{&s.a, &s.b} {
		if v := &pl.p.values[*op]; reversed(v.shape, v.strides) {
			*op = pl.stage(*op, "matmul reads operands of non-negative strides")
			for _, cp := range pl.pendingStage {
				pl.addStep(pl.level[n], cp)
			}
			pl.pendingStage = pl.pendingStage[:0]
		}
	}
	av, bv := &pl.p.values[s.a], &pl.p.values[s.b]
	as, ast := av.shape, av.strides
	bs, bst := bv.shape, bv.strides
	if len(as) == 1 {
		as, ast = tensor.Shape{1, as[0]}, []int{0, ast[0]}
	}
	if len(bs) == 1 {
		bs, bst = tensor.Shape{bs[0], 1}, []int{bst[0], 0}
	}
	ra, rb := len(as), len(bs)
	s.n, s.k, s.m = as[ra-2], as[ra-1], bs[rb-1]
	s.aMat = mat{av.offset, s.n, s.k, ast[ra-2], ast[ra-1]}
	s.bMat = mat{bv.offset, s.k, s.m, bst[rb-2], bst[rb-1]}
	batch, err := tensor.BroadcastShapes(as[:ra-2], bs[:rb-2])
	if err != nil {
		return nil, err
	}
	s.batch = batch
	if s.aBatch, err = tensor.BroadcastStrides(as[:ra-2], ast[:ra-2], batch); err != nil {
		return nil, err
	}
	if s.bBatch, err = tensor.BroadcastStrides(bs[:rb-2], bst[:rb-2], batch); err != nil {
		return nil, err
	}
	if _, ok := typedFor(s.dt).(matmuler); !ok {
		return nil, fmt.Errorf("exec: no matmul kernel for %s", s.dt)
	}
	return s, nil
}

// matmuler is implemented by the numeric impls.
type matmuler interface {
	matmul(s *matmulStep, vals []tensor.Any, r matmul.Runner)
}

func (s *matmulStep) run(x *Executor, vals []tensor.Any) error {
	typedFor(s.dt).(matmuler).matmul(s, vals, poolRunner{x})
	return nil
}

// values lists what the step reads (both factors and its epilogue's
// operands) and writes.
func (s *matmulStep) values() (reads, writes []int) {
	reads = []int{s.a, s.b}
	if s.epi != nil {
		reads = append(reads, s.epi.g.inputs...)
	}
	return reads, []int{s.out}
}

func (s *matmulStep) describe(w io.Writer, names func(v int) string) {
	fmt.Fprintf(w, "  matmul %s = %s @ %s: batch %v of %dx%d @ %dx%d\n", names(s.out), names(s.a), names(s.b), s.batch, s.n, s.k, s.k, s.m)
	if s.epi != nil {
		s.epi.describe(w, names)
	}
}

func (m *impl[T]) matmul(s *matmulStep, vals []tensor.Any, r matmul.Runner) {
	m.gemm(s, vals, r)
}

// batchedGemm runs s with internal/matmul for a numeric T.
func batchedGemm[T dtype.Numeric](s *matmulStep, vals []tensor.Any, r matmul.Runner) {
	ad := vals[s.a].(*tensor.Tensor[T]).Data()
	bd := vals[s.b].(*tensor.Tensor[T]).Data()
	nb := 1
	for _, d := range s.batch {
		nb *= d
	}
	// The result is row-major from offset 0; its storage may be the head of
	// a larger buffer, so the slice ends at its last element.
	od := vals[s.out].(*tensor.Tensor[T]).Data()[:nb*s.n*s.m]
	ga := getGemmArgs[T](s, nb)
	defer ga.put(s)
	dst, as, bs, idx := ga.dst, ga.a, ga.b, ga.idx
	for i := 0; i < nb; i++ {
		ao, bo := s.aMat.off, s.bMat.off
		for k, ix := range idx {
			ao += ix * s.aBatch[k]
			bo += ix * s.bBatch[k]
		}
		as[i] = matmul.Matrix[T]{Data: ad, Offset: ao, Rows: s.n, Cols: s.k, RowStride: s.aMat.rs, ColStride: s.aMat.cs}
		bs[i] = matmul.Matrix[T]{Data: bd, Offset: bo, Rows: s.k, Cols: s.m, RowStride: s.bMat.rs, ColStride: s.bMat.cs}
		dst[i] = matmul.Matrix[T]{Data: od, Offset: i * s.n * s.m, Rows: s.n, Cols: s.m, RowStride: s.m, ColStride: 1}
		for k := len(idx) - 1; k >= 0; k-- {
			if idx[k]++; idx[k] < s.batch[k] {
				break
			}
			idx[k] = 0
		}
	}
	var epi matmul.Epilogue
	if s.epi != nil {
		// Blocks of dst are windows of the result's rows of s.m elements.
		// (Through an interface: the kernel table, which refers to this
		// function, must not depend on the region interpreter, which
		// refers to the table.)
		ga.sr, ga.vals, ga.m = s.epi, vals, s.m
		epi = ga.epi
	}
	if ra, rb, ro := releaserOf(vals[s.a]), releaserOf(vals[s.b]), releaserOf(vals[s.out]); ra != nil || rb != nil || ro != nil {
		bandedGemm(dst, as, bs, r, epi, ra, rb, ro) // a mapped operand (matmul_mapped.go)
		return
	}
	matmul.Batched(dst, as, bs, r, epi)
}

// reversed reports whether a layout walks an axis of extent > 1 backwards.
func reversed(shape tensor.Shape, strides []int) bool {
	for i, d := range shape {
		if d > 1 && strides[i] < 0 {
			return true
		}
	}
	return false
}
