package exec

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// workerGoroutines counts the goroutines running a pool's worker loop.
func workerGoroutines() int { return int(liveWorkers.Load()) }

// TestPanicInTaskRecovered injects a panic into a task (a bug in a kernel)
// on a worker goroutine, and on the calling one: the Eval that ran it
// returns an *InternalError carrying the panic and the stack of the
// goroutine that panicked, the process lives on, and the next Eval on the
// same executor, with the same workers, is right.
func TestPanicInTaskRecovered(t *testing.T) {
	a := tensor.Must(tensor.Arange(0.0, 4096, 1))
	e := expr.Of(a).MulScalar(2)
	x := New(Workers(2), Grain(1), BlockSize(16))
	defer x.Close()
	_, err := EvalWith(x, e) // start the workers
	require.NoError(t, err)

	for _, onWorker := range []bool{true, false} {
		name := "caller"
		if onWorker {
			name = "worker"
		}
		t.Run(name, func(t *testing.T) {
			// The goroutine that is not to panic waits until the other has,
			// so that both take part whatever the scheduling.
			panicked := make(chan struct{})
			var once sync.Once
			taskHook = func(worker bool) {
				if worker == onWorker {
					once.Do(func() { close(panicked) })
					panic("injected bug")
				}
				select {
				case <-panicked:
				case <-time.After(10 * time.Second):
				}
			}
			out, err := EvalWith(x, e)
			taskHook = nil
			assert.Nil(t, out)
			var ie *InternalError
			require.True(t, errors.As(err, &ie), "%T %v", err, err)
			assert.Equal(t, "injected bug", ie.Value)
			assert.EqualError(t, err, "exec: internal error: injected bug")
			assert.Contains(t, string(ie.Stack), "exec.(*job).drain")

			// The worker survived: a task of the next Eval runs on it (the
			// caller waits for that). Counting goroutines instead would see
			// other tests' executors closing meanwhile.
			ran, gaveUp := make(chan struct{}), make(chan struct{})
			var ranOnce sync.Once
			stop := time.AfterFunc(10*time.Second, func() { close(gaveUp) })
			defer stop.Stop()
			taskHook = func(worker bool) {
				if worker {
					ranOnce.Do(func() { close(ran) })
					return
				}
				select {
				case <-ran:
				case <-gaveUp:
				}
			}
			out, err = EvalWith(x, e)
			taskHook = nil
			require.NoError(t, err, "the executor is usable after the panic")
			v := out.Values()
			assert.Equal(t, 2*4095.0, v[len(v)-1])
			select {
			case <-ran:
			default:
				t.Error("no task ran on a worker goroutine: the workers did not survive")
			}
		})
	}
}

// TestFailureStopsTasks checks that a failing task (see fail) is returned
// as its own error, unwrapped, and that the tasks not yet started are
// skipped.
func TestFailureStopsTasks(t *testing.T) {
	x := New(Workers(2), Grain(1), BlockSize(16))
	defer x.Close()
	a := tensor.Must(tensor.Arange(0.0, 1<<16, 1))
	_, err := EvalWith(x, expr.Of(a).AddScalar(1))
	require.NoError(t, err)
	want := errors.New("a kernel refused its operands")
	var mu sync.Mutex
	tasks := 0
	taskHook = func(bool) {
		mu.Lock()
		tasks++
		mu.Unlock()
		fail(want)
	}
	_, err = EvalWith(x, expr.Of(a).AddScalar(1))
	taskHook = nil
	assert.Same(t, want, err)
	assert.LessOrEqual(t, tasks, 2, "one task per goroutine at most, then none")
}
