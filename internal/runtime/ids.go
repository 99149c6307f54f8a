package runtime

import (
	crand "crypto/rand"
	"encoding/binary"
	"math/rand/v2"
)

// idAlphabet is the alphabet of the real API's random ID suffixes.
const idAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// base58Alphabet is the alphabet of Anthropic's 2026 message IDs
// ("msg_011C" and 20 of it): base 62 without 0, O, I and l.
const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

// hexAlphabet is the alphabet of the real Responses API's IDs ("resp_",
// "msg_", "fc_", "rs_" and 50 lowercase hexadecimal digits; "conv_" and 48).
const hexAlphabet = "0123456789abcdef"

// idStream is the second half of the PCG state of a seeded sequence, a
// constant so that the seed alone decides the sequence.
const idStream = 0x11_7e57

// idSequence is a runtime's source of generated IDs and the start of its
// request serials. Both are drawn from the session's seed when it has one,
// so that a golden test sees the same IDs on every run, and from
// crypto/rand otherwise, so that no two runtimes of a process (parallel
// tests sharing one server, and one database keyed by these IDs) start
// the same sequence.
type idSequence struct {
	rand *rand.Rand
	// serialBase is added to the request counter; see Runtime.NextSerial.
	serialBase uint64
}

// newIDSequence starts the sequence of seed, or a random one for nil.
func newIDSequence(seed *uint64) idSequence {
	var src *rand.PCG
	if seed != nil {
		src = rand.NewPCG(*seed, idStream)
	} else {
		var b [16]byte
		_, _ = crand.Read(b[:]) // never fails: see crypto/rand.Read
		src = rand.NewPCG(binary.LittleEndian.Uint64(b[:8]), binary.LittleEndian.Uint64(b[8:]))
	}
	r := rand.New(src)
	return idSequence{rand: r, serialBase: r.Uint64()}
}

// sameSeed reports whether a and b name the same seed (both nil: both
// random).
func sameSeed(a, b *uint64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// NewID returns prefix followed by n characters of base62 from the
// runtime's ID sequence, shaped like the real API's IDs ("call_" + 24).
// A retired runtime draws from a fresh random sequence and leaves its own
// as it is.
func (rt *Runtime) NewID(prefix string, n int) string { return rt.newID(prefix, n, idAlphabet) }

// NewHexID is NewID with n lowercase hexadecimal digits, the shape of the
// Responses API's IDs.
func (rt *Runtime) NewHexID(prefix string, n int) string { return rt.newID(prefix, n, hexAlphabet) }

// NewBase58ID is NewID with n base-58 characters, the shape of
// Anthropic's message IDs.
func (rt *Runtime) NewBase58ID(prefix string, n int) string {
	return rt.newID(prefix, n, base58Alphabet)
}

func (rt *Runtime) newID(prefix string, n int, alphabet string) string {
	b := make([]byte, len(prefix)+n)
	copy(b, prefix)
	rt.mu.Lock()
	defer rt.mu.Unlock()
	ids := rt.ids.rand
	if rt.retired {
		ids = newIDSequence(nil).rand
	}
	for i := len(prefix); i < len(b); i++ {
		b[i] = alphabet[ids.IntN(len(alphabet))]
	}
	return string(b)
}
