package matmul

import "sync"

// packA copies a (m×k, any strides) into buf as ⌈m/mr⌉ panels of mr rows,
// each stored column after column: buf[(i/mr)*k*mr + p*mr + i%mr] = a(i, p).
// The rows of the last panel past m are zero.
func packA[F float](buf []F, a Matrix[F], mr int) {
	m, k := a.Rows, a.Cols
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
func packB[F float](buf []F, b Matrix[F], nr int) {
	k, n := b.Rows, b.Cols
	for j0 := 0; j0 < n; j0 += nr {
		panel := buf[j0*k : (j0+nr)*k]
		cols := min(nr, n-j0)
		for p := range k {
			row := panel[p*nr : p*nr+nr]
			s := b.Offset + p*b.RowStride + j0*b.ColStride
			if b.ColStride == 1 {
				copy(row, b.Data[s:s+cols])
			} else {
				for j := range cols {
					row[j] = b.Data[s]
					s += b.ColStride
				}
			}
			clear(row[cols:])
		}
	}
}

// Packing buffers are reused across calls: a 256×4096 block of B is 8 MiB.
var (
	buffers32 sync.Pool // of *[]float32
	buffers64 sync.Pool // of *[]float64
)

// getBuffer returns a buffer of n elements from the pool of F; putBuffer
// returns it.
func getBuffer[F float](n int) *[]F {
	var v any
	switch any(F(0)).(type) {
	case float32:
		v = buffers32.Get()
	default:
		v = buffers64.Get()
	}
	if p, ok := v.(*[]F); ok && cap(*p) >= n {
		*p = (*p)[:n]
		return p
	}
	s := make([]F, n)
	return &s
}

func putBuffer[F float](p *[]F) {
	switch any(F(0)).(type) {
	case float32:
		buffers32.Put(p)
	default:
		buffers64.Put(p)
	}
}
