package llmtest_test

import "runtime"

// liveHeap returns the bytes of live heap objects, after collecting twice
// so that objects freed by finalizers of the first collection are gone too.
func liveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}
