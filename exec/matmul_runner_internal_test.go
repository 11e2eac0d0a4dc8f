package exec

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// TestMatMulRunsOnPool checks that a product large enough to split, and a
// batch of small products, run their parts as tasks of the executor's
// pool, some of them on its worker goroutines.
func TestMatMulRunsOnPool(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b tensor.Shape
	}{
		{"packed-bands", tensor.Shape{200, 300}, tensor.Shape{300, 100}},
		{"small-batch", tensor.Shape{64, 16, 20}, tensor.Shape{64, 20, 16}}, // 5120 multiply-adds a product, 327680 in all
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := tensor.Must(tensor.RandN[float64](1, tc.a...))
			b := tensor.Must(tensor.RandN[float64](2, tc.b...))
			x := New(Workers(2))
			defer x.Close()
			// The calling goroutine takes tasks too: it waits in its first
			// task until a worker has taken one, so that both take part
			// whatever the scheduling (a loaded CI machine may otherwise let
			// the caller drain every task).
			var onWorker, tasks atomic.Int64
			ran, gaveUp := make(chan struct{}), make(chan struct{})
			var ranOnce sync.Once
			stop := time.AfterFunc(10*time.Second, func() { close(gaveUp) })
			defer stop.Stop()
			taskHook = func(worker bool) {
				tasks.Add(1)
				if worker {
					onWorker.Add(1)
					ranOnce.Do(func() { close(ran) })
					return
				}
				select {
				case <-ran:
				case <-gaveUp:
				}
			}
			defer func() { taskHook = nil }()
			_, err := EvalWith(x, expr.Of(a).MatMul(expr.Of(b)))
			require.NoError(t, err)
			assert.Positive(t, tasks.Load(), "no pool task ran")
			assert.Positive(t, onWorker.Load(), "no part ran on a pool worker")
		})
	}
}

// TestPoolRunnerSerial checks that one worker, or one part, runs on the
// calling goroutine without touching the pool.
func TestPoolRunnerSerial(t *testing.T) {
	x := New(Workers(1))
	defer x.Close()
	var got []int
	poolRunner{x}.Run(3, funcTasks(func(i int) { got = append(got, i) }))
	assert.Equal(t, []int{0, 1, 2}, got)
	y := New(Workers(4))
	defer y.Close()
	got = nil
	poolRunner{y}.Run(1, funcTasks(func(i int) { got = append(got, i) }))
	assert.Equal(t, []int{0}, got)
	assert.Equal(t, 4, poolRunner{y}.Workers())
}
