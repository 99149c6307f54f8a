package runtime

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// firstIDs returns the first IDs and request serial of rt.
func firstIDs(rt *Runtime) [3]string {
	return [3]string{rt.NewID("call_", 24), rt.NewHexID("resp_", 50), strconv.FormatUint(rt.NextSerial(), 10)}
}

func seeded(seed uint64) Settings {
	s := Settings{JournalCapacity: 10, JournalMaxBytes: 1 << 20}
	s.IDSeed = &seed
	return s
}

func TestIDsDifferBetweenUnseededRuntimes(t *testing.T) {
	a, b := firstIDs(newTestRuntime()), firstIDs(newTestRuntime())
	for i := range a {
		assert.NotEqual(t, a[i], b[i], "ID %d repeats across runtimes", i)
	}
}

func TestIDsFollowTheSeed(t *testing.T) {
	a, b := New(seeded(7)), New(seeded(7))
	first := firstIDs(a)
	require.Equal(t, first, firstIDs(b), "one seed, one sequence")
	assert.NotEqual(t, first, firstIDs(New(seeded(8))), "another seed, another sequence")

	second := firstIDs(a)
	assert.NotEqual(t, first, second, "the sequence goes on")
	a.Reset()
	assert.Equal(t, first, firstIDs(a), "Reset restarts a seeded sequence")

	// Configure keeps the sequence under the same seed, so that IDs of
	// stored responses are not handed out again, and restarts it from a
	// new seed.
	a.Configure(seeded(7))
	assert.Equal(t, second, firstIDs(a))
	a.Configure(seeded(8))
	assert.Equal(t, firstIDs(New(seeded(8))), firstIDs(a))

	// Without a seed, Reset starts a fresh random sequence.
	u := newTestRuntime()
	before := firstIDs(u)
	u.Reset()
	assert.NotEqual(t, before, firstIDs(u))
}

func TestIDShapes(t *testing.T) {
	rt := newTestRuntime()
	assert.Regexp(t, regexp.MustCompile(`^call_[A-Za-z0-9]{24}$`), rt.NewID("call_", 24))
	assert.Regexp(t, regexp.MustCompile(`^msg_[0-9a-f]{50}$`), rt.NewHexID("msg_", 50))
}
