// Command tpkernel compiles elementwise expressions into Go loops that the
// tensorplay executor runs in place of interpreting them (see exec.CompiledKernel).
//
// Usage:
//
//	tpkernel [-o file] [-pkg name] [-types float64,float32] name=expression ...
//
// An expression is Go syntax over identifiers (the input tensors, in order
// of first appearance), numeric literals (scalar constants: the kernel takes
// any value in their place), + - * / and unary minus, parentheses, and the
// functions abs, sqrt, tan, log1p, expm1, floor, ceil and round (half to
// even), each the expr method of that name. It must be
// written in the same form as the graph it is meant for: a*b+c matches
// a.Mul(b).Add(c), and c+1.5 matches c.AddScalar(1.5) or
// c.Add(expr.Scalar(1.5)), but not 1.5+c. exp and sigmoid are not offered:
// the executor computes them with its own block kernels, which a generated
// loop cannot call.
//
// Typical use is a go:generate line in the package that evaluates the graph:
//
//	//go:generate go run github.com/tensorplay/tensorplay/cmd/tpkernel -o kernels_tp.go w3=(a*b+c)*(a-b)/(c+1.5)
//
// The generated file registers one kernel per name and type in an init
// function. Each operation's result is converted to the element type, as the
// executor's own kernels round it, so a graph gives the same bits whether it
// runs through the kernel or not.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"io"
	"os"
	"strings"
	"unicode"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "tpkernel:", err)
		}
		os.Exit(2)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("tpkernel", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write the Go file here (default: standard output)")
	pkg := fs.String("pkg", os.Getenv("GOPACKAGE"), "package of the generated file (default: $GOPACKAGE, set by go generate)")
	types := fs.String("types", "float64", "comma-separated element types: float64, float32")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: tpkernel [-o file] [-pkg name] [-types float64,float32] name=expression ...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return errors.New("no name=expression given")
	}
	if *pkg == "" {
		return errors.New("no package: pass -pkg or run under go generate")
	}
	if !token.IsIdentifier(*pkg) {
		return fmt.Errorf("-pkg %q: not a valid package name", *pkg)
	}
	var ts []string
	for _, t := range strings.Split(*types, ",") {
		if t != "float64" && t != "float32" {
			return fmt.Errorf("type %q: kernels are for float64 and float32", t)
		}
		ts = append(ts, t)
	}
	var ks []*kernel
	for _, a := range fs.Args() {
		name, src, ok := strings.Cut(a, "=")
		if !ok || name == "" {
			return fmt.Errorf("%q: want name=expression", a)
		}
		if strings.ContainsFunc(name, func(r rune) bool { return !unicode.IsPrint(r) }) {
			return fmt.Errorf("name %q: only printable characters, on one line", name)
		}
		k, err := parse(name, src)
		if err != nil {
			return err
		}
		ks = append(ks, k)
	}
	src, err := generate(*pkg, ts, ks)
	if err != nil {
		return err
	}
	if *out == "" {
		_, err = stdout.Write(src)
		return err
	}
	return os.WriteFile(*out, src, 0o644)
}

// kernel is one parsed expression.
type kernel struct {
	name, src string
	root      ast.Expr
	inputs    []string         // identifiers by first appearance
	inputOf   map[string]int   // identifier -> index
	scalarOf  map[ast.Expr]int // a number or a negated number -> index
	literals  []string         // literal text per scalar
	usesMath  bool             // the loop calls the math package
	ops       int              // operations (not counting constants' signs)
}

func parse(name, src string) (*kernel, error) {
	root, err := parser.ParseExpr(src)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	k := &kernel{name: name, src: src, root: root, inputOf: map[string]int{}, scalarOf: map[ast.Expr]int{}}
	if err := k.walk(root); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(k.inputs) == 0 {
		return nil, fmt.Errorf("%s: the expression has no input", name)
	}
	if k.ops < 2 {
		return nil, fmt.Errorf("%s: the expression has %d op; a kernel needs two or more (one op already runs as one loop)", name, k.ops)
	}
	return k, nil
}

// walk checks e and numbers its inputs and scalars in the order the
// executor's planner meets them: operands left to right, depth first.
func (k *kernel) walk(e ast.Expr) error {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return k.walk(e.X)
	case *ast.Ident:
		if _, ok := k.inputOf[e.Name]; !ok {
			k.inputOf[e.Name] = len(k.inputs)
			k.inputs = append(k.inputs, e.Name)
		}
		return nil
	case *ast.BasicLit:
		if e.Kind != token.INT && e.Kind != token.FLOAT {
			return fmt.Errorf("column %d: %s is not a number", e.Pos(), e.Value)
		}
		k.scalarOf[e] = len(k.literals)
		k.literals = append(k.literals, e.Value)
		return nil
	case *ast.UnaryExpr:
		if e.Op != token.SUB && e.Op != token.ADD {
			return fmt.Errorf("column %d: unary %s is not supported (only - and +)", e.Pos(), e.Op)
		}
		if lit, ok := e.X.(*ast.BasicLit); ok && e.Op == token.SUB && (lit.Kind == token.INT || lit.Kind == token.FLOAT) {
			// A negative number is one constant, as in x.MulScalar(-2).
			k.scalarOf[e] = len(k.literals)
			k.literals = append(k.literals, "-"+lit.Value)
			return nil
		}
		if e.Op == token.SUB {
			k.ops++
		}
		return k.walk(e.X)
	case *ast.BinaryExpr:
		if _, ok := methods[e.Op]; !ok {
			return fmt.Errorf("column %d: %s is not supported (only + - * /)", e.OpPos, e.Op)
		}
		k.ops++
		if err := k.walk(e.X); err != nil {
			return err
		}
		return k.walk(e.Y)
	case *ast.CallExpr:
		if _, err := call(e); err != nil {
			return err
		}
		k.ops++
		return k.walk(e.Args[0])
	}
	return fmt.Errorf("column %d: %s is not supported (identifiers, numbers, + - * /, functions, parentheses)", e.Pos(), describe(e))
}

// describe names a kind of Go expression tpkernel does not compile.
func describe(e ast.Expr) string {
	switch e.(type) {
	case *ast.IndexExpr, *ast.IndexListExpr:
		return "indexing"
	case *ast.SliceExpr:
		return "slicing"
	case *ast.SelectorExpr:
		return "a selector (x.y)"
	case *ast.StarExpr:
		return "a pointer (*x)"
	case *ast.CompositeLit:
		return "a composite literal"
	case *ast.FuncLit:
		return "a function literal"
	case *ast.TypeAssertExpr:
		return "a type assertion"
	case *ast.KeyValueExpr:
		return "a key: value pair"
	}
	return fmt.Sprintf("%T", e)
}

var methods = map[token.Token]string{token.ADD: "Add", token.SUB: "Sub", token.MUL: "Mul", token.QUO: "Div"}

// funcs are the functions of one operand: the expr method and the math
// function the executor's own kernel calls (on the value as a float64).
var funcs = map[string]struct{ method, math string }{
	"abs": {"Abs", "Abs"}, "sqrt": {"Sqrt", "Sqrt"}, "tan": {"Tan", "Tan"}, "log1p": {"Log1p", "Log1p"},
	"expm1": {"Expm1", "Expm1"}, "floor": {"Floor", "Floor"}, "ceil": {"Ceil", "Ceil"}, "round": {"Round", "RoundToEven"},
}

// call returns the function a call expression names, checking its form.
func call(e *ast.CallExpr) (string, error) {
	id, ok := e.Fun.(*ast.Ident)
	if !ok {
		return "", fmt.Errorf("column %d: only plain function names can be called", e.Pos())
	}
	if _, ok := funcs[id.Name]; !ok {
		return "", fmt.Errorf("column %d: %s is not a supported function (abs, sqrt, tan, log1p, expm1, floor, ceil, round)", e.Pos(), id.Name)
	}
	if len(e.Args) != 1 || e.Ellipsis.IsValid() {
		return "", fmt.Errorf("column %d: %s takes one operand", e.Pos(), id.Name)
	}
	return id.Name, nil
}

// graph writes the expr calls that build e, which walk has checked: it
// admits only the node types handled here, so the final panic is
// unreachable.
func (k *kernel) graph(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return k.graph(e.X)
	case *ast.Ident:
		return fmt.Sprintf("in[%d]", k.inputOf[e.Name])
	case *ast.BasicLit:
		return fmt.Sprintf("s[%d]", k.scalarOf[e])
	case *ast.UnaryExpr:
		if i, ok := k.scalarOf[e]; ok {
			return fmt.Sprintf("s[%d]", i)
		}
		if e.Op == token.ADD {
			return k.graph(e.X)
		}
		return k.graph(e.X) + ".Neg()"
	case *ast.BinaryExpr:
		return fmt.Sprintf("%s.%s(%s)", k.graph(e.X), methods[e.Op], k.graph(e.Y))
	case *ast.CallExpr:
		return fmt.Sprintf("%s.%s()", k.graph(e.Args[0]), funcs[e.Fun.(*ast.Ident).Name].method)
	}
	panic("unreachable: walk checked the expression")
}

// loop writes the per-element Go expression of e for element type t; like
// graph, it sees only expressions walk has checked.
func (k *kernel) loop(e ast.Expr, t string) string {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return k.loop(e.X, t)
	case *ast.Ident:
		return fmt.Sprintf("v%d[i]", k.inputOf[e.Name])
	case *ast.BasicLit:
		return fmt.Sprintf("s%d", k.scalarOf[e])
	case *ast.UnaryExpr:
		if i, ok := k.scalarOf[e]; ok {
			return fmt.Sprintf("s%d", i)
		}
		if e.Op == token.ADD {
			return k.loop(e.X, t)
		}
		return "-(" + k.loop(e.X, t) + ")"
	case *ast.BinaryExpr:
		return fmt.Sprintf("%s(%s %s %s)", t, k.loop(e.X, t), e.Op, k.loop(e.Y, t))
	case *ast.CallExpr:
		k.usesMath = true
		return fmt.Sprintf("%s(math.%s(float64(%s)))", t, funcs[e.Fun.(*ast.Ident).Name].math, k.loop(e.Args[0], t))
	}
	panic("unreachable: walk checked the expression")
}

func generate(pkg string, types []string, ks []*kernel) ([]byte, error) {
	var b bytes.Buffer
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	usesMath := false
	for _, k := range ks {
		for _, t := range types {
			k.loop(k.root, t)
		}
		usesMath = usesMath || k.usesMath
	}
	p("// Code generated by tpkernel; DO NOT EDIT.\n\npackage %s\n\nimport (\n", pkg)
	if usesMath {
		p("\t\"math\"\n\n")
	}
	p("\t\"github.com/tensorplay/tensorplay/exec\"\n\t\"github.com/tensorplay/tensorplay/expr\"\n)\n\n")
	p("func init() {\n")
	for _, k := range ks {
		for _, t := range types {
			p("\t// %s: %s\n", k.name, strings.Join(strings.Fields(k.src), " "))
			p("\texec.MustRegisterCompiled(exec.CompiledKernel[%s]{\n", t)
			p("\t\tName: %q, Inputs: %d, Scalars: %d,\n", k.name, len(k.inputs), len(k.literals))
			p("\t\tExpr: func(in, s []expr.Expr[%s]) expr.Expr[%s] {\n\t\t\treturn %s\n\t\t},\n", t, t, k.graph(k.root))
			p("\t\tLoop: func(d []%s, in [][]%s, s []%s) {\n", t, t, t)
			for i, name := range k.inputs {
				p("\t\t\tv%d := in[%d][:len(d)] // %s\n", i, i, name)
			}
			for i, lit := range k.literals {
				p("\t\t\ts%d := s[%d] // %s\n", i, i, lit)
			}
			p("\t\t\tfor i := range d {\n\t\t\t\td[i] = %s\n\t\t\t}\n\t\t},\n", k.loop(k.root, t))
			p("\t})\n")
		}
	}
	p("}\n")
	return format.Source(b.Bytes())
}
