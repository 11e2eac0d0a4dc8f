package exec

// Packing a convolution's patches into the GEMM's B panels. The image is
// first padded (paddedImage), so that every patch element is a read of the
// padded image at an offset that is a sum of one term of the row (input
// channel and kernel position) and one of the column (output position),
// with no bounds to check; a panel row of output positions in one output
// row is then a run of one padded input row, contiguous for stride 1.

// A padded is one image's input channels of a group with the convolution's
// zero padding around each plane: planes of ext[0]×ext[1]×ext[2] elements,
// the image itself when it has no padding.
type padded[F float32 | float64] struct {
	x   []F
	ext [3]int
}

// paddedImage returns the cig channels of x (row-major planes of g.in)
// padded by g's padding, in buf when it is needed (grown if too small; the
// caller keeps it for reuse).
func paddedImage[F float32 | float64](g *winGeom, x []F, cig int, buf *[]F) padded[F] {
	var ext [3]int
	pad := false
	for a := range 3 {
		ext[a] = g.pl[a] + g.in[a] + g.ph[a]
		pad = pad || g.pl[a] != 0 || g.ph[a] != 0
	}
	if !pad {
		return padded[F]{x: x[:cig*g.inPlane()], ext: ext}
	}
	n := cig * ext[0] * ext[1] * ext[2]
	if cap(*buf) < n {
		*buf = make([]F, n)
	}
	xp := (*buf)[:n]
	clear(xp)
	plane := g.inPlane()
	for c := range cig {
		for d := range g.in[0] {
			for h := range g.in[1] {
				src := x[c*plane+(d*g.in[1]+h)*g.in[2]:][:g.in[2]]
				dst := ((c*ext[0]+d+g.pl[0])*ext[1]+h+g.pl[1])*ext[2] + g.pl[2]
				copy(xp[dst:dst+g.in[2]], src)
			}
		}
	}
	return padded[F]{x: xp, ext: ext}
}

// packRowChunk is the number of patch rows whose offsets packPatches keeps
// at a time.
const packRowChunk = 256

// packPatches packs rows [p0, p1) (input channel and kernel position) and
// columns [j0, j1) (output position) of an image's patch matrix, read from
// its padded image xp, into buf as a B block: panel after panel, in the
// order of buf. Patch element (p, j) is xp.x[rowOff(p) + colOff(j)]; a
// panel's columns are cut once into segments that lie in one output row
// (patchSeg), each then a run of a padded input row for every row p.
func packPatches[F float32 | float64](g *winGeom, xp padded[F], buf []F, p0, p1, j0, j1, nr int) {
	kb := p1 - p0
	taps := g.taps()
	e0, e1, e2 := xp.ext[0], xp.ext[1], xp.ext[2]
	s2 := g.s[2]
	var rowOff [packRowChunk]int
	var segs [maxPanelSegs]patchSeg
	for q0 := p0; q0 < p1; q0 += packRowChunk {
		q1 := min(q0+packRowChunk, p1)
		ci, t := q0/taps, q0%taps
		kd, kh, kw := t/(g.k[1]*g.k[2]), t/g.k[2]%g.k[1], t%g.k[2]
		for q := range q1 - q0 {
			rowOff[q] = ((ci*e0+kd*g.dl[0])*e1+kh*g.dl[1])*e2 + kw*g.dl[2]
			if kw++; kw == g.k[2] {
				kw = 0
				if kh++; kh == g.k[1] {
					kh = 0
					if kd++; kd == g.k[0] {
						kd = 0
						ci++
					}
				}
			}
		}
		offs := rowOff[:q1-q0]
		for jb := j0; jb < j1; jb += nr {
			panel := buf[(jb-j0)*kb : (jb-j0+nr)*kb]
			panel = panel[(q0-p0)*nr : (q1-p0)*nr]
			cols := min(nr, j1-jb)
			nseg := g.panelSegs(segs[:], jb, cols, e1, e2)
			if nseg == 1 && cols == nr && s2 == 1 {
				// One run of nr elements per row: the common case.
				off := segs[0].off
				for q, r := range offs {
					copyRun(panel[q*nr:q*nr+nr], xp.x[r+off:r+off+nr])
				}
				continue
			}
			for q, r := range offs {
				d := panel[q*nr : q*nr+nr]
				for _, sg := range segs[:nseg] {
					dst := d[sg.col : sg.col+sg.n]
					src := xp.x[r+sg.off:]
					if s2 == 1 {
						copyRun(dst, src[:sg.n])
						continue
					}
					for i := range dst {
						dst[i] = src[i*s2]
					}
				}
				if cols < nr {
					clear(d[cols:])
				}
			}
		}
	}
}

// maxPanelSegs bounds the segments of a panel: one per column at most, and
// the micro-kernels' panels are at most 16 columns wide.
const maxPanelSegs = 64

// A patchSeg is a run of n columns of a panel, from column col, that lie in
// one output row; off is the padded image's offset of its first column's
// window (the column's term of a patch element's offset).
type patchSeg struct{ col, n, off int }

// panelSegs cuts output positions [j, j+cols) into segs, one per output row
// they touch, for a padded image of rows of e2 elements and planes of e1
// rows, and returns how many there are.
func (g *winGeom) panelSegs(segs []patchSeg, j, cols, e1, e2 int) int {
	ow := j % g.out[2]
	oh := j / g.out[2] % g.out[1]
	od := j / (g.out[2] * g.out[1])
	n := 0
	for c := 0; c < cols; n++ {
		run := min(g.out[2]-ow, cols-c)
		segs[n] = patchSeg{col: c, n: run, off: (od*g.s[0]*e1+oh*g.s[1])*e2 + ow*g.s[2]}
		c += run
		if ow += run; ow == g.out[2] {
			ow = 0
			if oh++; oh == g.out[1] {
				oh = 0
				od++
			}
		}
	}
	return n
}

// copyRun copies len(d) elements of s into d, four at a time as arrays,
// which the compiler moves inline (copy calls memmove: the runs are short).
func copyRun[F float32 | float64](d, s []F) {
	s = s[:len(d)]
	i := 0
	for ; i+4 <= len(d); i += 4 {
		*(*[4]F)(d[i : i+4]) = [4]F(s[i : i+4])
	}
	for ; i < len(d); i++ {
		d[i] = s[i]
	}
}
