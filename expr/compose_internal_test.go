package expr

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPadSourcesMatchNumPy checks padSources against the positions that
// NumPy 1.24's np.pad gives an arange (testdata/pad_numpy.json), pads
// wider than the extent and one-sided ones included.
func TestPadSourcesMatchNumPy(t *testing.T) {
	raw, err := os.ReadFile("testdata/pad_numpy.json")
	require.NoError(t, err)
	var f struct {
		Cases []struct {
			Mode          string
			N             int
			Before, After int
			Src           []int
		}
	}
	require.NoError(t, json.Unmarshal(raw, &f))
	require.Len(t, f.Cases, 576)
	modes := map[string]PadMode{"edge": PadEdge, "reflect": PadReflect, "symmetric": PadSymmetric, "wrap": PadWrap}
	for _, c := range f.Cases {
		name := fmt.Sprintf("%s/n=%d/%d,%d", c.Mode, c.N, c.Before, c.After)
		assert.Equal(t, c.Src, padSources(modes[c.Mode], c.N, c.Before, c.After), name)
	}
}
