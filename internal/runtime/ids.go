package runtime

import "math/rand/v2"

// idAlphabet is the alphabet of the real API's random ID suffixes.
const idAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// idSeed seeds every runtime's ID sequence, so a session's IDs are the same
// on every run of a test.
const idSeed = 0x11_7e57

// newIDSource returns the deterministic source of generated IDs.
func newIDSource() *rand.Rand { return rand.New(rand.NewPCG(idSeed, idSeed)) }

// NewID returns prefix followed by n characters from the runtime's
// deterministic sequence, shaped like the real API's IDs ("call_" + 24).
// A retired runtime draws from a fresh sequence and leaves its own as it is.
func (rt *Runtime) NewID(prefix string, n int) string {
	b := make([]byte, len(prefix)+n)
	copy(b, prefix)
	rt.mu.Lock()
	defer rt.mu.Unlock()
	ids := rt.ids
	if rt.retired {
		ids = newIDSource()
	}
	for i := len(prefix); i < len(b); i++ {
		b[i] = idAlphabet[ids.IntN(len(idAlphabet))]
	}
	return string(b)
}
