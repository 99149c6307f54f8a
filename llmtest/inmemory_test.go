package llmtest_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// A caller's client without a transport of its own, wrapped by the session,
// goes over the server's base transport, so it reaches the server in
// either mode.
func TestWrapClientWithoutTransportReachesTheServer(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("greeting").Responds("wrapped")
	c := sess.WrapClient(&http.Client{Timeout: time.Minute})
	r := e2e.Call(t, c, http.MethodPost, sess.BaseURL()+"/chat/completions", e2e.ChatBody("gpt-4.1-mini", "Hi"))
	assert.Equal(t, http.StatusOK, r.Status, "body %s", r.Body)
	assert.Contains(t, string(r.Body), "wrapped")
}

// In memory the server has the fixed URL and no socket; its clients still
// reach it.
func TestInMemoryServer(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.WithInMemory())
	assert.Equal(t, llmtest.InMemory, srv.TransportMode())
	assert.Equal(t, llmtest.InMemoryURL, srv.URL())
	sess := srv.NewSession(t)
	assert.Equal(t, llmtest.InMemoryURL+"/v1", sess.BaseURL())
	sess.Chat("greeting").Responds("in memory")
	client := e2e.ClientFor(sess, "k")
	resp, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4.1-mini", "Hi"))
	require.NoError(t, err)
	assert.Equal(t, "in memory", resp.Choices[0].Message.Content)
}

func TestTransportOptions(t *testing.T) {
	_, err := llmtest.New(llmtest.WithInMemory(), llmtest.WithTransport(llmtest.Loopback))
	assert.ErrorContains(t, err, "WithTransport given twice")
	_, err = llmtest.New(llmtest.WithTransport(llmtest.TransportMode(7)))
	assert.ErrorContains(t, err, "unknown mode")

	t.Setenv(llmtest.EnvTransport, "socket")
	_, err = llmtest.New()
	assert.ErrorContains(t, err, `LLMTEST_TRANSPORT="socket"`)

	t.Setenv(llmtest.EnvTransport, "memory")
	srv := llmtest.NewServer(t)
	assert.Equal(t, llmtest.InMemory, srv.TransportMode(), "the environment sets the default")
	srv = llmtest.NewServer(t, llmtest.WithTransport(llmtest.Loopback))
	assert.Equal(t, llmtest.Loopback, srv.TransportMode(), "an option wins over the environment")

	t.Setenv(llmtest.EnvTransport, "loopback")
	assert.Equal(t, llmtest.Loopback, llmtest.NewServer(t).TransportMode())
}

// Close ends an in-memory request still in flight, and returns promptly.
func TestInMemoryCloseEndsStuckRequests(t *testing.T) {
	t.Parallel()
	srv, err := llmtest.New(llmtest.WithInMemory())
	require.NoError(t, err)
	sess, err := srv.OpenSession()
	require.NoError(t, err)
	started := make(chan struct{})
	sess.Chat("slow").Reply(scenario.Respond(func(*scenario.Request) scenario.Reply {
		close(started)
		return scenario.Reply{Text: "never", Delay: time.Hour}
	}))
	client := e2e.ClientFor(sess, "k")
	done := make(chan error, 1)
	go func() {
		_, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4.1-mini", "Hi"))
		done <- err
	}()
	<-started
	closeWithin(t, srv)
	assert.Error(t, <-done, "the request ended with the server")
}
