package exec

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tensorplay/tensorplay/internal/matmul"
	"github.com/tensorplay/tensorplay/internal/stash"
)

// tasker runs task i of a job; tasks of one job run concurrently. It is
// internal/matmul's Task, so that a product's tasks run on the pool as
// they are.
type tasker = matmul.Task

// pool is a fixed set of worker goroutines. A job offers itself to at most
// n-1 of them with one channel send each; they and the caller take task
// indices from an atomic counter until none are left. No goroutine is
// started per job or task.
//
// The caller waits for the tasks, not for the workers: a worker that
// wakes only after the caller has taken every task (on a loaded machine,
// or when the job is short) is not waited for, and drops the job when it
// gets to it. A job is recycled once the caller and every worker it was
// offered to are done with it (job.refs). A job that finds every worker
// already offered another job (the channel full: they are late) takes
// the place of the oldest offer (see offer).
//
// A worker that has finished a job spins for the next one for a while
// (workerSpin) before it blocks on the channel, and a caller whose tasks
// are all taken spins for the running ones to finish (callerSpin) before
// it blocks: on a virtual machine, waking a goroutine parked on another
// vCPU takes tens of microseconds (the host has to wake the idle vCPU),
// longer than a whole 128³ product, so a pool whose workers block between
// jobs gives small products no second core at all. OpenBLAS's threads and
// OpenMP's spin the same way. At most GOMAXPROCS-1 workers spin at once,
// so that spinners never take the processors of the goroutines with work.
//
// The workers hold the pool, never the Executor, so that an executor
// dropped without Close can be collected; its cleanup closes the pool (see
// Executor.pool). A closed pool runs jobs on the calling goroutine alone.
type pool struct {
	mu       sync.RWMutex // held for reading while a job is handed out, for writing by close
	closed   bool
	work     chan *job
	n        int
	spinning atomic.Int32 // workers spinning for a job
	spinners int32        // how many may: GOMAXPROCS-1 when the pool was made
}

type job struct {
	next  atomic.Int64
	tasks int64
	t     tasker
	left  atomic.Int64  // tasks neither finished nor skipped
	done  chan struct{} // sent to once left reaches zero, received by the caller
	refs  atomic.Int32  // the caller and each worker the job was sent to, until done with it

	mu  sync.Mutex
	err error // the first task's failure (see fail)
}

// jobs keeps finished jobs for the next parallel call.
var jobs stash.Stash[job]

// workerSpin is how long a worker that has finished a job polls for the
// next before it blocks: longer than the serial work between the parallel
// steps of an evaluation (planning, a scalar step, the next graph's
// construction), short enough to cost an idle program nothing it notices.
const workerSpin = 200 * time.Microsecond

// callerSpin is how long a caller whose tasks are all taken polls for the
// running ones to finish before it blocks.
const callerSpin = 200 * time.Microsecond

// spinCheck is how many polls a spinning goroutine makes between looks at
// the clock (and yields of its processor to any goroutine that needs it).
const spinCheck = 32

// taskHook, when set (by tests), is called before every task the pool
// runs, with worker true on a worker goroutine.
var taskHook func(worker bool)

func newPool(workers int) *pool {
	p := &pool{work: make(chan *job, workers), n: workers, spinners: int32(runtime.GOMAXPROCS(0) - 1)}
	for i := 0; i < workers-1; i++ {
		liveWorkers.Add(1)
		go p.worker()
	}
	return p
}

// liveWorkers counts the worker goroutines of every pool that have not
// exited (tests read it: a spinning worker runs on another thread, where
// runtime.Stack cannot show its stack).
var liveWorkers atomic.Int64

// worker runs the jobs it is sent until the pool is closed.
func (p *pool) worker() {
	defer liveWorkers.Add(-1)
	for {
		j, ok := p.next()
		if !ok {
			return
		}
		j.drain(true)
		j.release()
	}
}

// next is the next job sent to a worker, polled for workerSpin (when fewer
// than p.spinners workers are spinning) before it blocks; false once the
// pool is closed.
func (p *pool) next() (*job, bool) {
	select {
	case j, ok := <-p.work:
		return j, ok
	default:
	}
	var j *job
	ok := true
	got := false
	if p.startSpin() {
		got = spin(workerSpin, func() bool {
			select {
			case j, ok = <-p.work:
				return true
			default:
				return false
			}
		})
		p.spinning.Add(-1)
	}
	if !got {
		j, ok = <-p.work
	}
	return j, ok
}

// startSpin counts the caller among the spinning workers and reports true
// if fewer than p.spinners were, else counts nothing and reports false:
// the count never exceeds p.spinners, even for an instant (an increment
// taken back when over the cap let a reader see p.spinners+1, and
// TestPoolSpinnersCapped fail now and then on a loaded machine).
func (p *pool) startSpin() bool {
	for {
		n := p.spinning.Load()
		if n >= p.spinners {
			return false
		}
		if p.spinning.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// spin calls poll until it reports true or d has passed, looking at the
// clock and yielding the processor (to any goroutine that needs it) every
// spinCheck polls; it reports whether poll did.
func spin(d time.Duration, poll func() bool) bool {
	deadline := time.Now().Add(d)
	for i := 1; ; i++ {
		if poll() {
			return true
		}
		if i%spinCheck == 0 {
			if time.Now().After(deadline) {
				return false
			}
			runtime.Gosched()
		}
	}
}

// close stops the workers once they have finished the jobs they were given.
// Closing twice is harmless.
func (p *pool) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.closed {
		p.closed = true
		close(p.work)
	}
}

// parallel runs tasks 0..tasks-1 of t on the pool and the calling goroutine
// and returns when all have finished. A nil or closed pool (an executor
// closed while it evaluates) runs them on the calling goroutine.
//
// A task that panics stops the job: the tasks not yet started are skipped,
// and once every running task has returned, parallel panics on the calling
// goroutine with the failure (see fail), which the entry point that started
// the evaluation returns as its error. The workers carry on.
func (p *pool) parallel(tasks int, t tasker) {
	j := jobs.Get()
	if j == nil {
		j = &job{done: make(chan struct{}, 1)}
	}
	j.t, j.tasks = t, int64(tasks)
	j.next.Store(0)
	j.refs.Store(1)
	j.left.Store(int64(tasks))
	if p != nil {
		p.mu.RLock()
		if !p.closed {
		offer:
			for range min(p.n-1, tasks-1) {
				j.refs.Add(1)
				if !p.offer(j) {
					j.refs.Add(-1)
					break offer
				}
			}
		}
		p.mu.RUnlock()
	}
	j.drain(false)
	j.wait()
	err := j.err
	j.release()
	if err != nil {
		panic(failure{err})
	}
}

// offer sends j to a worker, or reports that it could not. When every
// worker already has a job waiting (the channel is full: the workers are
// late), it drops the oldest of those, whose caller runs its tasks itself
// (a job's caller never needs a worker), so that a late worker finds the
// newest job first.
func (p *pool) offer(j *job) bool {
	for range 2 {
		select {
		case p.work <- j:
			return true
		default:
		}
		select {
		case old := <-p.work:
			old.release()
		default:
		}
	}
	return false
}

// release drops a reference to j, recycling it with the last.
func (j *job) release() {
	if j.refs.Add(-1) == 0 {
		j.t, j.err = nil, nil
		jobs.Put(j)
	}
}

// drain runs tasks until none are left. A panic in a task is recovered
// here, on the goroutine that ran it, and recorded as the job's failure;
// the tasks not yet started are skipped.
func (j *job) drain(worker bool) {
	defer func() {
		if r := recover(); r != nil {
			err := recoveredError(r)
			j.mu.Lock()
			if j.err == nil {
				j.err = err
			}
			j.mu.Unlock()
			// Start no more tasks: those not yet taken count as done.
			taken := j.next.Swap(j.tasks)
			j.finish(1 + max(0, j.tasks-taken))
		}
	}()
	for {
		i := j.next.Add(1) - 1
		if i >= j.tasks {
			return
		}
		if h := taskHook; h != nil {
			h(worker)
		}
		j.t.RunTask(int(i))
		j.finish(1)
	}
}

// finish counts n tasks finished or skipped, telling the caller when they
// were the last.
func (j *job) finish(n int64) {
	if j.left.Add(-n) == 0 {
		j.done <- struct{}{}
	}
}

// wait returns once every task has finished, polling for callerSpin
// before it blocks.
func (j *job) wait() {
	if !spin(callerSpin, func() bool {
		select {
		case <-j.done:
			return true
		default:
			return false
		}
	}) {
		<-j.done
	}
}
