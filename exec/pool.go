package exec

import (
	"sync"
	"sync/atomic"
)

// tasker runs task i of a job. Tasks of one job run concurrently.
type tasker interface {
	runTask(i int)
}

// pool is a fixed set of worker goroutines. A job wakes at most n-1 of them
// with one channel send each; they and the caller take task indices from an
// atomic counter until none are left. No goroutine is started per job or task.
type pool struct {
	work chan *job
	n    int
}

type job struct {
	next  atomic.Int64
	tasks int64
	t     tasker
	wg    sync.WaitGroup
}

var jobs = sync.Pool{New: func() any { return new(job) }}

func newPool(workers int) *pool {
	p := &pool{work: make(chan *job, workers), n: workers}
	for i := 0; i < workers-1; i++ {
		go func() {
			for j := range p.work {
				j.drain()
				j.wg.Done()
			}
		}()
	}
	return p
}

// parallel runs tasks 0..tasks-1 of t on the pool and the calling goroutine
// and returns when all have finished.
func (p *pool) parallel(tasks int, t tasker) {
	j := jobs.Get().(*job)
	j.t, j.tasks = t, int64(tasks)
	j.next.Store(0)
	helpers := min(p.n-1, tasks-1)
	j.wg.Add(helpers)
	for i := 0; i < helpers; i++ {
		p.work <- j
	}
	j.drain()
	j.wg.Wait()
	j.t = nil
	jobs.Put(j)
}

func (j *job) drain() {
	for {
		i := j.next.Add(1) - 1
		if i >= j.tasks {
			return
		}
		j.t.runTask(int(i))
	}
}
