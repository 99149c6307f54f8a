package session

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A configuration's seed is its own: copies never share the pointer, so
// changing one session's template cannot change another's seed.
func TestIDSeedIsCopied(t *testing.T) {
	cfg, err := NewConfig(WithIDSeed(1))
	require.NoError(t, err)
	require.NotNil(t, cfg.IDSeed)
	clone, err := NewConfig(WithConfig(cfg))
	require.NoError(t, err)
	s := cfg.settings()
	*cfg.IDSeed = 2
	assert.Equal(t, uint64(1), *clone.IDSeed)
	assert.Equal(t, uint64(1), *s.IDSeed)
	assert.False(t, cfg.isZero())
}
