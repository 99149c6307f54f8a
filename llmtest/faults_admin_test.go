package llmtest_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// faultScript scripts every fault in the admin API's JSON.
const faultScript = `{"scenarios":[{"name":"faults","match":{},"replies":[
 {"fault":{"kind":"drop"}},
 {"text":"one two three four five","fault":{"kind":"cut","after_events":2}},
 {"text":"one two three four five","fault":{"kind":"malformed","after_events":2}},
 {"text":"one two three four five six seven eight","error":{"status":500,"code":"server_error","message":"mid-way","in_stream":true,"after_events":4}},
 {"text":"slow but whole","stream":{"ttft_ms":1,"tokens_per_second":10000,"tokens_per_chunk":2}},
 {"fault":{"kind":"hang"}}
]}]}`

// waitLong bounds how long a test waits for the server to journal a
// request whose client left, and pollEvery how often it looks. Neither is
// a timed assertion: only a hung server reaches waitLong.
const (
	waitLong  = 10 * time.Second
	pollEvery = time.Millisecond
)

// runFaultScript sends faultScript's requests through client, all
// streamed, and checks each fails as scripted.
func runFaultScript(t *testing.T, client openai.Client) {
	t.Helper()
	stream := func(ctx context.Context) (string, error) { return e2e.OpenAIAPIs()[0].Call(ctx, client, true) }
	_, err := stream(context.Background())
	assert.ErrorIs(t, err, io.EOF, "drop")
	_, err = stream(context.Background())
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF, "cut")
	_, err = stream(context.Background())
	var syntax *json.SyntaxError
	assert.ErrorAs(t, err, &syntax, "malformed")
	_, err = stream(context.Background())
	assert.ErrorContains(t, err, "mid-way", "error event")
	text, err := stream(context.Background())
	require.NoError(t, err, "paced")
	assert.Equal(t, "slow but whole", text)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = stream(ctx)
	assert.ErrorIs(t, err, context.DeadlineExceeded, "hang")
}

// assertionsOverHTTP reads GET /admin-api/assertions of a session.
func assertionsOverHTTP(t *testing.T, client *http.Client, endpoint string, selector []string) map[string]int {
	t.Helper()
	r := e2e.Call(t, client, http.MethodGet, endpoint+"/admin-api/assertions", "", selector...)
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var body struct {
		Faults map[string]int `json:"faults"`
	}
	require.NoError(t, json.Unmarshal(r.Body, &body))
	return body.Faults
}

// Faults travel as JSON: in the scenarios a session is created with, and
// in those posted to it; they fire as scripted and are counted in GET
// /admin-api/assertions.
func TestFaultsTravelThroughTheAdminAPI(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	want := map[string]int{"drop": 1, "cut": 1, "malformed": 1, "error_event": 1}

	t.Run("session creation", func(t *testing.T) {
		t.Parallel()
		c := e2e.CreateOverHTTP(t, srv, faultScript)
		client := openai.NewClient(option.WithBaseURL(srv.URL()+"/v1"), option.WithAPIKey("k"), option.WithMaxRetries(0),
			option.WithHTTPClient(srv.Client()),
			option.WithHeader(session.HeaderSession, c.ID), option.WithHeader(session.HeaderSessionKey, c.Key))
		runFaultScript(t, client)
		selector := []string{session.HeaderSession, c.ID, session.HeaderSessionKey, c.Key}
		// The hang is journaled once its handler sees the client gone.
		require.Eventually(t, func() bool { return assertionsOverHTTP(t, srv.Client(), srv.URL(), selector)["hang"] == 1 }, waitLong, pollEvery)
		got := assertionsOverHTTP(t, srv.Client(), srv.URL(), selector)
		assert.Equal(t, 1, got["drop"])
		assert.Equal(t, 1, got["cut"])
		assert.Equal(t, 1, got["malformed"])
		assert.Equal(t, 1, got["error_event"])
		assert.Len(t, got, 5)
		r := e2e.Call(t, srv.Client(), http.MethodGet, srv.URL()+"/admin-api/journal", "", selector...)
		assert.Contains(t, string(r.Body), `"fault":"drop"`)
		assert.Contains(t, string(r.Body), `"fault":"cut"`)
	})

	t.Run("posted scenarios", func(t *testing.T) {
		t.Parallel()
		sess := srv.NewSession(t)
		r := postScenarios(t, sess, faultScript)
		require.Equal(t, http.StatusNoContent, r.Status, "%s", r.Body)
		listed, _ := listScenarios(t, sess)
		for _, field := range []string{`"fault":{"kind":"drop"}`, `"fault":{"kind":"cut","after_events":2}`, `"after_events":4`,
			`"stream":{"ttft_ms":1,"tokens_per_second":10000,"tokens_per_chunk":2}`, `"fault":{"kind":"hang"}`} {
			assert.Contains(t, string(listed), field)
		}
		runFaultScript(t, e2e.ClientFor(sess, "k"))
		require.Eventually(t, func() bool { return sess.Assertions().Faults["hang"] == 1 }, waitLong, pollEvery)
		got := assertionsOverHTTP(t, srv.Client(), sess.Endpoint(), e2e.SelectorOf(sess))
		for k, v := range want {
			assert.Equal(t, v, got[k], k)
		}
		assert.Zero(t, sess.Pending())
	})
}

// A fault the server cannot run is refused where it is posted, naming its
// field, and nothing of the document is added.
func TestAdminRefusesInvalidFaults(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	for name, tc := range map[string]struct{ reply, field string }{
		"kind":         {`{"fault":{"kind":"explode"}}`, "fault.kind"},
		"after_events": {`{"text":"x","fault":{"kind":"cut","after_events":-1}}`, "fault.after_events"},
		"drop content": {`{"text":"x","fault":{"kind":"drop"}}`, "fault"},
		"error after":  {`{"error":{"status":500,"after_events":3}}`, "error.after_events"},
		"pacing":       {`{"text":"x","stream":{"tokens_per_second":-1}}`, "stream.tokens_per_second"},
		"misspelt":     {`{"text":"x","fault":{"kind":"cut","events":1}}`, "events"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sess := srv.NewSession(t)
			r := postScenarios(t, sess, `{"scenarios":[{"name":"f","match":{},"replies":[`+tc.reply+`]}]}`)
			_, _, _, msg := r.APIError(t)
			assert.Equal(t, http.StatusBadRequest, r.Status)
			assert.True(t, strings.Contains(msg, tc.field), "message %q names %s", msg, tc.field)
			_, list := listScenarios(t, sess)
			assert.Empty(t, list)
		})
	}
}
