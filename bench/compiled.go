package bench

import (
	"sync"

	"github.com/tensorplay/tensorplay/exec"
)

// W3's expression as a compiled kernel (exec.CompiledKernel), for the
// W3/compiled row; the W3 row interprets the same graph.
//go:generate go run ../cmd/tpkernel -o kernels_tp.go W3=(a*b+c)*(a-b)/(c+1.5)

// interpreters holds, per executor a run was given, one like it with
// compiled kernels off, so that rows like W3 show what any graph gets
// without one.
var interpreters sync.Map // *exec.Executor -> *exec.Executor

// interpreted returns p with its executor replaced by its interpreting twin.
func interpreted(p Params) Params {
	x, ok := interpreters.Load(p.Exec)
	if !ok {
		x, _ = interpreters.LoadOrStore(p.Exec, p.Exec.With(exec.UseCompiledKernels(false)))
	}
	p.Exec = x.(*exec.Executor)
	return p
}
