package matmul

// Implicit products: operands that are not matrices in memory but are
// packed by a function of the caller's, straight into the panels the
// micro-kernel reads. A convolution's B is the matrix of input patches
// (im2col); packed this way, no patch matrix is ever made, only the
// kc×nc block of it being multiplied.

// A Packer packs rows [r0, r1) and columns [c0, c1) of an implicit operand
// into buf, in the layout packA or packB writes. As the A of a product
// (unit is then mr): ⌈(r1-r0)/mr⌉ panels of mr rows, each column after
// column, buf[(i/mr)·kb·mr + p·mr + i%mr] = a(r0+i, c0+p) with kb = c1-c0,
// rows past r1 zero. As the B (unit is nr): ⌈(c1-c0)/nr⌉ panels of nr
// columns, each row after row, buf[(j/nr)·kb·nr + p·nr + j%nr] = b(r0+p,
// c0+j) with kb = r1-r0, columns past c1 zero. Calls for different blocks
// may run concurrently.
type Packer[F float] func(buf []F, r0, r1, c0, c1, unit int)

// An Operand is one side of an Implicit product: Matrix, or, when Pack is
// not nil, the implicit matrix Pack packs.
type Operand[F float] struct {
	Matrix Matrix[F]
	Pack   Packer[F]
}

// Implicit computes dst = a @ b for an m×k a and a k×n b on the packed GEMM,
// as Gemm does for matrices (the same blocking, kernels and order of every
// sum, so for matrix operands the same bits), with its parts run by r and
// epi, when not nil, finishing each block of dst once it is final. dst
// must have unit column stride and rows that do not overlap, and must not
// overlap the operands.
func Implicit[F float](dst Matrix[F], a, b Operand[F], k int, r Runner, epi Epilogue) {
	dst.check("dst")
	if dst.Rows == 0 || dst.Cols == 0 {
		return
	}
	if k == 0 {
		dst.zero()
		finish(dst, r, epi)
		return
	}
	ops := implicitOperands[F]{a, b}
	switch d := any(dst).(type) {
	case Matrix[float32]:
		packedProduct(d, any(ops).(implicitOperands[float32]), k, r, kernel32, implicitBlocking(blockingOf(kernel32), b.Pack != nil, 4, kernel32.nr), epi)
	case Matrix[float64]:
		packedProduct(d, any(ops).(implicitOperands[float64]), k, r, kernel64, implicitBlocking(blockingOf(kernel64), b.Pack != nil, 8, kernel64.nr), epi)
	}
}

// implicitBlocking is the blocking of an Implicit product: bl, except that
// a packed b's blocks are narrowed to a quarter of L2. A convolution's b
// (the patches) is as large as the product's n times k and is used by few
// rows of a (the output channels), so a wide block would be packed into L3
// and read back from it; a narrow one is packed and multiplied while it is
// in L2. The a of such a product is read in place (implicitOperands.inPlace)
// rather than packed again for every block. kc, which orders every sum, is
// bl's.
func implicitBlocking(bl blocking, packedB bool, size, nr int) blocking {
	if packedB {
		bl.nc = min(bl.nc, clamp(machineCaches().l2/4/(bl.kc*size)/nr*nr, nr, bl.nc))
	}
	return bl
}

// implicitOperands are the operands of Implicit.
type implicitOperands[F float] struct{ a, b Operand[F] }

func (o implicitOperands[F]) packA(buf []F, i0, i1, p0, p1, mr int) {
	if o.a.Pack != nil {
		o.a.Pack(buf, i0, i1, p0, p1, mr)
		return
	}
	packA(buf, o.a.Matrix.Slice(i0, i1, p0, p1), mr)
}

func (o implicitOperands[F]) packB(buf []F, p0, p1, j0, j1, nr int) {
	if o.b.Pack != nil {
		o.b.Pack(buf, p0, p1, j0, j1, nr)
		return
	}
	packB(buf, o.b.Matrix.Slice(p0, p1, j0, j1), nr)
}

func (o implicitOperands[F]) bInPlace() (Matrix[F], bool) { return Matrix[F]{}, false }

func (o implicitOperands[F]) inPlace(n, nr int) (Matrix[F], bool) {
	if o.a.Pack != nil {
		return Matrix[F]{}, false
	}
	if o.b.Pack != nil {
		// Narrow blocks of b (implicitBlocking): a would be packed once per block.
		return o.a.Matrix, o.a.Matrix.ColStride == 1
	}
	return o.a.Matrix, readInPlace(o.a.Matrix, n, nr)
}

// Serial is the Runner of one part, on the calling goroutine.
func Serial() Runner { return serial }
