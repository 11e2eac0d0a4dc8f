package linalg_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/linalg"
)

// TestProperties checks the factorizations by what defines them, for both
// float types, on batches of random matrices.
func TestProperties(t *testing.T) {
	t.Run("float64", testProperties[float64])
	t.Run("float32", testProperties[float32])
}

func testProperties[T linalg.Float](t *testing.T) {
	tol := tolOf[T]()
	const batch, n = 3, 4
	a := randomData(1, batch*n*n)
	for b := range batch { // diagonally dominant: well conditioned
		for i := range n {
			a[b*n*n+i*n+i] += 4
		}
	}
	A := leaf[T](a, batch, n, n)
	at := func(b int) []float64 { return a[b*n*n : (b+1)*n*n] }

	t.Run("inv", func(t *testing.T) {
		inv, err := linalg.Inv(A)
		require.NoError(t, err)
		assert.Equal(t, []int{batch, n, n}, []int(inv.Shape()))
		v := f64(inv)
		for b := range batch {
			assertNear(t, mul(at(b), v[b*n*n:(b+1)*n*n], n, n, n), eye(n), tol, "A·inv(A)")
		}
	})
	t.Run("solve_broadcast", func(t *testing.T) {
		rhs := randomData(2, 2*n*2)
		x, err := linalg.Solve(A.Reshape(batch, 1, n, n), leaf[T](rhs, 1, 2, n, 2))
		require.NoError(t, err)
		require.Equal(t, []int{batch, 2, n, 2}, []int(x.Shape()))
		v := f64(x)
		for b := range batch {
			for j := range 2 {
				at := (b*2 + j) * n * 2
				assertNear(t, mul(a[b*n*n:(b+1)*n*n], v[at:at+n*2], n, n, 2), rhs[j*n*2:(j+1)*n*2], tol, "A·x = b")
			}
		}
		vec, err := linalg.Solve(A, leaf[T](rhs[:batch*n], batch, n))
		require.NoError(t, err)
		require.Equal(t, []int{batch, n}, []int(vec.Shape()))
		for b := range batch {
			assertNear(t, mul(at(b), f64(vec)[b*n:(b+1)*n], n, n, 1), rhs[b*n:(b+1)*n], tol, "A·x = b (vectors)")
		}
	})
	t.Run("det_triangular", func(t *testing.T) {
		tri := make([]float64, n*n)
		want := 1.0
		for i := range n {
			for j := i; j < n; j++ {
				tri[i*n+j] = a[i*n+j]
			}
			want *= tri[i*n+i]
		}
		d, err := linalg.Det(leaf[T](tri, n, n))
		require.NoError(t, err)
		assertNear(t, f64(d), []float64{want}, tol, "det of upper triangular")
		d, err = linalg.Det(leaf[T](transpose(tri, n, n), n, n))
		require.NoError(t, err)
		assertNear(t, f64(d), []float64{want}, tol, "det of lower triangular")
	})
	t.Run("slogdet_det", func(t *testing.T) {
		d, err := linalg.Det(A)
		require.NoError(t, err)
		s, l, err := linalg.Slogdet(A)
		require.NoError(t, err)
		for b := range batch {
			want := f64(d)[b]
			assertNear(t, []float64{f64(s)[b] * math.Exp(f64(l)[b])}, []float64{want}, tol*math.Abs(want), "sign·exp(logabsdet)")
		}
	})
	t.Run("cholesky", func(t *testing.T) {
		spd := make([]float64, batch*n*n)
		for b := range batch {
			m := at(b)
			copy(spd[b*n*n:], mul(transpose(m, n, n), m, n, n, n))
		}
		L, err := linalg.Cholesky(leaf[T](spd, batch, n, n))
		require.NoError(t, err)
		v := f64(L)
		for b := range batch {
			l := v[b*n*n : (b+1)*n*n]
			for i := range n {
				for j := i + 1; j < n; j++ {
					assert.Zero(t, l[i*n+j], "upper triangle of L")
				}
			}
			assertNear(t, mul(l, transpose(l, n, n), n, n, n), spd[b*n*n:(b+1)*n*n], tol*10, "L·Lᵀ = A")
		}
	})
	for _, mn := range [][2]int{{5, 3}, {3, 5}, {4, 4}} {
		m, nn := mn[0], mn[1]
		k := min(m, nn)
		g := randomData(uint64(10*m+nn), 2*m*nn)
		G := leaf[T](g, 2, m, nn)
		t.Run(fmt.Sprintf("qr_%dx%d", m, nn), func(t *testing.T) {
			q, r, err := linalg.QR(G)
			require.NoError(t, err)
			require.Equal(t, []int{2, m, k}, []int(q.Shape()))
			require.Equal(t, []int{2, k, nn}, []int(r.Shape()))
			for b := range 2 {
				qb, rb := f64(q)[b*m*k:(b+1)*m*k], f64(r)[b*k*nn:(b+1)*k*nn]
				assertNear(t, mul(transpose(qb, m, k), qb, k, m, k), eye(k), tol, "QᵀQ = I")
				assertNear(t, mul(qb, rb, m, k, nn), g[b*m*nn:(b+1)*m*nn], tol, "Q·R = A")
				for i := range k {
					assert.GreaterOrEqual(t, rb[i*nn+i], 0.0, "R's diagonal")
					for j := range i {
						assert.Zero(t, rb[i*nn+j], "R is upper triangular")
					}
				}
			}
		})
		t.Run(fmt.Sprintf("svd_%dx%d", m, nn), func(t *testing.T) {
			u, s, vh, err := linalg.SVD(G)
			require.NoError(t, err)
			require.Equal(t, []int{2, m, k}, []int(u.Shape()))
			require.Equal(t, []int{2, k}, []int(s.Shape()))
			require.Equal(t, []int{2, k, nn}, []int(vh.Shape()))
			vals, err := linalg.SVDVals(G)
			require.NoError(t, err)
			assertNear(t, f64(vals), f64(s), tol, "svdvals = S")
			for b := range 2 {
				ub, sb, vb := f64(u)[b*m*k:(b+1)*m*k], f64(s)[b*k:(b+1)*k], f64(vh)[b*k*nn:(b+1)*k*nn]
				us := make([]float64, len(ub))
				for i := range m {
					for j := range k {
						us[i*k+j] = ub[i*k+j] * sb[j]
					}
				}
				assertNear(t, mul(us, vb, m, k, nn), g[b*m*nn:(b+1)*m*nn], tol, "U·diag(S)·Vh = A")
				assertNear(t, mul(transpose(ub, m, k), ub, k, m, k), eye(k), tol, "UᵀU = I")
				assertNear(t, mul(vb, transpose(vb, k, nn), k, nn, k), eye(k), tol, "Vh·Vhᵀ = I")
				for j := 1; j < k; j++ {
					assert.GreaterOrEqual(t, sb[j-1], sb[j], "S descending")
				}
			}
			two, err := linalg.Norm(G, linalg.Two)
			require.NoError(t, err)
			nuc, err := linalg.Norm(G, linalg.Nuc)
			require.NoError(t, err)
			fro, err := linalg.Norm(G, linalg.Fro)
			require.NoError(t, err)
			for b := range 2 {
				sb := f64(s)[b*k : (b+1)*k]
				var sum, sq float64
				for _, v := range sb {
					sum, sq = sum+v, sq+v*v
				}
				assertNear(t, []float64{f64(two)[b], f64(nuc)[b], f64(fro)[b]}, []float64{sb[0], sum, math.Sqrt(sq)}, tol, "2, nuc and fro norms from S")
			}
		})
		t.Run(fmt.Sprintf("lstsq_pinv_%dx%d", m, nn), func(t *testing.T) {
			rhs := randomData(99, 2*m)
			x, err := linalg.Lstsq(G, leaf[T](rhs, 2, m))
			require.NoError(t, err)
			require.Equal(t, []int{2, nn}, []int(x.Shape()))
			p, err := linalg.Pinv(G)
			require.NoError(t, err)
			require.Equal(t, []int{2, nn, m}, []int(p.Shape()))
			for b := range 2 {
				gb, pb := g[b*m*nn:(b+1)*m*nn], f64(p)[b*nn*m:(b+1)*nn*m]
				assertNear(t, mul(mul(gb, pb, m, nn, m), gb, m, m, nn), gb, tol, "A·pinv(A)·A = A")
				assertNear(t, f64(x)[b*nn:(b+1)*nn], mul(pb, rhs[b*m:(b+1)*m], nn, m, 1), tol, "lstsq = pinv·b")
				res := mul(gb, f64(x)[b*nn:(b+1)*nn], m, nn, 1)
				for i := range res {
					res[i] -= rhs[b*m+i]
				}
				assertNear(t, mul(transpose(gb, m, nn), res, nn, m, 1), make([]float64, nn), tol, "Aᵀ(Ax − b) = 0")
			}
		})
	}
	t.Run("eigh", func(t *testing.T) {
		sym := make([]float64, batch*n*n)
		for b := range batch {
			for i := range n {
				for j := range n {
					sym[b*n*n+i*n+j] = a[b*n*n+i*n+j] + a[b*n*n+j*n+i]
				}
			}
		}
		w, v, err := linalg.Eigh(leaf[T](sym, batch, n, n))
		require.NoError(t, err)
		for b := range batch {
			wb, vb := f64(w)[b*n:(b+1)*n], f64(v)[b*n*n:(b+1)*n*n]
			vw := make([]float64, n*n)
			for i := range n {
				for j := range n {
					vw[i*n+j] = vb[i*n+j] * wb[j]
				}
				if i > 0 {
					assert.LessOrEqual(t, wb[i-1], wb[i], "ascending eigenvalues")
				}
			}
			assertNear(t, mul(vw, transpose(vb, n, n), n, n, n), sym[b*n*n:(b+1)*n*n], tol*10, "V·diag(w)·Vᵀ = A")
			assertNear(t, mul(transpose(vb, n, n), vb, n, n, n), eye(n), tol, "VᵀV = I")
		}
		// Upper reads the upper triangle: the transpose of a lower-only input.
		low := make([]float64, n*n)
		for i := range n {
			for j := range i + 1 {
				low[i*n+j] = sym[i*n+j]
			}
		}
		wl, _, err := linalg.Eigh(leaf[T](low, n, n))
		require.NoError(t, err)
		wu, _, err := linalg.Eigh(leaf[T](transpose(low, n, n), n, n), linalg.Upper())
		require.NoError(t, err)
		assertNear(t, f64(wu), f64(wl), tol, "Upper on the transpose")
		assertNear(t, f64(wl), f64(w)[:n], tol, "only the lower triangle is read")
	})
	t.Run("matrix_rank", func(t *testing.T) {
		// a 5×2 times a 2×4: rank 2.
		l, r := randomData(5, 10), randomData(6, 8)
		rank, err := linalg.MatrixRank(leaf[T](mul(l, r, 5, 2, 4), 5, 4))
		require.NoError(t, err)
		assert.Equal(t, []int64{2}, rank.Values())
		full, err := linalg.MatrixRank(A)
		require.NoError(t, err)
		assert.Equal(t, []int64{n, n, n}, full.Values())
	})
}

// TestWorkersIndependent checks that a batch gives bit-identical results on
// 1, 2 and 8 workers (the batch is large enough to run in parallel).
func TestWorkersIndependent(t *testing.T) {
	const batch, n = 64, 12
	a := randomData(3, batch*n*n)
	A := leaf[float64](a, batch, n, n)
	var ref [][]float64
	for _, w := range []int{1, 2, 8} {
		x := exec.New(exec.Workers(w))
		inv, err := linalg.Inv(A, linalg.Using(x))
		require.NoError(t, err)
		u, s, vh, err := linalg.SVD(A, linalg.Using(x))
		require.NoError(t, err)
		x.Close()
		got := [][]float64{inv.Values(), u.Values(), s.Values(), vh.Values()}
		if ref == nil {
			ref = got
			continue
		}
		assert.Equal(t, ref, got, "workers %d", w)
	}
}

// TestEmpty covers matrices with no rows or columns.
func TestEmpty(t *testing.T) {
	d, err := linalg.Det(leaf[float64](nil, 2, 0, 0))
	require.NoError(t, err)
	assert.Equal(t, []float64{1, 1}, d.Values())
	q, r, err := linalg.QR(leaf[float64](nil, 3, 0))
	require.NoError(t, err)
	assert.Equal(t, []int{3, 0}, []int(q.Shape()))
	assert.Equal(t, []int{0, 0}, []int(r.Shape()))
	inv, err := linalg.Inv(leaf[float64](nil, 0, 3, 3))
	require.NoError(t, err)
	assert.Equal(t, []int{0, 3, 3}, []int(inv.Shape()))
	fro, err := linalg.Norm(leaf[float64](nil, 0, 2), linalg.Fro)
	require.NoError(t, err)
	assert.Equal(t, []float64{0}, fro.Values())
}
