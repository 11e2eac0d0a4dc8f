package matmul

// gemv is gemm for a product with one column (n == 1), which packing would
// only slow down: each element of b is used once per row of a, so the
// product runs at the speed a can be read. It is:
//
//	for i := range dst.Rows {
//		var s F
//		for p := range a.Cols {
//			s += a.At(i, p) * x.At(p, 0)
//		}
//		dst.Data[dst.Offset+i*dst.RowStride] = s
//	}
//
// with the sum over p cut into four interleaved partial sums (p mod 4),
// added at the end, when a's rows are contiguous, and kept in order of p
// when its columns are (the loop then runs down columns of a). Neither
// depends on the number of workers. A row vector times a matrix (m == 1)
// comes here transposed: dstᵀ = bᵀ @ aᵀ.
func gemv[F float](dst, a, x Matrix[F]) {
	m, k := a.Rows, a.Cols
	if a.RowStride == 1 && a.ColStride != 1 && m > 1 {
		gemvColumns(dst, a, x)
		return
	}
	xs := x.RowStride
	for i := range m {
		ai := a.Offset + i*a.RowStride
		var s F
		if a.ColStride == 1 && xs == 1 {
			s = dot(a.Data[ai:ai+k], x.Data[x.Offset:x.Offset+k])
		} else {
			s = dotStrided(a.Data, ai, a.ColStride, x.Data, x.Offset, xs, k)
		}
		dst.Data[dst.Offset+i*dst.RowStride] = s
	}
}

// gemvColumns is gemv for a column-major a: dst += a(:, p)·x(p) for each p
// in order, so each element is summed in order of p.
func gemvColumns[F float](dst, a, x Matrix[F]) {
	m, k := a.Rows, a.Cols
	var acc []F
	if dst.RowStride == 1 {
		acc = dst.Data[dst.Offset : dst.Offset+m]
		clear(acc)
	} else {
		acc = make([]F, m)
	}
	for p := range k {
		xp := x.Data[x.Offset+p*x.RowStride]
		col := a.Data[a.Offset+p*a.ColStride:][:m]
		for i, v := range col {
			acc[i] += v * xp
		}
	}
	if dst.RowStride != 1 {
		for i, v := range acc {
			dst.Data[dst.Offset+i*dst.RowStride] = v
		}
	}
}

// dot is Σ a[p]·b[p] over four partial sums s[p mod 4], each in order of
// p, added as (s0 + s1) + (s2 + s3).
func dot[F float](a, b []F) F {
	b = b[:len(a)]
	var s0, s1, s2, s3 F
	p := 0
	for ; p+4 <= len(a); p += 4 {
		s0 += a[p] * b[p]
		s1 += a[p+1] * b[p+1]
		s2 += a[p+2] * b[p+2]
		s3 += a[p+3] * b[p+3]
	}
	if p < len(a) {
		s0 += a[p] * b[p]
	}
	if p+1 < len(a) {
		s1 += a[p+1] * b[p+1]
	}
	if p+2 < len(a) {
		s2 += a[p+2] * b[p+2]
	}
	return (s0 + s1) + (s2 + s3)
}

// dotStrided is dot for strided operands: Σ a[ai+p*as]·b[bi+p*bs] over
// p < k, in the same four partial sums as dot.
func dotStrided[F float](a []F, ai, as int, b []F, bi, bs, k int) F {
	var s [4]F
	for p := range k {
		s[p%4] += a[ai] * b[bi]
		ai += as
		bi += bs
	}
	return (s[0] + s[1]) + (s[2] + s[3])
}
