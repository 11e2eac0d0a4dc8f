package exec

import (
	"github.com/tensorplay/tensorplay/internal/matmul"
)

// The convolutions as GEMMs over implicit patch matrices. For image n and
// group g, with K = C/groups·taps rows of patches (input channel, then
// kernel position) and P = output positions:
//
//	forward:       out[n,g] (O/g × P) = W[g] (O/g × K) @ patches[n,g] (K × P)
//	input grad:    cols (K × P) = W[g]ᵀ @ dY[n,g], added back into dX (col2im)
//	weight grad:   dW[g] (O/g × K) = dY[·,g] (O/g × N·P) @ patches[·,g]ᵀ
//
// patches are never stored: their packers read the input through the
// convolution's index map straight into the GEMM's panels.

// dense returns operand i of s as a row-major slice of the given extents
// (5-D), the operand's own storage when it is laid out so, else a copy.
func dense[F float32 | float64](s *windowStep, i int, data []F, ext [5]int) []F {
	op := s.ops[i]
	want, n := 1, 1
	ok := true
	for a := 4; a >= 0; a-- {
		if ext[a] > 1 && op.strides[a] != want {
			ok = false
		}
		want *= ext[a]
	}
	n = want
	if ok {
		return data[op.off : op.off+n]
	}
	out := make([]F, n)
	k := 0
	for i0 := range ext[0] {
		for i1 := range ext[1] {
			for i2 := range ext[2] {
				for i3 := range ext[3] {
					b := op.off + i0*op.strides[0] + i1*op.strides[1] + i2*op.strides[2] + i3*op.strides[3]
					for i4 := range ext[4] {
						out[k] = data[b+i4*op.strides[4]]
						k++
					}
				}
			}
		}
	}
	return out
}

func (g *winGeom) xExt() [5]int { return [5]int{g.n, g.c, g.in[0], g.in[1], g.in[2]} }
func (g *winGeom) yExt() [5]int { return [5]int{g.n, g.o, g.out[0], g.out[1], g.out[2]} }
func (g *winGeom) wExt() [5]int { return [5]int{g.o, g.c / g.groups, g.k[0], g.k[1], g.k[2]} }

// panelWriter writes consecutive columns of one row of a packed B block
// (or rows of one column of a packed A block): pos is the buffer index of
// the next element, lane its place within its panel of width unit, and
// skip what separates the last lane of a panel from the first of the next.
type panelWriter struct{ pos, lane, unit, skip int }

func newPanelWriter(rel, row, kb, unit int) panelWriter {
	return panelWriter{pos: rel/unit*kb*unit + row*unit + rel%unit, lane: rel % unit, unit: unit, skip: (kb - 1) * unit}
}

// put writes n elements src[0], src[st], … (zeros when src is nil).
func put[F float32 | float64](w *panelWriter, buf []F, n int, src []F, st int) {
	for n > 0 {
		m := min(n, w.unit-w.lane)
		d := buf[w.pos : w.pos+m]
		switch {
		case src == nil:
			clear(d)
		case st == 1:
			copy(d, src[:m])
			src = src[m:]
		default:
			for q := range d {
				d[q] = src[q*st]
			}
			if n > m {
				src = src[m*st:]
			}
		}
		n -= m
		w.pos += m
		w.lane += m
		if w.lane == w.unit {
			w.lane = 0
			w.pos += w.skip
		}
	}
}

// validRange returns the q in [0, run) for which i0 + q·s lies in [0, n),
// as [qa, qb) (qa ≤ qb).
func validRange(i0, s, n, run int) (qa, qb int) {
	if i0 < 0 {
		qa = (-i0 + s - 1) / s
	}
	if last := n - 1 - i0; last < 0 {
		qb = 0
	} else {
		qb = last/s + 1
	}
	qa, qb = min(qa, run), min(qb, run)
	return qa, max(qa, qb)
}

// convForward computes the convolution of s into out, finishing each block
// of it (offset, rows and columns of out's rows of output planes) with fin
// when it is not nil, after the bias.
func convForward[F float32 | float64](s *windowStep, xd, wd, bias []F, out []F, r matmul.Runner, fin matmul.Epilogue) {
	g := &s.geo
	x := dense(s, 0, xd, g.xExt())
	w := dense(s, 1, wd, g.wExt())
	if g.depthwise() {
		convDepthwise(s, x, w, bias, out, r, fin)
		return
	}
	cig, cog := g.c/g.groups, g.o/g.groups
	k, p := cig*g.taps(), g.outPlane()
	plane := g.inPlane()
	var bs, boff int
	if bias != nil {
		bs, boff = s.ops[2].strides[0], s.ops[2].off
	}
	epi := fin
	if bias != nil {
		epi = func(off, rows, cols int) {
			r0 := off / p
			for i := range rows {
				b := bias[boff+(r0+i)%g.o*bs]
				row := out[off+i*p : off+i*p+cols]
				for j := range row {
					row[j] += b
				}
			}
			if fin != nil {
				fin(off, rows, cols)
			}
		}
	}
	forParts(r, g.n*g.groups, cog*k*p, func(i int, r matmul.Runner) {
		n, gr := i/g.groups, i%g.groups
		buf, _ := s.scratch.Get().(*[]F)
		if buf == nil {
			buf = new([]F)
		}
		xp := paddedImage(g, x[(n*g.c+gr*cig)*plane:], cig, buf)
		a := matmul.Operand[F]{Matrix: matmul.Matrix[F]{Data: w, Offset: gr * cog * k, Rows: cog, Cols: k, RowStride: k, ColStride: 1}}
		b := matmul.Operand[F]{Pack: func(buf []F, p0, p1, j0, j1, nr int) { packPatches(g, xp, buf, p0, p1, j0, j1, nr) }}
		dst := matmul.Matrix[F]{Data: out, Offset: (n*g.o + gr*cog) * p, Rows: cog, Cols: p, RowStride: p, ColStride: 1}
		matmul.Implicit(dst, a, b, k, r, epi)
		s.scratch.Put(buf)
	})
}

func convInputGrad[F float32 | float64](s *windowStep, gd, wd []F, dx []F, r matmul.Runner) {
	g := &s.geo
	dy := dense(s, 0, gd, g.yExt())
	w := dense(s, 1, wd, g.wExt())
	cig, cog := g.c/g.groups, g.o/g.groups
	k, p := cig*g.taps(), g.outPlane()
	plane := g.inPlane()
	dx = dx[:g.n*g.c*plane]
	clear(dx)
	forParts(r, g.n*g.groups, cog*k*p, func(i int, r matmul.Runner) {
		n, gr := i/g.groups, i%g.groups
		cols := make([]F, k*p)
		a := matmul.Operand[F]{Matrix: matmul.Matrix[F]{Data: w, Offset: gr * cog * k, Rows: k, Cols: cog, RowStride: 1, ColStride: k}}
		b := matmul.Operand[F]{Matrix: matmul.Matrix[F]{Data: dy, Offset: (n*g.o + gr*cog) * p, Rows: cog, Cols: p, RowStride: p, ColStride: 1}}
		matmul.Implicit(matmul.RowMajor(cols, k, p), a, b, cog, r, nil)
		col2im(g, cols, dx[(n*g.c+gr*cig)*plane:], k)
	})
}

// col2im adds each patch element of cols (k × output positions) into the
// input position it was read from, rows then columns in order.
func col2im[F float32 | float64](g *winGeom, cols, dx []F, k int) {
	taps, plane, p := g.taps(), g.inPlane(), g.outPlane()
	for row := range k {
		ci, t := row/taps, row%taps
		kd, kh, kw := t/(g.k[1]*g.k[2]), t/g.k[2]%g.k[1], t%g.k[2]
		dc := dx[ci*plane:]
		src := cols[row*p:]
		j := 0
		for od := range g.out[0] {
			id := od*g.s[0] - g.pl[0] + kd*g.dl[0]
			for oh := range g.out[1] {
				ih := oh*g.s[1] - g.pl[1] + kh*g.dl[1]
				if id < 0 || id >= g.in[0] || ih < 0 || ih >= g.in[1] {
					j += g.out[2]
					continue
				}
				s2 := g.s[2]
				iw0 := -g.pl[2] + kw*g.dl[2]
				qa, qb := validRange(iw0, s2, g.in[2], g.out[2])
				drow := dc[(id*g.in[1]+ih)*g.in[2]:]
				for q := qa; q < qb; q++ {
					drow[iw0+q*s2] += src[j+q]
				}
				j += g.out[2]
			}
		}
	}
}

func convWeightGrad[F float32 | float64](s *windowStep, xd, gd []F, dw []F, r matmul.Runner) {
	g := &s.geo
	x := dense(s, 0, xd, g.xExt())
	dy := dense(s, 1, gd, g.yExt())
	cig, cog := g.c/g.groups, g.o/g.groups
	k, p := cig*g.taps(), g.outPlane()
	plane, taps := g.inPlane(), g.taps()
	forParts(r, g.groups, cog*k*p*g.n, func(gr int, r matmul.Runner) {
		// A: dY of the group, columns image after image.
		a := matmul.Operand[F]{Pack: func(buf []F, i0, i1, q0, q1, mr int) {
			kb := q1 - q0
			for q := q0; q < q1; q++ {
				n, sp := q/p, q%p
				src := dy[(n*g.o+gr*cog)*p+sp:]
				for ib := i0; ib < i1; ib += mr {
					d := buf[(ib-i0)*kb+(q-q0)*mr:][:mr]
					rows := min(mr, i1-ib)
					for i := range rows {
						d[i] = src[(ib+i)*p]
					}
					clear(d[rows:])
				}
			}
		}}
		// B: patchesᵀ, a row per output position of every image, a column
		// per input channel and kernel position.
		b := matmul.Operand[F]{Pack: func(buf []F, q0, q1, j0, j1, nr int) {
			kb, cols := q1-q0, j1-j0
			for q := q0; q < q1; q++ {
				n, sp := q/p, q%p
				ow, oh, od := sp%g.out[2], sp/g.out[2]%g.out[1], sp/(g.out[2]*g.out[1])
				xi := x[(n*g.c+gr*cig)*plane:]
				w := newPanelWriter(0, q-q0, kb, nr)
				for j := j0; j < j1; j++ {
					ci, t := j/taps, j%taps
					kd, kh, kw := t/(g.k[1]*g.k[2]), t/g.k[2]%g.k[1], t%g.k[2]
					id := od*g.s[0] - g.pl[0] + kd*g.dl[0]
					ih := oh*g.s[1] - g.pl[1] + kh*g.dl[1]
					iw := ow*g.s[2] - g.pl[2] + kw*g.dl[2]
					var v F
					if id >= 0 && id < g.in[0] && ih >= 0 && ih < g.in[1] && iw >= 0 && iw < g.in[2] {
						v = xi[ci*plane+(id*g.in[1]+ih)*g.in[2]+iw]
					}
					buf[w.pos] = v
					w.pos++
					if w.lane++; w.lane == nr {
						w.lane = 0
						w.pos += w.skip
					}
				}
				if rem := cols % nr; rem != 0 {
					clear(buf[w.pos : w.pos+nr-rem])
				}
			}
		}}
		dst := matmul.Matrix[F]{Data: dw, Offset: gr * cog * k, Rows: cog, Cols: k, RowStride: k, ColStride: 1}
		matmul.Implicit(dst, a, b, g.n*p, r, nil)
	})
}
