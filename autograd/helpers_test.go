package autograd_test

import "github.com/tensorplay/tensorplay/exec"

// Executors shared by the tests: one worker, and eight workers that tile
// even small inputs.
var (
	serial = exec.New(exec.Workers(1))
	wide   = exec.New(exec.Workers(8), exec.Grain(1))
	tiny   = exec.New(exec.Workers(8), exec.Grain(1), exec.BlockSize(16))
)
