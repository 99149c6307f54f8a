package answer

import (
	"crypto/sha256"
	"encoding/binary"
	"math"
	"math/rand/v2"
)

// Vector returns a deterministic unit-length vector of dims components for
// text: the same text and dims always give the same vector, and different
// texts give unrelated ones. The components are drawn from a PCG generator
// seeded with the SHA-256 of text (two uniform draws per component through
// the Box–Muller transform, so the result does not depend on math/rand's
// own distribution code), then scaled to length 1.
//
// Like the real text-embedding-3 models, a shorter vector is the prefix of
// the longer one, re-normalized: Vector(t, 256) points the same way as the
// first 256 components of Vector(t, 1536). Vector returns nil for dims < 1.
func Vector(text string, dims int) []float32 {
	if dims < 1 {
		return nil
	}
	sum := sha256.Sum256([]byte(text))
	src := rand.NewPCG(binary.LittleEndian.Uint64(sum[0:8]), binary.LittleEndian.Uint64(sum[8:16]))
	raw := make([]float64, dims)
	var norm float64
	for i := range raw {
		u1 := float64(src.Uint64()>>11+1) / (1 << 53) // in (0, 1]
		u2 := float64(src.Uint64()>>11) / (1 << 53)   // in [0, 1)
		raw[i] = math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*u2)
		norm += raw[i] * raw[i]
	}
	if norm == 0 { // every draw hit u1 = 1: possible in principle only
		for i := range raw {
			raw[i] = 1
		}
		norm = float64(dims)
	}
	norm = math.Sqrt(norm)
	v := make([]float32, dims)
	for i, x := range raw {
		v[i] = float32(x / norm)
	}
	return v
}
