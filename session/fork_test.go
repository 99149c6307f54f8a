package session

import (
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// priced returns what session s's entry prices and what its configuration,
// scenarios as the runtime holds them, measures.
func priced(t *testing.T, m *Manager, s *Session) (size, reservation, wantSize, wantReservation int64) {
	t.Helper()
	m.mu.RLock()
	defer m.mu.RUnlock()
	e, ok := m.sessions[s.id]
	require.True(t, ok)
	cfg := e.cfg
	cfg.Scenarios = s.rt.Settings().Scenarios
	return e.size, e.reservation, cfg.Size(), cfg.Reservation()
}

func requirePricedExactly(t *testing.T, m *Manager, s *Session) {
	t.Helper()
	size, res, wantSize, wantRes := priced(t, m, s)
	require.Equal(t, wantSize, size, "size")
	require.Equal(t, wantRes, res, "reservation")
}

// Clear prices the configuration again, and what is scripted after it is
// priced step by step as before: both agree with the configuration's own
// measure.
func TestClearKeepsThePricingExact(t *testing.T) {
	m, err := NewManager(ManagerConfig{})
	require.NoError(t, err)
	defer m.Close()
	s, err := m.Create()
	require.NoError(t, err)
	s.Chat("a").When(scenario.UserContains("x")).Responds("one").Then("two").PerConversation()
	s.Chat("b").Responds("three").Repeat()
	requirePricedExactly(t, m, s)
	s.Chat("a").Clear()
	requirePricedExactly(t, m, s)
	s.Chat("a").Responds("again").Then("and again")
	s.Chat("b").Clear().Responds("four")
	requirePricedExactly(t, m, s)
	require.Equal(t, s.Reservation(), sessionsReserved(m))
}

func TestForkIsPricedAsItsParent(t *testing.T) {
	m, err := NewManager(ManagerConfig{})
	require.NoError(t, err)
	defer m.Close()
	parent, err := m.Create(WithIDSeed(5))
	require.NoError(t, err)
	parent.Chat("a").Responds("one").Then("two")
	fork, err := parent.Fork()
	require.NoError(t, err)
	requirePricedExactly(t, m, fork)
	require.Equal(t, parent.Reservation(), fork.Reservation())
	require.Equal(t, 2*parent.Reservation(), sessionsReserved(m))
	fork.Close()
	require.Equal(t, parent.Reservation(), sessionsReserved(m))
}

// Forks made while their parent is deleted either succeed, and are whole
// sessions, or fail with ErrNotFound; the budget adds up either way.
func TestForkRacesWithDelete(t *testing.T) {
	m, err := NewManager(ManagerConfig{Bounds: Bounds{MaxSessions: 1000}})
	require.NoError(t, err)
	defer m.Close()
	for range 20 {
		parent, err := m.Create()
		require.NoError(t, err)
		parent.Chat("a").Responds("one")
		var wg sync.WaitGroup
		var mu sync.Mutex
		var forks []*Session
		for range 4 {
			wg.Go(func() {
				f, err := parent.Fork()
				if err != nil {
					if !errors.Is(err, ErrNotFound) {
						t.Errorf("Fork: %v, want nil or ErrNotFound", err)
					}
					return
				}
				mu.Lock()
				forks = append(forks, f)
				mu.Unlock()
			})
		}
		wg.Go(parent.Close)
		wg.Wait()
		var want int64
		for _, f := range forks {
			require.Equal(t, 1, f.Pending())
			want += f.Reservation()
		}
		require.Equal(t, want, sessionsReserved(m))
		require.Equal(t, len(forks), m.Len())
		for _, f := range forks {
			f.Close()
		}
	}
	_, err = (&Session{m: m, id: "sess_gone"}).Fork()
	require.ErrorIs(t, err, ErrNotFound)
	m.Close()
	_, err = (&Session{m: m, id: "sess_gone"}).Fork()
	require.ErrorIs(t, err, ErrClosed)
}

// A parent configured between the fork's read of its configuration and
// the copy of its runtime is copied again: the fork's configuration is
// always the one its runtime runs. (Not parallel: it sets beforeForkCopy.)
func TestForkCopiesAgainWhenTheParentChangesMeanwhile(t *testing.T) {
	m, err := NewManager(ManagerConfig{})
	require.NoError(t, err)
	defer m.Close()
	parent, err := m.Create(RequireAPIKey("before"))
	require.NoError(t, err)
	copies := 0
	beforeForkCopy = func() {
		copies++
		if copies == 1 {
			require.NoError(t, parent.Configure(RequireAPIKey("after")))
		}
	}
	defer func() { beforeForkCopy = func() {} }()
	fork, err := parent.Fork()
	require.NoError(t, err)
	defer fork.Close()
	assert.Equal(t, 2, copies, "the copy made across the change is made again")
	cfg, err := fork.Config()
	require.NoError(t, err)
	assert.Equal(t, "after", cfg.APIKey)
	assert.Equal(t, "after", fork.rt.Settings().APIKey)
	requirePricedExactly(t, m, fork)
}
