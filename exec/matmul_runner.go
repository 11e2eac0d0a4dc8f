package exec

import "github.com/tensorplay/tensorplay/internal/matmul"

// poolRunner runs the parts of a matrix product (internal/matmul's Runner)
// on the executor's worker pool, the calling goroutine among them, as its
// fused regions run: no goroutine is started per product.
type poolRunner struct{ x *Executor }

var _ matmul.Runner = poolRunner{}

func (r poolRunner) Workers() int { return r.x.workers }

// Parallel runs f(0..n-1) as the tasks of one pool job. A part that panics
// stops the job and the panic reaches the evaluation's entry point as its
// error, as a kernel's would.
func (r poolRunner) Parallel(n int, f func(i int)) {
	if n == 1 || r.x.workers == 1 {
		for i := range n {
			f(i)
		}
		return
	}
	r.x.pool().parallel(n, funcTasks(f))
}

// funcTasks is a tasker whose task i is f(i).
type funcTasks func(i int)

func (f funcTasks) runTask(i int) { f(i) }
