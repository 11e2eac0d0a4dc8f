package exec

import "github.com/tensorplay/tensorplay/internal/matmul"

// poolRunner runs the parts of a matrix product (internal/matmul's Runner)
// on the executor's worker pool, the calling goroutine among them, as its
// fused regions run: no goroutine is started per product.
type poolRunner struct{ x *Executor }

var _ matmul.Runner = poolRunner{}

func (r poolRunner) Workers() int { return r.x.workers }

// Run runs t's parts 0..n-1 as the tasks of one pool job. A part that
// panics stops the job and the panic reaches the evaluation's entry point
// as its error, as a kernel's would.
func (r poolRunner) Run(n int, t matmul.Task) {
	if n == 1 || r.x.workers == 1 {
		for i := range n {
			t.RunTask(i)
		}
		return
	}
	r.x.pool().parallel(n, t)
}
