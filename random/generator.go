// Package random draws tensors of random numbers from a seeded generator:
// uniform, normal, integers, Bernoulli, permutations, shuffles and choice,
// as NumPy's numpy.random.Generator and PyTorch's torch.Generator do.
//
// A tensor's values depend only on the generator's seed, the sequence of
// calls made on it and the shape asked for: never on the number of
// workers that fill it. Each call takes the next number of the generator's
// call counter, and each block of blockLen elements of its result draws
// from its own ChaCha8 stream (math/rand/v2), keyed by the seed, the call
// number and the block's index. Blocks are filled in parallel.
package random

import (
	"encoding/binary"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// blockLen is how many elements of a result draw from one stream.
const blockLen = 1 << 14

// Generator draws tensors of random numbers. Its methods are safe for
// concurrent use, but calls made concurrently take call numbers in an
// unspecified order; for reproducible results, make the calls of one
// generator from one goroutine.
type Generator struct {
	seed    uint64
	calls   atomic.Uint64
	workers int
}

// An Option configures a Generator.
type Option func(*Generator)

// Workers sets how many goroutines fill a tensor (at least 1; by default
// GOMAXPROCS). It changes only the speed, never the values.
func Workers(n int) Option { return func(g *Generator) { g.workers = max(1, n) } }

// New returns a generator seeded with seed.
func New(seed uint64, opts ...Option) *Generator {
	g := &Generator{seed: seed, workers: runtime.GOMAXPROCS(0)}
	for _, o := range opts {
		if o != nil {
			o(g)
		}
	}
	return g
}

// stream is the generator of block b of call c.
func (g *Generator) stream(c, b uint64) *rand.Rand {
	var key [32]byte
	binary.LittleEndian.PutUint64(key[0:], g.seed)
	binary.LittleEndian.PutUint64(key[8:], c)
	binary.LittleEndian.PutUint64(key[16:], b)
	copy(key[24:], "tpRandom")
	return rand.New(rand.NewChaCha8(key))
}

// nextCall returns the next call number.
func (g *Generator) nextCall() uint64 { return g.calls.Add(1) - 1 }

// fill allocates a tensor of shape and fills each block of it with draw,
// given the block's own stream, on up to g.workers goroutines.
func fill[T dtype.Elem](g *Generator, shape []int, draw func(r *rand.Rand, out []T)) (*tensor.Tensor[T], error) {
	t, err := tensor.New[T](shape...)
	if err != nil {
		return nil, err
	}
	call := g.nextCall()
	data := t.Data()
	blocks := (len(data) + blockLen - 1) / blockLen
	run := func(b int) {
		lo := b * blockLen
		draw(g.stream(call, uint64(b)), data[lo:min(lo+blockLen, len(data))])
	}
	workers := min(g.workers, blocks)
	if workers <= 1 {
		for b := range blocks {
			run(b)
		}
		return t, nil
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := int(next.Add(1) - 1); b < blocks; b = int(next.Add(1) - 1) {
				run(b)
			}
		}()
	}
	wg.Wait()
	return t, nil
}
