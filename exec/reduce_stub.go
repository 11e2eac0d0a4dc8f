package exec

import "github.com/tensorplay/tensorplay/dtype"

type reducer interface{}

type reduceFns[T dtype.Elem] struct{}

func boolReduces() reduceFns[bool]                  { return reduceFns[bool]{} }
func realReduces[T dtype.Real]() reduceFns[T]       { return reduceFns[T]{} }
func floatReduces[T dtype.Float]() reduceFns[T]     { return reduceFns[T]{} }
func complexReduces[T dtype.Complex]() reduceFns[T] { return reduceFns[T]{} }
