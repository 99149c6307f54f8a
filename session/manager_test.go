package session

import (
	"reflect"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/stretchr/testify/assert"
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
		s.Close()
	}
}

// A deleted session's journal stays as it was, even when its runtime is
// reset or records after the deletion.
func TestDeletedSessionJournalIsFrozen(t *testing.T) {
	m, err := NewManager(ManagerConfig{})
	require.NoError(t, err)
	defer m.Close()
	s, err := m.Create()
	require.NoError(t, err)
	s.rt.Record(journal.Entry{Path: "/v1/chat/completions", Status: 200})
	s.Close()
	s.rt.Reset()
	s.rt.Record(journal.Entry{Path: "/v1/embeddings", Status: 200})
	entries := s.Journal().Entries()
	require.Len(t, entries, 1)
	require.Equal(t, "/v1/chat/completions", entries[0].Path)
}

// The journal a session hands a test is read-only: nothing on it records,
// forgets or resizes, so a test cannot write entries the session never
// saw, nor grow the journal past the session's reservation.
func TestSessionJournalHasNoWriter(t *testing.T) {
	m, err := NewManager(ManagerConfig{})
	require.NoError(t, err)
	defer m.Close()
	s, err := m.Create()
	require.NoError(t, err)
	typ := reflect.TypeOf(s.Journal())
	for _, name := range []string{"Record", "Reset", "Resize", "Freeze"} {
		if _, ok := typ.MethodByName(name); ok {
			t.Errorf("%v has a method %s", typ, name)
		}
	}
}

// What Scenarios returns is the caller's: changing it, as a test that
// tweaks and re-applies a listing does, leaves the session's own scenarios
// alone.
func TestScenariosReturnsACopy(t *testing.T) {
	m, err := NewManager(ManagerConfig{})
	require.NoError(t, err)
	defer m.Close()
	s, err := m.Create()
	require.NoError(t, err)
	s.Chat("greeting").When(scenario.All(scenario.UserRegex("^hi"))).Responds("hello")
	got := s.Scenarios()
	got[0].Scenario.Match.All[0].UserRegex = "changed"
	got[0].Scenario.Replies[0].Text = "changed"
	again := s.Scenarios()[0].Scenario
	require.Equal(t, "^hi", again.Match.All[0].UserRegex)
	require.Equal(t, "hello", again.Replies[0].Text)
}

// sessionsReserved is what the manager's sessions reserve, without the
// default runtime's share of the budget.
func sessionsReserved(m *Manager) int64 {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.reserved - m.def.reservation
}

// The default runtime runs on the startup configuration and takes its
// share of the budget: a startup configuration past the size limit, or
// reserving more than the budget, is refused by NewManager.
func TestNewManagerPricesTheStartupConfiguration(t *testing.T) {
	big := DefaultConfig()
	big.Scenarios = []scenario.Scenario{{Name: "big", Replies: []scenario.Reply{scenario.Text(strings.Repeat("x", 4096))}}}
	_, err := NewManager(ManagerConfig{Startup: big, Bounds: Bounds{MaxSessions: 1, MaxReservedBytes: 1 << 30, MaxConfigBytes: 2048}})
	require.ErrorIs(t, err, ErrConfigTooLarge)
	assert.Contains(t, err.Error(), "startup configuration")
	_, err = NewManager(ManagerConfig{Bounds: Bounds{MaxSessions: 1, MaxReservedBytes: 1 << 20, MaxConfigBytes: 1 << 20}})
	require.ErrorIs(t, err, ErrCapacityExceeded)
	assert.Contains(t, err.Error(), "startup configuration")

	m, err := NewManager(ManagerConfig{})
	require.NoError(t, err)
	defer m.Close()
	startup := m.Startup()
	assert.Equal(t, startup.Reservation(), m.Reserved(), "the default runtime's share, before any session")
}
