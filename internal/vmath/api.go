package vmath

import "github.com/tensorplay/tensorplay/dtype"

// Exp sets d[i] = e**a[i] for every i < len(d); a must be at least as long
// (d may be a).
func Exp[T dtype.Float](d, a []T) { call(d, a, &exp32K, &exp64K) }

// Log sets d[i] = log(a[i]) (natural) for every i < len(d); a must be at
// least as long (d may be a). Like math.Log: log(0) = -Inf, log of a
// negative number is NaN.
func Log[T dtype.Float](d, a []T) { call(d, a, &log32K, &log64K) }

// Sin sets d[i] = sin(a[i]) for every i < len(d); a must be at least as
// long (d may be a).
func Sin[T dtype.Float](d, a []T) { call(d, a, &sin32K, &sin64K) }

// Cos sets d[i] = cos(a[i]) for every i < len(d); a must be at least as
// long (d may be a).
func Cos[T dtype.Float](d, a []T) { call(d, a, &cos32K, &cos64K) }

// Tanh sets d[i] = tanh(a[i]) for every i < len(d); a must be at least as
// long (d may be a).
func Tanh[T dtype.Float](d, a []T) { call(d, a, &tanh32K, &tanh64K) }

// Sigmoid sets d[i] = 1/(1+e**-a[i]) for every i < len(d); a must be at
// least as long (d may be a).
func Sigmoid[T dtype.Float](d, a []T) { call(d, a, &sigmoid32K, &sigmoid64K) }
