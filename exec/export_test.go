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
