package matmul

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// caches are the data cache sizes, in bytes, of one core (l1, l2) and of the
// chip (l3).
type caches struct{ l1, l2, l3 int }

// defaultCaches are used for a level sysfs does not report: small enough
// for any x86 or arm64 core of the last decade.
var defaultCaches = caches{l1: 32 << 10, l2: 256 << 10, l3: 8 << 20}

// machineCaches reads the cache sizes of CPU 0 from Linux's sysfs once.
var machineCaches = sync.OnceValue(func() caches {
	return readCaches("/sys/devices/system/cpu/cpu0/cache")
})

// readCaches parses the index*/{level,type,size} files under dir, keeping
// the default for each level it cannot read.
func readCaches(dir string) caches {
	c := defaultCaches
	paths, _ := filepath.Glob(filepath.Join(dir, "index*"))
	for _, p := range paths {
		read := func(name string) string {
			b, _ := os.ReadFile(filepath.Join(p, name))
			return strings.TrimSpace(string(b))
		}
		if t := read("type"); t != "Data" && t != "Unified" {
			continue
		}
		size := parseSize(read("size"))
		if size <= 0 {
			continue
		}
		switch read("level") {
		case "1":
			c.l1 = size
		case "2":
			c.l2 = size
		case "3":
			c.l3 = size
		}
	}
	return c
}

// parseSize parses sysfs's "32K", "1024K", "32M"; it returns 0 for anything
// else.
func parseSize(s string) int {
	mult := 1
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, s[:len(s)-1]
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, s[:len(s)-1]
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0
	}
	return n * mult
}

// kcPanelBytes is the width of a row of B's panel that kc is sized for:
// that of the AVX2 and Go kernels (nr = 8 float64 or 16 float32).
const kcPanelBytes = 64

// blocking is the cache blocking of gemmPacked: kc steps of the inner
// dimension per block, an mc×kc block of A and a kc×nc block of B.
type blocking struct{ kc, mc, nc int }

// blockingFor sizes the blocks for a kernel of mr×nr elements of size bytes,
// as in BLIS: a kc×64-byte panel of B fills half of L1 (it is reused for
// every mr rows of A, which stream past it), an mc×kc block of A half of L2,
// and a kc×nc block of B a quarter of L3 (shared by the cores, and each
// worker packs its own). kc fixes the order in which each element of C is
// summed, so it depends on the machine's L1 and size only, never on the
// number of workers or the kernel: the AVX-512 kernels' panels, 128 bytes
// wide, take the AVX2 kernels' kc (their kc×nr panel fills L1), so that
// every variant gives the same bits.
func blockingFor(c caches, size, mr, nr int) blocking {
	kc := clamp(c.l1/2/kcPanelBytes/8*8, 64, 1024)
	mc := clamp(c.l2/2/(kc*size)/mr*mr, mr, 1020/mr*mr)
	nc := clamp(c.l3/4/(kc*size)/nr*nr, nr, 4096/nr*nr)
	return blocking{kc: kc, mc: mc, nc: nc}
}

// kcFor is the step of the inner dimension for a product of k steps: kc,
// or, when k takes several steps of kc, the k steps cut into that many
// blocks of equal size (rounded up to a multiple of 8), so that the last
// block is not a sliver: 784 is 200+200+200+184 rather than
// 256+256+256+16, whose last pass over the result does a sixteenth of the
// work of the others for the same traffic of C. It depends on k and kc
// alone, so it orders every sum as kc does: the same for any number of
// workers and any number of rows (a stacked batch sums as its products).
func (bl blocking) kcFor(k int) int {
	if k <= bl.kc {
		return k
	}
	steps := (k + bl.kc - 1) / bl.kc
	return min(bl.kc, roundUp((k+steps-1)/steps, 8))
}

func clamp(x, lo, hi int) int {
	return max(lo, min(x, hi))
}
