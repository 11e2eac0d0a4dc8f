package linalg

import "github.com/tensorplay/tensorplay/exec"

// An Option changes how a matrix function works.
type Option func(*config)

type config struct {
	x     *exec.Executor
	upper bool     // Eigh: read the upper triangle
	rcond *float64 // Lstsq, Pinv, MatrixRank: the relative cutoff
}

// Using evaluates the inputs, and factorizes the batch, on executor x
// instead of exec.Default. Its workers bound the goroutines of a batch.
func Using(x *exec.Executor) Option { return func(c *config) { c.x = x } }

// Upper makes Eigh read the upper triangle of its input rather than the
// lower one (NumPy's UPLO="U").
func Upper() Option { return func(c *config) { c.upper = true } }

// RCond sets the cutoff of Lstsq, Pinv and MatrixRank: singular values at
// most r times the largest are treated as zero (NumPy's rcond, PyTorch's
// rtol). Without it Pinv uses 1e-15 (NumPy's default) and Lstsq and
// MatrixRank use max(m, n) times the machine epsilon of the element type.
func RCond(r float64) Option { return func(c *config) { c.rcond = &r } }

func options(opts []Option) config {
	c := config{x: exec.Default}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}
