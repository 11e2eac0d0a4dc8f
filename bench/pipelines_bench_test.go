package bench

import (
	"strings"
	"testing"

	"github.com/tensorplay/tensorplay/exec"
)

// BenchmarkPipelines runs every small pipeline's step with 2 workers, the
// fixed cost of a call that tpbench's /s rows measure, for profiles and
// -benchmem (go test ./bench -run X -bench Pipelines/attn).
func BenchmarkPipelines(b *testing.B) {
	x := exec.New(exec.Workers(2))
	defer x.Close()
	for _, w := range Pipelines() {
		if !strings.HasSuffix(w.Name, "/s") {
			continue
		}
		b.Run(strings.TrimSuffix(w.Name, "/s"), func(b *testing.B) {
			c, err := w.Setup(Params{Workers: 2, Exec: x, Seed: 1})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := c.Tensorplay(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
