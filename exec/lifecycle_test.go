package exec_test

import (
	"errors"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// settledWorkers waits (up to 10 s) until the executors' worker count holds
// still for a few milliseconds, and returns it: workers of executors that
// earlier tests closed or dropped may still be on their way out.
func settledWorkers() int {
	n := poolWorkers()
	deadline := time.Now().Add(10 * time.Second)
	for same := 0; same < 5 && time.Now().Before(deadline); {
		time.Sleep(2 * time.Millisecond)
		if m := poolWorkers(); m == n {
			same++
		} else {
			n, same = m, 0
		}
	}
	return n
}

// TestExecutorUseAfterClose checks that every entry point of a closed
// executor returns ErrClosed (it panicked with "send on closed channel"),
// whether or not its workers had started, and that Close twice is fine.
func TestExecutorUseAfterClose(t *testing.T) {
	a := tensor.Must(tensor.Ones[float64](4096))
	e := expr.Of(a).AddScalar(1)
	for _, started := range []bool{false, true} {
		x := exec.New(exec.Workers(4), exec.Grain(1), exec.BlockSize(16))
		if started {
			_, err := exec.EvalWith(x, e)
			require.NoError(t, err)
		}
		x.Close()
		x.Close()
		dst := tensor.Must(tensor.New[float64](4096))
		calls := []struct {
			name string
			run  func() error
		}{
			{"EvalWith", func() error { _, err := exec.EvalWith(x, e); return err }},
			{"EvalToWith", func() error { return exec.EvalToWith(x, dst, e) }},
			{"EvalNWith", func() error { _, err := exec.EvalNWith(x, []expr.Expr[float64]{e, e}); return err }},
			{"Run", func() error { _, err := x.Run([]*expr.Node{e.Node()}, nil); return err }},
		}
		name := "idle"
		if started {
			name = "started"
		}
		for _, c := range calls {
			t.Run(name+"/"+c.name, func(t *testing.T) {
				err := c.run()
				assert.ErrorIs(t, err, exec.ErrClosed)
				assert.EqualError(t, err, "exec: executor is closed")
			})
		}
		assert.Zero(t, dst.Values()[0], "nothing written")
	}
}

// TestExecutorCloseWhileEvaluating closes an executor while goroutines
// evaluate with it: each evaluation either completes correctly or returns
// ErrClosed; none panics.
func TestExecutorCloseWhileEvaluating(t *testing.T) {
	a := tensor.Must(tensor.Arange(0.0, 1<<14, 1))
	e := expr.Of(a).MulScalar(2)
	x := exec.New(exec.Workers(4), exec.Grain(1), exec.BlockSize(64))
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for g := range errs {
		wg.Go(func() {
			for {
				out, err := exec.EvalWith(x, e)
				if err != nil {
					errs[g] = err
					return
				}
				if v := out.Values(); v[len(v)-1] != 2*(1<<14-1) {
					errs[g] = errors.New("wrong result")
					return
				}
			}
		})
	}
	time.Sleep(20 * time.Millisecond)
	x.Close()
	wg.Wait()
	for _, err := range errs {
		assert.ErrorIs(t, err, exec.ErrClosed)
	}
}

// TestExecutorDroppedWithoutClose checks that executors dropped without
// Close release their workers once collected: 100 unclosed 4-worker
// executors used to leave 300 goroutines behind for good.
func TestExecutorDroppedWithoutClose(t *testing.T) {
	before := settledWorkers()
	a := expr.Of(tensor.Must(tensor.Ones[float64](64, 64)))
	func() {
		for range 100 {
			x := exec.New(exec.Workers(4), exec.Grain(1), exec.BlockSize(16))
			out, err := exec.EvalWith(x, a.Add(a))
			require.NoError(t, err)
			require.Equal(t, 2.0, out.Values()[0])
		}
	}()
	require.GreaterOrEqual(t, poolWorkers(), before+3, "the executors started their workers")
	deadline := time.Now().Add(10 * time.Second)
	for poolWorkers() > before && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
	assert.LessOrEqual(t, poolWorkers(), before, "the workers of collected executors have exited")
}

// TestNilExecutor checks the methods of a nil *Executor and the functions
// given one: errors, never a panic.
func TestNilExecutor(t *testing.T) {
	var x *exec.Executor
	e := expr.Of(tensor.Must(tensor.Ones[float64](3)))
	dst := tensor.Must(tensor.New[float64](3))
	calls := []struct {
		name string
		run  func() error
	}{
		{"EvalWith", func() error { _, err := exec.EvalWith(x, e); return err }},
		{"EvalToWith", func() error { return exec.EvalToWith(x, dst, e) }},
		{"EvalNWith", func() error { _, err := exec.EvalNWith(x, []expr.Expr[float64]{e}); return err }},
		{"Run", func() error { _, err := x.Run([]*expr.Node{e.Node()}, nil); return err }},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			err := c.run()
			assert.ErrorIs(t, err, exec.ErrNilExecutor)
			assert.EqualError(t, err, "exec: nil executor")
		})
	}
	assert.NotPanics(t, x.Close)
	assert.Zero(t, x.Workers())
	y := x.With(exec.Workers(2))
	require.NotNil(t, y)
	assert.Equal(t, 2, y.Workers())
}
