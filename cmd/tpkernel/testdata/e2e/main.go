// Command e2e checks kernels that tpkernel generated (kernels_tp.go, made by
// TestEndToEnd) against the executor's interpreter: each graph must use its
// kernel and give the same bits without it. It prints "ok" or what differs.
package main

//go:generate go run ../.. -pkg main -types float64,float32 -o kernels_tp.go w3=(a*b+c)*(a-b)/(c+1.5) fn=sqrt(abs(c))*tan(b)+round(a/2)-log1p(abs(a)) neg=-(a-b)*-2.5

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"strings"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

func main() {
	bad := check[float64]() + check[float32]()
	if bad > 0 {
		os.Exit(1)
	}
	fmt.Println("ok")
}

func check[T dtype.Float]() int {
	a := tensor.Must(tensor.RandN[T](1, 300, 70))
	b := tensor.Must(tensor.RandN[T](2, 300, 70))
	c := tensor.Must(tensor.RandN[T](3, 70, 300))
	x, y, z := expr.Of(a), expr.Of(b), expr.Of(tensor.Must(c.T())) // z transposed
	graphs := map[string]expr.Expr[T]{
		"w3":  x.Mul(y).Add(z).Mul(x.Sub(y)).Div(z.AddScalar(1.5)),
		"fn":  z.Abs().Sqrt().Mul(y.Tan()).Add(x.DivScalar(3).Round()).Sub(x.Abs().Log1p()),
		"neg": x.Sub(y).Neg().MulScalar(-4),
	}
	var interpPlan bytes.Buffer
	interp := exec.New(exec.UseCompiledKernels(false), exec.Debug(&interpPlan))
	bad := 0
	for name, e := range graphs {
		var plan bytes.Buffer
		want, err1 := exec.EvalWith(interp, e)
		got, err2 := exec.EvalWith(exec.New(exec.Debug(&plan)), e)
		if err1 != nil || err2 != nil {
			fmt.Println(name, err1, err2)
			bad++
			continue
		}
		if !strings.Contains(plan.String(), "compiled "+name) {
			fmt.Printf("%s %v: kernel not used:\n%s", name, dtype.Of[T](), plan.String())
			bad++
		}
		w, g := want.Values(), got.Values()
		for i := range w {
			if math.Float64bits(float64(w[i])) != math.Float64bits(float64(g[i])) && !(w[i] != w[i] && g[i] != g[i]) {
				fmt.Printf("%s %v: element %d: kernel %v, interpreter %v\n", name, dtype.Of[T](), i, g[i], w[i])
				bad++
				break
			}
		}
	}
	if strings.Contains(interpPlan.String(), "compiled") || !strings.Contains(interpPlan.String(), "fused") {
		fmt.Printf("%v: the interpreting executor used a kernel or printed no plan:\n%s", dtype.Of[T](), interpPlan.String())
		bad++
	}
	return bad
}
