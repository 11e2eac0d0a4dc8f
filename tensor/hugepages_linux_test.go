package tensor

import (
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSelectedMode(t *testing.T) {
	for in, want := range map[string]string{
		"always [madvise] never\n": "madvise",
		"[always] madvise never":   "always",
		"always madvise [never]\n": "never",
		"always madvise never":     "",
		"[always":                  "",
		"":                         "",
	} {
		assert.Equal(t, want, selectedMode(in), "%q", in)
	}
}

// TestMadviseErrors: the kernel refuses a range that does not start on a
// page (EINVAL), which turns the advice off; a passing shortage (EAGAIN)
// does not.
func TestMadviseErrors(t *testing.T) {
	s := make([]byte, 3*pageSize)
	err := madviseHuge(addrOf(s)+1, pageSize)
	assert.ErrorIs(t, err, syscall.EINVAL)
	assert.False(t, transient(err))

	watchAdvice(t, syscall.EAGAIN)
	advise(make([]float64, hugePageMin/8), hugePageMin)
	assert.True(t, HugePages(), "EAGAIN leaves the advice on")
	adviseHuge = func(uintptr, uintptr) error { return syscall.EINVAL }
	advise(make([]float64, hugePageMin/8), hugePageMin)
	assert.False(t, HugePages(), "EINVAL turns it off")
}
