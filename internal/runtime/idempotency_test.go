package runtime

import (
	"crypto/sha256"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func idemRuntime(capacity int, maxBytes int64) *Runtime {
	return New(Settings{JournalCapacity: 10, JournalMaxBytes: 1 << 20,
		IdempotencyCapacity: capacity, IdempotencyMaxBytes: maxBytes})
}

// keep claims key for body and keeps an answer of n body bytes.
func keep(t *testing.T, rt *Runtime, key, body string, n int) {
	t.Helper()
	c, _, out := rt.ClaimIdempotencyKey(key, sha256.Sum256([]byte(body)))
	require.Equal(t, IdempotencyFresh, out)
	c.Keep(&IdempotentAnswer{Status: 200, Body: make([]byte, n)})
	c.Release()
}

func outcome(rt *Runtime, key, body string) IdempotencyOutcome {
	c, _, out := rt.ClaimIdempotencyKey(key, sha256.Sum256([]byte(body)))
	if c != nil {
		c.Release()
	}
	return out
}

func TestIdempotencyOutcomes(t *testing.T) {
	rt := idemRuntime(4, 1<<20)
	c, _, out := rt.ClaimIdempotencyKey("k", sha256.Sum256([]byte("a")))
	require.Equal(t, IdempotencyFresh, out)
	assert.Equal(t, IdempotencyInFlight, outcome(rt, "k", "a"))
	assert.Equal(t, IdempotencyReused, outcome(rt, "k", "b"))
	c.Release() // nothing kept: the key is let go
	assert.Equal(t, IdempotencyFresh, outcome(rt, "k", "a"))

	keep(t, rt, "k", "a", 10)
	_, a, out := rt.ClaimIdempotencyKey("k", sha256.Sum256([]byte("a")))
	assert.Equal(t, IdempotencyReplay, out)
	assert.Len(t, a.Body, 10)
	assert.Equal(t, IdempotencyReused, outcome(rt, "k", "b"))

	rt.Reset()
	assert.Equal(t, IdempotencyFresh, outcome(rt, "k", "a"))
}

func TestIdempotencyBounds(t *testing.T) {
	rt := idemRuntime(3, 4096)
	for i := range 5 {
		keep(t, rt, fmt.Sprint(i), "a", 100)
	}
	// Three keys at most: the two oldest went.
	assert.Equal(t, IdempotencyFresh, outcome(rt, "0", "a"))
	assert.Equal(t, IdempotencyFresh, outcome(rt, "1", "a"))
	assert.Equal(t, IdempotencyReplay, outcome(rt, "4", "a"))

	// Bytes: an answer of 3000 evicts what it must; one larger than the
	// bound is not kept.
	keep(t, rt, "big", "a", 3000)
	assert.Equal(t, IdempotencyReplay, outcome(rt, "big", "a"))
	assert.Equal(t, IdempotencyFresh, outcome(rt, "2", "a"))
	rt.mu.Lock()
	assert.LessOrEqual(t, rt.idempotency.bytes, int64(4096))
	rt.mu.Unlock()
	keep(t, rt, "huge", "a", 5000)
	assert.Equal(t, IdempotencyFresh, outcome(rt, "huge", "a"))

	// Every key in flight: a new one is not tracked.
	full := idemRuntime(1, 4096)
	c, _, _ := full.ClaimIdempotencyKey("busy", sha256.Sum256(nil))
	assert.Equal(t, IdempotencyUntracked, outcome(full, "other", "a"))
	c.Release()

	// A claim that outlives a Reset keeps nothing, and a retired runtime
	// tracks nothing.
	c, _, _ = rt.ClaimIdempotencyKey("late", sha256.Sum256(nil))
	rt.Reset()
	c.Keep(&IdempotentAnswer{Status: 200})
	c.Release()
	assert.Equal(t, IdempotencyFresh, outcome(rt, "late", ""))
	rt.Retire()
	assert.Equal(t, IdempotencyUntracked, outcome(rt, "late", ""))
}
