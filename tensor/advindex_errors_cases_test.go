package tensor_test

import "github.com/tensorplay/tensorplay/tensor"

// advancedIndexErrorCase is a subscript of arange(numel).reshape(Shape)
// and NumPy 1.24's outcome: the IndexError it raises (Err), or the
// values and shape it gives.
type advancedIndexErrorCase struct {
	Name      string
	Shape     tensor.Shape
	Items     []tensor.IndexItem
	Err       *tensor.IndexError
	Want      []float64
	WantShape tensor.Shape
}

func at(v ...int64) tensor.IndexItem { return tensor.At(ints(len(v))(v...)) }

// advancedIndexErrorCases: x[...] in NumPy 1.24 for x of the shape.
var advancedIndexErrorCases = []advancedIndexErrorCase{
	{Name: "second of two", Shape: tensor.Shape{3, 4}, Items: items(at(0, 1), at(0, 4)), Err: &tensor.IndexError{Index: 4, Axis: 1, Size: 4}},
	{Name: "first of two", Shape: tensor.Shape{3, 4}, Items: items(at(0, 3), at(0, 0)), Err: &tensor.IndexError{Index: 3, Axis: 0, Size: 3}},
	{Name: "second of three", Shape: tensor.Shape{2, 3, 4}, Items: items(at(0), at(5), at(0)), Err: &tensor.IndexError{Index: 5, Axis: 1, Size: 3}},
	{Name: "third of three", Shape: tensor.Shape{2, 3, 4}, Items: items(at(1), at(2), at(4)), Err: &tensor.IndexError{Index: 4, Axis: 2, Size: 4}},
	{Name: "separated, moved first", Shape: tensor.Shape{2, 3, 4}, Items: items(at(0), tensor.All, at(7)), Err: &tensor.IndexError{Index: 7, Axis: 2, Size: 4}},
	{Name: "after a slice", Shape: tensor.Shape{2, 3, 4}, Items: items(tensor.All, at(0, 2), at(1, 4)), Err: &tensor.IndexError{Index: 4, Axis: 2, Size: 4}},
	{Name: "after a new axis", Shape: tensor.Shape{3, 4}, Items: items(tensor.NewAxis, at(3)), Err: &tensor.IndexError{Index: 3, Axis: 0, Size: 3}},
	{Name: "after a new axis, second", Shape: tensor.Shape{3, 4}, Items: items(tensor.NewAxis, at(0), at(-5)), Err: &tensor.IndexError{Index: -5, Axis: 1, Size: 4}},
	{Name: "negative past the second axis", Shape: tensor.Shape{3, 4}, Items: items(at(-1), at(-5)), Err: &tensor.IndexError{Index: -5, Axis: 1, Size: 4}},
	{Name: "negatives wrap", Shape: tensor.Shape{3, 4}, Items: items(at(-1, -3), at(-4, -1)), Want: []float64{8, 3}, WantShape: tensor.Shape{2}},
	{Name: "both empty", Shape: tensor.Shape{3, 4}, Items: items(at(), at()), Want: []float64{}, WantShape: tensor.Shape{0}},
	{Name: "empty broadcast checks nothing", Shape: tensor.Shape{3, 4}, Items: items(at(), at(5)), Want: []float64{}, WantShape: tensor.Shape{0}},
	{Name: "empty with an integer past its axis", Shape: tensor.Shape{3, 4}, Items: items(at(), tensor.I(5)), Err: &tensor.IndexError{Index: 5, Axis: 1, Size: 4}},
}
