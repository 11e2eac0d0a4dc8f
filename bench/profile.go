package bench

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/pkg/profile"
)

// profileModes maps -profile values to github.com/pkg/profile modes and the
// file each writes.
var profileModes = map[string]struct {
	mode func(*profile.Profile)
	file string
}{
	"cpu":    {profile.CPUProfile, "cpu.pprof"},
	"mem":    {profile.MemProfile, "mem.pprof"},
	"allocs": {profile.MemProfileAllocs, "mem.pprof"},
	"block":  {profile.BlockProfile, "block.pprof"},
	"mutex":  {profile.MutexProfile, "mutex.pprof"},
	"trace":  {profile.TraceProfile, "trace.out"},
}

// runProfile is a running profile; its zero value (no -profile) does nothing.
type runProfile struct {
	mode string
	path string
	p    interface{ Stop() }
}

// startProfile starts a profile of the given mode writing into dir (a new
// temporary directory when empty). pkg/profile exits the process when it
// cannot create its file, so the directory is made and tried here first.
func startProfile(mode, dir string) (*runProfile, error) {
	if mode == "" {
		return &runProfile{}, nil
	}
	m, ok := profileModes[mode]
	if !ok {
		return nil, fmt.Errorf("unknown mode %q", mode)
	}
	var err error
	if dir == "" {
		dir, err = os.MkdirTemp("", "tpbench-profile-")
	} else {
		err = os.MkdirAll(dir, 0o777)
	}
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, m.file)
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	f.Close()
	p := profile.Start(m.mode, profile.ProfilePath(dir), profile.Quiet, profile.NoShutdownHook)
	return &runProfile{mode: mode, path: path, p: p}, nil
}

// stop stops the profile and flushes its file.
func (r *runProfile) stop() {
	if r.p != nil {
		r.p.Stop()
		r.p = nil
	}
}

// command is the command line that opens the profile. CPU profiles drop the
// samples of the hand loops, the probe and the setup (see setSide), so what
// is left is tensorplay.
func (r *runProfile) command() string {
	switch r.mode {
	case "trace":
		return "go tool trace " + r.path
	case "cpu":
		return "go tool pprof -http=: -tagignore 'side=handloop|probe|setup' " + r.path
	case "allocs":
		return "go tool pprof -http=: -sample_index=alloc_space " + r.path
	}
	return "go tool pprof -http=: " + r.path
}
