package exec

// UnregisterCompiled removes the registered kernels of the given name, so a
// test's kernels do not apply to the graphs of other tests.
func UnregisterCompiled(name string) {
	compiledKernels.Lock()
	defer compiledKernels.Unlock()
	for k, e := range compiledKernels.byKey {
		if e.name == name {
			delete(compiledKernels.byKey, k)
		}
	}
}

// SetStreamBytes sets the output size from which kernels store around the
// caches, and returns a function that restores it.
func SetStreamBytes(n int) (restore func()) {
	saved := streamBytes
	streamBytes = n
	return func() { streamBytes = saved }
}

// SetShortRowBlocks turns the reductions' blocks of whole short rows on or
// off (see reduce_rows.go) for executors made afterwards (plans are cached
// per executor), and returns a function that restores the setting.
func SetShortRowBlocks(on bool) (restore func()) {
	saved := shortRowBlocks
	shortRowBlocks = on
	return func() { shortRowBlocks = saved }
}

// SetReversedKind turns the reversed access kind on or off (off, reversed
// rows are strided) and returns the function that restores it; plans
// already cached keep their kinds.
func SetReversedKind(on bool) func() {
	saved := reversedKind
	reversedKind = on
	return func() { reversedKind = saved }
}

// LiveWorkers is the number of worker goroutines of every pool that have
// not exited.
func LiveWorkers() int { return int(liveWorkers.Load()) }
