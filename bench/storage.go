package bench

import (
	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// handStorage returns n zeroed elements allocated as a tensor's storage is,
// with the same huge-page advice (see tensor.SetHugePages), so that the hand
// loops and the bandwidth probe use the same kind of memory as tensorplay.
func handStorage[T dtype.Elem](n int) []T { return tensor.Must(tensor.New[T](n)).Data() }
