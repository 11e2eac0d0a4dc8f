package bench

import (
	"fmt"
	"unsafe"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// rowKernel is a hand loop body over units [lo, hi) of a rows x cols output:
// rows, or for W9 tiles of rows.
type rowKernel[T dtype.Float] func(dst []T, lo, hi int)

// gridCase sets up a workload whose output is a rows x cols matrix written
// into a preallocated tensor, with a hand loop that splits units (rows, or
// tiles of rows) among p.Workers goroutines. read is the number of input
// elements one run reads. peer, if not nil, is the case for the peers,
// without its Outputs (the output tensor).
func gridCase[T dtype.Float](p Params, rows, cols, units, read int, e expr.Expr[T], peer *PeerCase, kernel rowKernel[T]) (*Case, error) {
	if err := e.Err(); err != nil {
		return nil, err
	}
	out, err := tensor.New[T](rows, cols)
	if err != nil {
		return nil, err
	}
	hand := handStorage[T](rows * cols)
	var z T
	if peer != nil {
		peer.Outputs = outputs(out)
	}
	return &Case{
		Peer:       peer,
		Shape:      fmt.Sprintf("%dx%d", rows, cols),
		Tensorplay: func() error { return exec.EvalToWith(p.Exec, out, e) },
		HandLoop: func() error {
			parallelFor(p.Workers, units, 1, func(lo, hi int) { kernel(hand, lo, hi) })
			return nil
		},
		Check: func() error { return AllClose(out.Data(), hand, 1e-14, 1e-14) },
		Bytes: int64(read+rows*cols) * int64(unsafe.Sizeof(z)),
		Flops: int64(rows * cols),
	}, nil
}

// w5 is [R,C] + [1,C]: a row vector added to every row.
func w5(p Params) (*Case, error) {
	r, c := Side(p.Size), Side(p.Size)
	a, err := tensor.Rand[float64](p.Seed, r, c)
	if err != nil {
		return nil, err
	}
	b, err := tensor.Rand[float64](p.Seed+1, 1, c)
	if err != nil {
		return nil, err
	}
	ad, bd := a.Data(), b.Data()
	return gridCase(p, r, c, r, r*c+c, expr.Of(a).Add(expr.Of(b)), abPeer("w5", a, b), func(dst []float64, lo, hi int) {
		for i := lo; i < hi; i++ {
			o, x := dst[i*c:(i+1)*c], ad[i*c:(i+1)*c]
			y := bd[:len(o)]
			for j := range o {
				o[j] = x[j] + y[j]
			}
		}
	})
}

// w6 is [R,C] + [R,1]: a column vector added to every column.
func w6(p Params) (*Case, error) {
	r, c := Side(p.Size), Side(p.Size)
	a, err := tensor.Rand[float64](p.Seed, r, c)
	if err != nil {
		return nil, err
	}
	b, err := tensor.Rand[float64](p.Seed+1, r, 1)
	if err != nil {
		return nil, err
	}
	ad, bd := a.Data(), b.Data()
	return gridCase(p, r, c, r, r*c+r, expr.Of(a).Add(expr.Of(b)), abPeer("w6", a, b), func(dst []float64, lo, hi int) {
		for i := lo; i < hi; i++ {
			o, x := dst[i*c:(i+1)*c], ad[i*c:(i+1)*c]
			y := bd[i]
			for j := range o {
				o[j] = x[j] + y
			}
		}
	})
}

// w7 is [R,1] * [1,C]: an outer product by broadcasting.
func w7(p Params) (*Case, error) {
	r, c := Side(p.Size), Side(p.Size)
	a, err := tensor.Rand[float64](p.Seed, r, 1)
	if err != nil {
		return nil, err
	}
	b, err := tensor.Rand[float64](p.Seed+1, 1, c)
	if err != nil {
		return nil, err
	}
	ad, bd := a.Data(), b.Data()
	return gridCase(p, r, c, r, r+c, expr.Of(a).Mul(expr.Of(b)), abPeer("w7", a, b), func(dst []float64, lo, hi int) {
		for i := lo; i < hi; i++ {
			o := dst[i*c : (i+1)*c]
			x, y := ad[i], bd[:len(o)]
			for j := range o {
				o[j] = x * y[j]
			}
		}
	})
}

// The W9 hand loop walks tiles of transposeRows × transposeCols: a tile's
// first row reads one cache line from each of 512 rows of b, and its next
// rows find the rest of those lines in cache. Of the shapes measured for a
// hand loop on 3162² float64 (16×512 to 512×512, 64×64 to 256×256, whole
// rows) it was the fastest, 1.6x faster than 64×64 squares.
const (
	transposeRows = 128
	transposeCols = 512
)

// w9 is a + b.T with b a transposed view: the hand loop is a tiled
// transposing loop, what a Go programmer who cares would write.
func w9(p Params) (*Case, error) {
	n := Side(p.Size)
	a, err := tensor.Rand[float64](p.Seed, n, n)
	if err != nil {
		return nil, err
	}
	b, err := tensor.Rand[float64](p.Seed+1, n, n)
	if err != nil {
		return nil, err
	}
	bt, err := b.T()
	if err != nil {
		return nil, err
	}
	ad, bd := a.Data(), b.Data()
	tiles := (n + transposeRows - 1) / transposeRows
	return gridCase(p, n, n, tiles, 2*n*n, expr.Of(a).Add(expr.Of(bt)), abPeer("w9", a, b), func(dst []float64, lo, hi int) {
		for ti := lo; ti < hi; ti++ {
			i0, i1 := ti*transposeRows, min((ti+1)*transposeRows, n)
			for j0 := 0; j0 < n; j0 += transposeCols {
				j1 := min(j0+transposeCols, n)
				for i := i0; i < i1; i++ {
					o, x := dst[i*n+j0:i*n+j1], ad[i*n+j0:i*n+j1]
					for j := range o {
						o[j] = x[j] + bd[(j0+j)*n+i]
					}
				}
			}
		}
	})
}

// abPeer is the peer case of a two-operand row, a and b by name (W9's b
// untransposed: the peer script transposes it as tensorplay's view does).
func abPeer(name string, a, b *tensor.Tensor[float64]) *PeerCase {
	return &PeerCase{Pipeline: name, Inputs: []PeerInput{{"a", a}, {"b", b}}}
}
