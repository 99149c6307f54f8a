package e2e

import "runtime"

// LiveHeap returns the bytes of live heap objects, after collecting twice
// so that objects freed by finalizers of the first collection are gone too.
// The tests of byte bounds measure what a session retains with it.
func LiveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}
