package session_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// sessionState is what requests can change in a session, as its handle
// reads it.
type sessionState struct {
	Pending   int
	Remaining []string
	Journal   int
}

func stateOf(s *session.Session) sessionState {
	st := sessionState{Pending: s.Pending(), Journal: s.Journal().Len()}
	for _, sc := range s.Scenarios() {
		st.Remaining = append(st.Remaining, fmt.Sprint(sc.Scenario.Name, sc.Remaining, sc.RemainingByConversation))
	}
	return st
}

// Requests that race with Delete change nothing once Delete has returned
// (100 rounds here; TestRetiredRuntimeNeverChanges in internal/runtime
// hammers every mutator of the runtime for 200):
// with 8 clients sending chat requests in-process while the session is
// deleted, its queues and journal read right after Delete stay as they are.
func TestDeleteFreezesTheSessionUnderLoad(t *testing.T) {
	const rounds, clients = 100, 8
	m, err := session.NewManager(session.ManagerConfig{})
	require.NoError(t, err)
	defer m.Close()
	h := m.Handler()
	replies := make([]scenario.Reply, 64)
	for i := range replies {
		replies[i] = scenario.Text(fmt.Sprint("reply ", i))
	}
	const body = `{"model":"gpt-4.1-mini","messages":[{"role":"user","content":"hi"}]}`
	for round := range rounds {
		s, err := m.Create(
			session.WithScenario(scenario.Scenario{Name: "global", Replies: replies}),
			session.WithScenario(scenario.Scenario{Name: "per-conversation", Replies: replies, PerConversation: true}))
		require.NoError(t, err)
		var started, wg sync.WaitGroup
		started.Add(clients)
		for c := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				started.Done()
				for i := 0; ; i++ {
					req := httptest.NewRequest(http.MethodPost, "/v1/chat/completions", strings.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set(session.HeaderSession, s.ID())
					req.Header.Set(session.HeaderSessionKey, s.Key())
					req.Header.Set(session.HeaderConversation, fmt.Sprint("conv-", c, "-", i%4))
					rec := httptest.NewRecorder()
					serveAbortable(h, rec, req)
					if rec.Code == http.StatusNotFound {
						return // deleted: later requests never reach it
					}
				}
			}()
		}
		started.Wait()
		require.NoError(t, m.Delete(s.ID(), s.Key()))
		want := stateOf(s)
		wg.Wait()
		if got := stateOf(s); !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d: the session changed after Delete returned:\nthen  %+v\nlater %+v", round, want, got)
		}
	}
}

// serveAbortable serves req as net/http's server does: a handler that
// aborts its answer (http.ErrAbortHandler, as an answer the deletion cut
// short does) ends the request, and nothing else.
func serveAbortable(h http.Handler, w http.ResponseWriter, req *http.Request) {
	defer func() {
		if v := recover(); v != nil && v != http.ErrAbortHandler {
			panic(v)
		}
	}()
	h.ServeHTTP(w, req)
}
