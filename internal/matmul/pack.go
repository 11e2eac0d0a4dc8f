package matmul

import "sync"

// packA copies a (m×k, any strides) into buf as ⌈m/mr⌉ panels of mr rows,
// each stored column after column: buf[(i/mr)*k*mr + p*mr + i%mr] = a(i, p).
// The rows of the last panel past m are zero.
func packA[F float](buf []F, a Matrix[F], mr int) {
	m, k := a.Rows, a.Cols
	if a.RowStride == 1 && mr == 6 && m >= mr {
		// A column-major a: down each column once, six elements to each
		// panel (packColumns), rather than six from every column for each
		// panel, one cache line per column per panel; the last partial
		// panel below.
		whole := m / mr
		ops[F]().packColumns(buf, k, whole, a.Data[a.Offset:], a.ColStride)
		if whole*mr == m {
			return
		}
		buf, a = buf[whole*mr*k:], a.Slice(whole*mr, m, 0, k)
		m = a.Rows
	}
	for i0 := 0; i0 < m; i0 += mr {
		panel := buf[i0*k : (i0+mr)*k]
		rows := min(mr, m-i0)
		if rows == mr && a.RowStride == 1 {
			// A column-major block: each column of the panel is contiguous.
			for p := range k {
				s := a.Offset + i0 + p*a.ColStride
				copy(panel[p*mr:p*mr+mr], a.Data[s:s+mr])
			}
			continue
		}
		if rows == mr && a.ColStride == 1 && mr == 6 {
			// A row-major block: six rows read side by side.
			s, rs := a.Offset+i0*a.RowStride, a.RowStride
			r0, r1, r2 := a.Data[s:s+k], a.Data[s+rs:s+rs+k], a.Data[s+2*rs:s+2*rs+k]
			r3, r4, r5 := a.Data[s+3*rs:s+3*rs+k], a.Data[s+4*rs:s+4*rs+k], a.Data[s+5*rs:s+5*rs+k]
			for p := range r0 {
				d := panel[p*6 : p*6+6]
				d[0], d[1], d[2], d[3], d[4], d[5] = r0[p], r1[p], r2[p], r3[p], r4[p], r5[p]
			}
			continue
		}
		for i := range rows {
			s := a.Offset + (i0+i)*a.RowStride
			for p := range k {
				panel[p*mr+i] = a.Data[s]
				s += a.ColStride
			}
		}
		for i := rows; i < mr; i++ {
			for p := range k {
				panel[p*mr+i] = 0
			}
		}
	}
}

// packB copies b (k×n, any strides) into buf as ⌈n/nr⌉ panels of nr
// columns, each stored row after row: buf[(j/nr)*k*nr + p*nr + j%nr] = b(p, j).
// The columns of the last panel past n are zero.
//
// It goes along the rows of b, each row feeding every panel, so that a
// row-major b is read in order rather than one cache line from each row.
func packB[F float](buf []F, b Matrix[F], nr int) {
	k, n := b.Rows, b.Cols
	full := n / nr * nr
	if b.ColStride == 1 {
		kern := packOps[F](nr)
		if full > 0 {
			kern.packRows(buf, k, k*nr, b.Data[b.Offset:], b.RowStride, full)
		}
		if full < n && k > 0 {
			// The last row is copied in Go: packTail's masked loads of it
			// would reach past b's last element, maybe into a page not
			// mapped, which costs AMD's cores a microcode assist each
			// time ([64,128]@[128,10] float64 took 3.3–3.5 against
			// 3.0–3.1 µs when b's data ended at a page's end).
			tail, src, cols := buf[full*k:full*k+k*nr], b.Data[b.Offset+full:], n-full
			kern.packTail(tail, k-1, src, b.RowStride, cols)
			last := tail[(k-1)*nr : k*nr]
			copy(last, src[(k-1)*b.RowStride:][:cols])
			clear(last[cols:])
		}
		return
	}
	for p := range k {
		s := b.Offset + p*b.RowStride
		for j0 := 0; j0 < n; j0 += nr {
			d := buf[j0*k+p*nr:][:nr]
			cols := min(nr, n-j0)
			for j := range cols {
				d[j] = b.Data[s]
				s += b.ColStride
			}
			clear(d[cols:])
		}
	}
}

// packOps returns the kernel whose packRows and packTail packB uses for
// panels nr wide: the default kernel for F, or, when its panels are of
// another width (a test running another variant), the last variant with
// panels nr wide, or else the Go routines.
func packOps[F float](nr int) microKernel[F] {
	kern := ops[F]()
	if kern.nr == nr {
		return kern
	}
	list, ok := any(kernels64).([]microKernel[F])
	if !ok {
		list = any(kernels32).([]microKernel[F])
	}
	for i := len(list) - 1; i >= 0; i-- {
		if list[i].nr == nr {
			return list[i]
		}
	}
	kern.packRows, kern.packTail = goPackRows[F](nr), goPackTail[F](nr)
	return kern
}

// ops returns the default kernel for F, whose packing routines packA and
// packB use.
func ops[F float]() microKernel[F] {
	if k, ok := any(kernel32).(microKernel[F]); ok {
		return k
	}
	return any(kernel64).(microKernel[F])
}

// Packing buffers are reused across calls: a 256×4096 block of b is 8 MiB.
// Blocks of a and of b, a split matrix-vector product's partial sums and
// its vector have pools of their own, so that a product does not take
// another role's smaller buffer, drop it and allocate.
var (
	buffers32 [4]sync.Pool // of *[]float32: blocks of a, of b, gemv partials, gemv vectors
	buffers64 [4]sync.Pool // of *[]float64
)

// The roles of packing buffers.
const (
	blockA = iota
	blockB
	gemvPartials
	gemvVector
)

// getBuffer returns a buffer of n elements from the pool of F for role;
// putBuffer returns it.
func getBuffer[F float](role, n int) *[]F {
	if p, ok := pool[F](role).Get().(*[]F); ok && cap(*p) >= n {
		*p = (*p)[:n]
		return p
	}
	s := make([]F, n)
	return &s
}

func putBuffer[F float](role int, p *[]F) {
	pool[F](role).Put(p)
}

func pool[F float](role int) *sync.Pool {
	if _, ok := any(F(0)).(float32); ok {
		return &buffers32[role]
	}
	return &buffers64[role]
}
