package session

import (
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

func TestSessionIDsAreUUIDs(t *testing.T) {
	m, err := NewManager(ManagerConfig{Startup: DefaultConfig(), Bounds: DefaultBounds()})
	require.NoError(t, err)
	defer m.Close()
	seen := make(map[string]bool)
	for range 4 {
		s, err := m.Create()
		require.NoError(t, err)
		raw, ok := strings.CutPrefix(s.ID(), "sess_")
		require.True(t, ok, "ID %q lacks the sess_ prefix", s.ID())
		id, err := uuid.Parse(raw)
		require.NoError(t, err, "ID %q", s.ID())
		require.Equal(t, uuid.Version(4), id.Version())
		require.False(t, seen[s.ID()], "ID %q handed out twice", s.ID())
		seen[s.ID()] = true
		require.Len(t, s.Key(), len("sk_sess_")+64, "keys stay 256 random bits")
		require.NoError(t, s.Close())
	}
}
