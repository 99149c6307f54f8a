package anthropic

import (
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestThreadClaims checks the life of a thread turn's claim: one continue
// at a time (a second meanwhile is thread_continue_in_flight), released
// when the continue is not delivered, and a turn continued once only.
func TestThreadClaims(t *testing.T) {
	rt := runtimeWithTurn(t, "msg_1")

	require.Nil(t, claimThread(rt, "msg_1"))
	err := claimThread(rt, "msg_1")
	require.NotNil(t, err)
	assert.Equal(t, codeThreadContinueInFlight, err.Code)

	releaseThread(rt, "msg_1")
	require.Nil(t, claimThread(rt, "msg_1"), "a released turn may be claimed again")
	markContinued(rt, "msg_1")
	releaseThread(rt, "msg_1") // a delivered continue's Settle: no effect
	err = claimThread(rt, "msg_1")
	require.NotNil(t, err)
	assert.Equal(t, codeThreadAlreadyContinued, err.Code)

	err = claimThread(rt, "msg_gone")
	require.NotNil(t, err)
	assert.Equal(t, codeThreadNotFound, err.Code)
	assert.Equal(t, 404, err.Status)
}

// TestThreadClaimsStayWithTheOriginal forks a runtime while a continue
// holds a turn: the fork, which has no request in flight, may continue
// the turn, and the original still holds it.
func TestThreadClaimsStayWithTheOriginal(t *testing.T) {
	rt := runtimeWithTurn(t, "msg_1")
	require.Nil(t, claimThread(rt, "msg_1"))

	fork, ok := rt.Clone(nil)
	require.True(t, ok)
	defer fork.Retire()
	assert.Nil(t, claimThread(fork, "msg_1"), "the fork holds no claim of the original's request")
	err := claimThread(rt, "msg_1")
	require.NotNil(t, err)
	assert.Equal(t, codeThreadContinueInFlight, err.Code)
}

// runtimeWithTurn is a runtime, retired when t ends, that holds the thread
// turn id.
func runtimeWithTurn(t *testing.T, id string) *runtime.Runtime {
	t.Helper()
	rt := runtime.New(runtime.Settings{HistoryCapacity: 8, HistoryMaxBytes: 1 << 20})
	t.Cleanup(rt.Retire)
	turn := &threadTurn{id: id, model: "m"}
	turn.measure()
	require.True(t, rt.Store(turn))
	return rt
}
