package bench

// Standard returns the standard workloads W1–W15 of the executor issues,
// float64 unless the description says f32. Workloads with several variants
// (W10's three sums, W11's two dtypes, W12's two expressions) are one row
// each, named W10/-1, W11/f64, W12/W2 and so on, so -run 'W10' selects all
// three sums and -run 'W1$' only a+b.
func Standard() []Workload {
	return []Workload{
		{"W1", "a+b", MemoryBound, w1[float64], "", false},
		{"W2", "a*b+c", MemoryBound, w2[float64], "", false},
		{"W3", "(a*b+c)*(a-b)/(c+1.5)", MemoryBound, w3[float64], "", false},
		{"W3/compiled", "W3, compiled by tpkernel", MemoryBound, w3Kernel[float64], "", false},
		{"W4", "exp(a)*sin(b)+sqrt(abs(c))", ComputeBound, w4[float64], "", false},
		{"W5", "[R,C]+[1,C]", MemoryBound, w5, "", false},
		{"W6", "[R,C]+[R,1]", MemoryBound, w6, "", false},
		{"W7", "[R,1]*[1,C]", MemoryBound, w7, "", false},
		{"W8", "a += b (in place)", MemoryBound, w8, "", false},
		{"W9", "a + b.T", MemoryBound, w9, "", false},
		{"W10/-1", "sum(x, -1)", MemoryBound, w10Rows, "", false},
		{"W10/0", "sum(x, 0)", MemoryBound, w10Cols, "", false},
		{"W10/all", "sum(x)", MemoryBound, w10All, "", false},
		{"W11/f64", "matmul f64 vs blas64.Gemm", ComputeBound, w11F64, "", false},
		{"W11/f32", "matmul f32 vs blas32.Gemm", ComputeBound, w11F32, "", false},
		{"W12/W2", "a*b+c f32", MemoryBound, w2[float32], "", false},
		{"W12/W4", "exp(a)*sin(b)+sqrt(abs(c)) f32", ComputeBound, w4[float32], "", false},
		{"W13", "SGD momentum update (in place)", MemoryBound, w13(false), "", false},
		{"W13/separate", "SGD momentum into new tensors", MemoryBound, w13(true), "", false},
		{"W14", "Adam update (in place)", MemoryBound, w14(false), "", false},
		{"W14/separate", "Adam into new tensors", MemoryBound, w14(true), "", false},
		{"W15/softmax", "softmax(x, -1) f32, rows of 1024", MemoryBound, w15Softmax, "", false},
		{"W15/lse", "logsumexp(x, -1) f32, rows of 1024", MemoryBound, w15LogSumExp, "", false},
		{"W15/var", "var(x, -1) f32, rows of 1024", MemoryBound, w15Var, "", false},
	}
}
