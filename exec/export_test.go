package exec

// UnregisterKernels removes the registered kernels of the given name, so a
// test's kernels do not apply to the graphs of other tests.
func UnregisterKernels(name string) {
	kernels.Lock()
	defer kernels.Unlock()
	for k, e := range kernels.byKey {
		if e.name == name {
			delete(kernels.byKey, k)
		}
	}
}
