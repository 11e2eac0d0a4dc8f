package matmul

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// forEachKernel runs f once with each micro-kernel variant this CPU has
// forced for both float types, restoring the default afterwards.
func forEachKernel(t *testing.T, f func(t *testing.T)) {
	require.Equal(t, len(kernels64), len(kernels32))
	k64, k32 := kernel64, kernel32
	defer func() { kernel64, kernel32 = k64, k32 }()
	for i := range kernels64 {
		kernel64, kernel32 = kernels64[i], kernels32[i]
		t.Run(kernel64.name, f)
	}
}

// packedShapes cross the kernel blocks (mr = 6, nr = 8 or 16) and the
// default kc (256 on 32 KiB of L1) by one either way, with primes and
// non-square shapes; (m, k, n).
var packedShapes = [][3]int{
	{0, 5, 5}, {5, 0, 5}, {1, 1, 1}, {2, 1, 2}, {5, 3, 7}, {6, 4, 8}, {7, 5, 9},
	{6, 7, 16}, {5, 2, 15}, {7, 3, 17}, {13, 31, 7}, {2, 9, 40}, {37, 11, 2},
	{23, 255, 19}, {12, 256, 16}, {19, 257, 23}, {31, 513, 29}, {64, 64, 64},
}

// TestGemmPacked checks every kernel variant, shape and layout against the
// reference loop on integer-valued inputs, whose sums are exact in any order.
func TestGemmPacked(t *testing.T) {
	forEachKernel(t, func(t *testing.T) {
		t.Run("float64", testPacked(fillFloat[float64](rand.New(rand.NewPCG(1, 1)))))
		t.Run("float32", testPacked(fillFloat[float32](rand.New(rand.NewPCG(2, 2)))))
	})
}

func testPacked[F float](fill func([]F)) func(t *testing.T) {
	return func(t *testing.T) {
		run := func(t *testing.T, s [3]int, la, lb, ld layout, workers int) {
			m, k, n := s[0], s[1], s[2]
			a, b := newMatrix(la, m, k, fill), newMatrix(lb, k, n, fill)
			dst := newMatrix(ld, m, n, fillSentinel[F])
			gemm(dst, a, b, Goroutines(workers), nil)
			assert.Equal(t, naive(a, b), elements(dst))
			for _, v := range outside(dst) {
				if !assert.Equal(t, F(sentinel), v, "dst storage outside the view") {
					break
				}
			}
		}
		for _, s := range packedShapes {
			big := s[1] > 64
			for _, la := range operandLayouts {
				for _, lb := range operandLayouts {
					if big && la.name != lb.name {
						continue
					}
					name := fmt.Sprintf("%dx%dx%d/a=%s/b=%s", s[0], s[1], s[2], la.name, lb.name)
					t.Run(name, func(t *testing.T) { run(t, s, la, lb, dstLayouts[0], 2) })
				}
			}
			for _, ld := range dstLayouts {
				name := fmt.Sprintf("%dx%dx%d/dst=%s", s[0], s[1], s[2], ld.name)
				t.Run(name, func(t *testing.T) { run(t, s, operandLayouts[2], operandLayouts[3], ld, 3) })
			}
		}
	}
}

// smallBlocking makes every loop of packedBand take several steps on
// small products.
var smallBlocking = blocking{kc: 8, mc: 12, nc: 32}

// TestKernelsAgree runs every kernel variant (Go, AVX2 and AVX-512 where
// the CPU has them), each on 1, 2, 3 and 8 workers, on
// the same random inputs, at the default blocking and at smallBlocking
// (where each band takes several steps of every loop), and checks that they
// give the same bits, and the reference loop's value within the error bound of a sum
// of k products: |error| <= k·ε·Σ|a||b| (with a factor 2 to spare).
func TestKernelsAgree(t *testing.T) {
	t.Run("float64", testAgree[float64](0x1p-52))
	t.Run("float32", testAgree[float32](0x1p-23))
}

func testAgree[F float](eps float64) func(t *testing.T) {
	return func(t *testing.T) {
		r := rand.New(rand.NewPCG(7, 7))
		normal := fillNormal[F](r)
		for _, s := range [][3]int{{7, 5, 9}, {13, 31, 47}, {19, 257, 23}, {50, 300, 70}, {130, 70, 10}, {8, 90, 200}, {64, 128, 10}, {40, 50, 12}, {20, 100, 260}, {20, 40, 61}, {25, 33, 45}} {
			m, k, n := s[0], s[1], s[2]
			a := newMatrix(operandLayouts[2], m, k, normal)
			b := newMatrix(operandLayouts[1], k, n, normal)
			want := naive(a, b)
			abs := naive(absMatrix(a), absMatrix(b))
			// The same a column-major, so that it is packed where a is
			// read in place.
			aCol := newMatrix(operandLayouts[1], m, k, func([]F) {})
			copyTo(aCol, a)
			for _, bl := range []blocking{blockingFor(machineCaches(), sizeOf[F](), 6, 16), smallBlocking} {
				var first []F
				for i, w := range []int{1, 2, 3, 8} {
					for v := range kernels64 {
						kern := kernelOf[F]((i + v) % len(kernels64))
						dst := RowMajor(make([]F, m*n), m, n)
						gemmPacked(dst, a, b, Goroutines(w), kern, bl, nil)
						if first == nil {
							first = dst.Data
						} else {
							assert.Equal(t, first, dst.Data, "%v kc=%d: %s on %d workers against %s on 1", s, bl.kc, kern.name, w, kernelOf[F](0).name)
						}
						packed := RowMajor(make([]F, m*n), m, n)
						gemmPacked(packed, aCol, b, Goroutines(w), kern, bl, nil)
						assert.Equal(t, first, packed.Data, "%v kc=%d: %s with a packed", s, bl.kc, kern.name)
						for j := range want {
							tol := 2 * float64(k) * eps * float64(abs[j])
							require.InDelta(t, float64(want[j]), float64(dst.Data[j]), tol, "%v kc=%d %s element %d", s, bl.kc, kern.name, j)
						}
					}
				}
			}
		}
	}
}

func absMatrix[F float](m Matrix[F]) Matrix[F] {
	c := m
	c.Data = make([]F, len(m.Data))
	for i, v := range m.Data {
		c.Data[i] = F(math.Abs(float64(v)))
	}
	return c
}

func sizeOf[F float]() int {
	if _, ok := any(F(0)).(float32); ok {
		return 4
	}
	return 8
}

func kernelOf[F float](i int) microKernel[F] {
	if _, ok := any(F(0)).(float32); ok {
		return any(kernels32[i]).(microKernel[F])
	}
	return any(kernels64[i]).(microKernel[F])
}

// TestWorkersDeterministic checks that 1, 2, 3 and 8 workers give the same
// bits, for one product and for a batch, with every kernel variant.
func TestWorkersDeterministic(t *testing.T) {
	forEachKernel(t, func(t *testing.T) {
		t.Run("float64", testDeterministic[float64])
		t.Run("float32", testDeterministic[float32])
	})
}

func testDeterministic[F float](t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	normal := fillNormal[F](r)
	for _, s := range [][3]int{{97, 300, 61}, {40, 513, 130}, {1, 700, 90}, {90, 700, 1}} {
		m, k, n := s[0], s[1], s[2]
		a := newMatrix(operandLayouts[0], m, k, normal)
		b := newMatrix(operandLayouts[3], k, n, normal)
		var first []F
		for _, w := range []int{1, 2, 3, 8} {
			dst := RowMajor(make([]F, m*n), m, n)
			gemm(dst, a, b, Goroutines(w), nil)
			if first == nil {
				first = dst.Data
				continue
			}
			assert.Equal(t, first, dst.Data, "%v with %d workers", s, w)
		}
	}
	// A batch of small products with a broadcast a, large enough in all
	// (332640 multiply-adds) to be split over the workers.
	const batch, m, k, n = 36, 20, 33, 14
	a := newMatrix(operandLayouts[2], m, k, normal)
	bs := make([]F, batch*k*n)
	normal(bs)
	var first []F
	for _, w := range []int{1, 2, 3, 8} {
		out := make([]F, batch*m*n)
		dst, as, b := make([]Matrix[F], batch), make([]Matrix[F], batch), make([]Matrix[F], batch)
		for i := range batch {
			as[i], b[i], dst[i] = a, RowMajor(bs[i*k*n:], k, n), RowMajor(out[i*m*n:], m, n)
		}
		Batched(dst, as, b, Goroutines(w), nil)
		if first == nil {
			first = out
			continue
		}
		assert.Equal(t, first, out, "batch with %d workers", w)
	}
}

// TestUseBLAS checks the switch to gonum's BLAS and back.
func TestUseBLAS(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	a := newMatrix(operandLayouts[1], 9, 7, fillFloat[float32](r))
	b := newMatrix(operandLayouts[4], 7, 11, fillFloat[float32](r))
	for _, on := range []bool{true, false} {
		was := UseBLAS(on)
		dst := RowMajor(make([]float32, 99), 9, 11)
		Gemm(dst, a, b)
		UseBLAS(was)
		assert.Equal(t, naive(a, b), dst.Data, "UseBLAS(%v)", on)
	}
	assert.False(t, useBLAS.Load())
}

// TestFMA32 checks fma32 against x·y + z computed exactly and rounded once.
func TestFMA32(t *testing.T) {
	exact := func(x, y, z float32) float32 {
		p := new(big.Float).SetPrec(200).SetFloat64(float64(x))
		p.Mul(p, new(big.Float).SetFloat64(float64(y)))
		p.Add(p, new(big.Float).SetFloat64(float64(z)))
		f, _ := p.Float32()
		return f
	}
	r := rand.New(rand.NewPCG(5, 5))
	cases := [][3]float32{
		{1, 1, 0}, {0, 5, -0}, {-1, 0, 0}, {3, 1.0 / 3, -1},
		// 1+2⁻²⁴ rounded to float64 is a float32 halfway point; the error
		// term decides which way.
		{1 + 0x1p-23, 1 + 0x1p-23, -0x1p-23}, {1 + 0x1p-12, 1 + 0x1p-12, 0x1p-50},
		{1 + 0x1p-12, 1 - 0x1p-12, 0x1p-24 + 0x1p-60}, {0x1p-70, 0x1p-70, 0x1p-149},
		{0x1p-100, 0x1p-30, -0x1p-149}, {math.MaxFloat32, 2, -math.MaxFloat32},
	}
	for range 20000 {
		x := math.Float32frombits(r.Uint32())
		y := math.Float32frombits(r.Uint32())
		z := math.Float32frombits(r.Uint32())
		if !math.IsNaN(float64(x*y+z)) && !math.IsInf(float64(x), 0) && !math.IsInf(float64(y), 0) && !math.IsInf(float64(z), 0) {
			cases = append(cases, [3]float32{x, y, z})
		}
		// Near-cancelling sums exercise the halfway case.
		u := float32(r.NormFloat64())
		v := float32(r.NormFloat64())
		cases = append(cases, [3]float32{u, v, -u * v}, [3]float32{u, 1 + 0x1p-12, -u})
	}
	for _, c := range cases {
		got, want := fma32(c[0], c[1], c[2]), exact(c[0], c[1], c[2])
		if math.IsInf(float64(want), 0) || math.IsNaN(float64(want)) {
			continue
		}
		if !assert.Equal(t, math.Float32bits(want), math.Float32bits(got), "fma32(%g, %g, %g)", c[0], c[1], c[2]) {
			break
		}
	}
}

func TestReadCaches(t *testing.T) {
	dir := t.TempDir()
	write := func(index, level, typ, size string) {
		p := filepath.Join(dir, index)
		require.NoError(t, os.MkdirAll(p, 0o755))
		for name, v := range map[string]string{"level": level, "type": typ, "size": size} {
			require.NoError(t, os.WriteFile(filepath.Join(p, name), []byte(v+"\n"), 0o644))
		}
	}
	write("index0", "1", "Data", "48K")
	write("index1", "1", "Instruction", "32K")
	write("index2", "2", "Unified", "1024K")
	write("index3", "3", "Unified", "bogus")
	assert.Equal(t, caches{l1: 48 << 10, l2: 1 << 20, l3: defaultCaches.l3}, readCaches(dir))
	assert.Equal(t, defaultCaches, readCaches(filepath.Join(dir, "missing")))
	assert.Equal(t, 32<<20, parseSize("32M"))
	assert.Equal(t, 0, parseSize("-1K"))

	// BLIS's Haswell blocking for 32 KiB L1, 1 MiB L2, 32 MiB L3 (kc 256).
	c := caches{l1: 32 << 10, l2: 1 << 20, l3: 32 << 20}
	assert.Equal(t, blocking{kc: 256, mc: 252, nc: 4096}, blockingFor(c, 8, 6, 8))
	assert.Equal(t, blocking{kc: 256, mc: 510, nc: 4096}, blockingFor(c, 4, 6, 16))
	// The AVX-512 kernels' wider panels keep kc, which orders the sums.
	assert.Equal(t, blocking{kc: 256, mc: 252, nc: 4096}, blockingFor(c, 8, 6, 16))
	assert.Equal(t, blocking{kc: 256, mc: 510, nc: 4096}, blockingFor(c, 4, 6, 32))
}

// TestKernelsGenerated checks that kernel_amd64.s and kernel_amd64.go are
// what the generator in _asm writes now. It needs the avo module (from the
// module cache or the proxy), so it is skipped with -short.
func TestKernelsGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generator")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	dir := t.TempDir()
	cmd := exec.Command(goTool, "run", ".", "-out", filepath.Join(dir, "kernel_amd64.s"),
		"-stubs", filepath.Join(dir, "kernel_amd64.go"), "-pkg", "matmul")
	cmd.Dir = "_asm"
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	for _, name := range []string{"kernel_amd64.s", "kernel_amd64.go"} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		want, err := os.ReadFile(name)
		require.NoError(t, err)
		// The first line names the command, with its output paths.
		_, got, _ = bytes.Cut(got, []byte("\n"))
		_, want, _ = bytes.Cut(want, []byte("\n"))
		assert.True(t, bytes.Equal(want, got), "%s is stale: run go generate", name)
	}
}

// TestGemvAgree checks the products with one column or one row, which skip
// packing, on random inputs: every kernel variant gives the same bits, for
// every length around the dot product's steps and every layout, within the
// error bound of the reference loop.
func TestGemvAgree(t *testing.T) {
	t.Run("float64", testGemvAgree[float64](0x1p-52))
	t.Run("float32", testGemvAgree[float32](0x1p-23))
}

func testGemvAgree[F float](eps float64) func(t *testing.T) {
	return func(t *testing.T) {
		r := rand.New(rand.NewPCG(8, 8))
		normal := fillNormal[F](r)
		k64, k32 := kernel64, kernel32
		defer func() { kernel64, kernel32 = k64, k32 }()
		for _, k := range []int{1, 3, 4, 7, 8, 9, 15, 16, 17, 31, 33, 100} {
			for _, mn := range [][2]int{{1, 1}, {13, 1}, {1, 13}, {29, 1}, {61, 1}, {77, 1}, {1, 77}} {
				m, n := mn[0], mn[1]
				for _, la := range operandLayouts[:5] {
					for _, lb := range operandLayouts[:5] {
						a, b := newMatrix(la, m, k, normal), newMatrix(lb, k, n, normal)
						want, abs := naive(a, b), naive(absMatrix(a), absMatrix(b))
						var first []F
						for i := range kernels64 {
							kernel64, kernel32 = kernels64[i], kernels32[i]
							dst := RowMajor(make([]F, m*n), m, n)
							gemm(dst, a, b, Goroutines(2), nil)
							if first == nil {
								first = dst.Data
							} else {
								assert.Equal(t, first, dst.Data, "%dx%dx%d a=%s b=%s: %s", m, k, n, la.name, lb.name, kernels64[i].name)
							}
							// A strided destination: the same bits, and
							// nothing written between its elements.
							sd := Matrix[F]{Data: make([]F, 3*m*n), Rows: m, Cols: n, RowStride: 3 * n, ColStride: 1}
							if n > 1 {
								sd.RowStride, sd.ColStride = 1, 3
							}
							fillSentinel(sd.Data)
							gemm(sd, a, b, Goroutines(2), nil)
							assert.Equal(t, dst.Data, elements(sd), "%dx%dx%d a=%s b=%s: %s, strided dst", m, k, n, la.name, lb.name, kernels64[i].name)
							for _, v := range outside(sd) {
								if !assert.Equal(t, F(sentinel), v, "dst storage outside the view") {
									break
								}
							}
							for j := range want {
								require.InDelta(t, float64(want[j]), float64(dst.Data[j]), 2*float64(k)*eps*float64(abs[j]))
							}
						}
					}
				}
			}
		}
	}
}
