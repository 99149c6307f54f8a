package anthropic_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

// batchLine is one request of a raw batch body.
func batchLine(customID, params string) string {
	return fmt.Sprintf(`{"custom_id":%q,"params":%s}`, customID, params)
}

// batchParams is the params of a one-message request saying text.
func batchParams(text string) string {
	return fmt.Sprintf(`{"model":"claude-sonnet-5-5","max_tokens":64,"messages":[{"role":"user","content":%q}]}`, text)
}

// batchBody is a batch of lines.
func batchBody(lines ...string) string { return `{"requests":[` + strings.Join(lines, ",") + `]}` }

// postBatch sends body to POST /v1/messages/batches of sess.
func postBatch(t *testing.T, srv *llmtest.Server, sess *session.Session, body string, headers ...string) e2e.Reply {
	t.Helper()
	return e2e.Call(t, srv.Client(), "POST", sess.AnthropicBaseURL()+"/v1/messages/batches", body,
		append(e2e.AnthropicSelectorOf(sess), headers...)...)
}

// A batch the API refuses as a whole, at its creation: its shape and its
// custom_ids, in the envelope of an invalid_request_error with the
// pydantic path, taking no reply and sending no request.
func TestBatchRefusedAtCreation(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("any").Responds("never").Repeat()
	good := batchParams("hi")
	cases := []struct{ name, body, message string }{
		{"not JSON", `{"requests":[`, "The request body is not valid JSON"},
		{"not an object", `[]`, "Input should be a valid dictionary or object to extract fields from"},
		{"no requests", `{}`, "requests: Field required"},
		{"requests not a list", `{"requests":{}}`, "requests: Input should be a valid list"},
		{"empty requests", `{"requests":[]}`, "requests: List should have at least 1 item after validation, not 0"},
		{"unknown top-level field", `{"requests":[` + batchLine("a", good) + `],"metadata":{}}`, "metadata: Extra inputs are not permitted"},
		{"unknown request field", `{"requests":[{"custom_id":"a","params":` + good + `,"method":"POST"}]}`, "requests.0.method: Extra inputs are not permitted"},
		{"no custom_id", `{"requests":[{"params":` + good + `}]}`, "requests.0.custom_id: Field required"},
		{"custom_id not a string", `{"requests":[{"custom_id":7,"params":` + good + `}]}`, "requests.0.custom_id: Input should be a valid string"},
		{"empty custom_id", batchBody(batchLine("", good)), "requests.0.custom_id: String should have at least 1 character"},
		{"custom_id too long", batchBody(batchLine(strings.Repeat("a", 65), good)), "requests.0.custom_id: String should have at most 64 characters"},
		{"custom_id with a slash", batchBody(batchLine("a", good), batchLine("doi/10.1", good)),
			"requests.1.custom_id: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'"},
		{"duplicate custom_id", batchBody(batchLine("a", good), batchLine("b", good), batchLine("a", good)),
			`requests.2.custom_id: Duplicate custom_id "a"`},
		{"no params", `{"requests":[{"custom_id":"a"}]}`, "requests.0.params: Field required"},
		{"params not an object", batchBody(batchLine("a", `"hi"`)), "requests.0.params: Input should be a valid dictionary"},
	}
	for _, c := range cases {
		r := postBatch(t, srv, sess, c.body)
		require.Equal(t, http.StatusBadRequest, r.Status, "%s: %s", c.name, r.Body)
		_, typ, _, message := r.APIError(t)
		assert.Equal(t, "invalid_request_error", typ, c.name)
		assert.Contains(t, message, c.message, c.name)
	}
	assert.Equal(t, 1, sess.Pending(), "no reply taken")
	for _, e := range sess.Journal().Entries() {
		assert.Equal(t, "/v1/messages/batches", e.Path, "no line sent")
	}
	// The session's opt-out of unknown parameters serves the unknown
	// fields of the batch too.
	relaxed := srv.NewSession(t, session.AllowUnknownParameters())
	relaxed.Chat("any").Responds("ok").Repeat()
	r := postBatch(t, srv, relaxed, `{"requests":[`+batchLine("a", good)+`],"metadata":{}}`)
	assert.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
}

// rawBatch is what the tests read of a MessageBatch.
type rawBatch struct {
	ID               string         `json:"id"`
	Type             string         `json:"type"`
	ProcessingStatus string         `json:"processing_status"`
	RequestCounts    map[string]int `json:"request_counts"`
	ResultsURL       *string        `json:"results_url"`
	EndedAt          *string        `json:"ended_at"`
	ArchivedAt       *string        `json:"archived_at"`
}

// Params the Messages API refuses, and a streamed request, are errored
// results, not a refused batch ("validation errors are returned when
// processing of the entire batch has ended"); each request sent is
// journaled as a POST /v1/messages of its own, with the batch's ID and its
// custom_id; the results are JSONL with the API's Content-Type, last
// request first.
func TestBatchLinesAnsweredAsIfSentAlone(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))
	srv := llmtest.NewServer(t, llmtest.WithClock(clk))
	sess := srv.NewSession(t)
	sess.Chat("hello").Responds("hello back").Repeat()
	r := postBatch(t, srv, sess, batchBody(
		batchLine("ok", batchParams("hi")),
		batchLine("bad-params", `{"model":"claude-sonnet-5-5","messages":[{"role":"user","content":"hi"}]}`),
		batchLine("streamed", `{"model":"claude-sonnet-5-5","max_tokens":64,"stream":true,"messages":[{"role":"user","content":"hi"}]}`),
	))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var b rawBatch
	require.NoError(t, json.Unmarshal(r.Body, &b))
	assert.Regexp(t, `^msgbatch_01[1-9A-HJ-NP-Za-km-z]{22}$`, b.ID)
	assert.Equal(t, "message_batch", b.Type)
	assert.Equal(t, "in_progress", b.ProcessingStatus)
	assert.Equal(t, map[string]int{"processing": 3, "succeeded": 0, "errored": 0, "canceled": 0, "expired": 0}, b.RequestCounts)
	assert.Nil(t, b.ResultsURL)
	assert.Contains(t, string(r.Body), `"archived_at":null`)
	assert.Contains(t, string(r.Body), `"created_at":"2026-12-01T09:00:00.000000Z","expires_at":"2026-12-02T09:00:00.000000Z"`)

	entries := sess.Journal().Entries()
	require.Len(t, entries, 3, "two lines sent, then the batch")
	for i, want := range []struct {
		customID string
		status   int
	}{{"ok", 200}, {"bad-params", 400}} {
		assert.Equal(t, "/v1/messages", entries[i].Path)
		assert.Equal(t, b.ID, entries[i].Job)
		assert.Equal(t, want.customID, entries[i].CustomID)
		assert.Equal(t, want.status, entries[i].Status)
	}
	assert.Equal(t, "/v1/messages/batches", entries[2].Path)
	assert.Equal(t, b.ID, entries[2].Job)
	assert.Equal(t, "in_progress", entries[2].JobState)
	assert.Equal(t, "batches", entries[2].Endpoint)

	url := sess.AnthropicBaseURL() + "/v1/messages/batches/" + b.ID
	early := e2e.Call(t, srv.Client(), "GET", url+"/results", "", e2e.AnthropicSelectorOf(sess)...)
	require.Equal(t, http.StatusBadRequest, early.Status, "%s", early.Body)

	clk.Advance(5 * time.Second)
	got := e2e.Call(t, srv.Client(), "GET", url, "", e2e.AnthropicSelectorOf(sess)...)
	require.NoError(t, json.Unmarshal(got.Body, &b))
	assert.Equal(t, "ended", b.ProcessingStatus)
	assert.Equal(t, map[string]int{"processing": 0, "succeeded": 1, "errored": 2, "canceled": 0, "expired": 0}, b.RequestCounts)
	require.NotNil(t, b.ResultsURL)
	assert.Equal(t, url+"/results", *b.ResultsURL)

	res := e2e.Call(t, srv.Client(), "GET", *b.ResultsURL, "", e2e.AnthropicSelectorOf(sess)...)
	require.Equal(t, http.StatusOK, res.Status, "%s", res.Body)
	assert.Equal(t, "application/x-jsonl", res.Header.Get("Content-Type"))
	assert.Equal(t, "attachment; filename*=utf-8''"+b.ID+"_results.jsonl", res.Header.Get("Content-Disposition"))
	var lines []map[string]json.RawMessage
	sc := bufio.NewScanner(bytes.NewReader(res.Body))
	for sc.Scan() {
		var l map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(sc.Bytes(), &l), "line %s", sc.Bytes())
		lines = append(lines, l)
	}
	require.Len(t, lines, 3)
	assert.JSONEq(t, `"streamed"`, string(lines[0]["custom_id"]), "last request first")
	assert.Contains(t, string(lines[0]["result"]), `"type":"errored","error":{"type":"error","error":{"type":"invalid_request_error","message":"stream: `)
	assert.JSONEq(t, `"bad-params"`, string(lines[1]["custom_id"]))
	assert.Contains(t, string(lines[1]["result"]), `"max_tokens: Field required"`)
	assert.JSONEq(t, `"ok"`, string(lines[2]["custom_id"]))
	assert.Contains(t, string(lines[2]["result"]), `{"type":"succeeded","message":{"`)
	assert.Contains(t, string(lines[2]["result"]), `"text":"hello back"`)
	last := sess.Journal().Entries()
	assert.Equal(t, "ended", last[len(last)-1].JobState, "the results fetch is journaled with the batch's state")
}

// Unknown batches, and other sessions', are 404 in Anthropic's envelope;
// a wrong method is 405; paths past a batch's are unknown routes.
func TestBatchRoutesRefuseWhatTheyDoNotServe(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess, other := srv.NewSession(t), srv.NewSession(t)
	sess.Chat("any").Responds("ok").Repeat()
	r := postBatch(t, srv, sess, batchBody(batchLine("a", batchParams("hi"))))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var b rawBatch
	require.NoError(t, json.Unmarshal(r.Body, &b))
	base := other.AnthropicBaseURL() + "/v1/messages/batches/"
	for _, c := range []struct{ method, path string }{
		{"GET", b.ID}, {"DELETE", b.ID}, {"POST", b.ID + "/cancel"}, {"GET", b.ID + "/results"}, {"GET", "msgbatch_01nope"},
	} {
		got := e2e.Call(t, srv.Client(), c.method, base+c.path, "", e2e.AnthropicSelectorOf(other)...)
		assert.Equal(t, http.StatusNotFound, got.Status, "%s %s: %s", c.method, c.path, got.Body)
		_, typ, _, _ := got.APIError(t)
		assert.Equal(t, "not_found_error", typ)
	}
	for _, c := range []struct {
		method, path string
		status       int
	}{
		{"PUT", "", http.StatusMethodNotAllowed}, {"POST", "/" + b.ID, http.StatusMethodNotAllowed},
		{"GET", "/" + b.ID + "/cancel", http.StatusMethodNotAllowed}, {"GET", "/" + b.ID + "/results/x", http.StatusNotFound},
		{"GET", "/" + b.ID + "/other", http.StatusNotFound},
	} {
		got := e2e.Call(t, srv.Client(), c.method, sess.AnthropicBaseURL()+"/v1/messages/batches"+c.path, "", e2e.AnthropicSelectorOf(sess)...)
		assert.Equal(t, c.status, got.Status, "%s %s: %s", c.method, c.path, got.Body)
		assert.Contains(t, string(got.Body), `"type":"error"`)
	}
}

// results_url is built from the request that reads the batch: its Host,
// and the scheme a TLS-ending proxy names in X-Forwarded-Proto. A list
// cursor the session does not keep pages nothing.
func TestBatchResultsURLFollowsTheRequest(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC))
	srv := llmtest.NewServer(t, llmtest.WithClock(clk))
	sess := srv.NewSession(t)
	sess.Chat("any").Responds("ok").Repeat()
	r := postBatch(t, srv, sess, batchBody(batchLine("a", batchParams("hi"))))
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var b rawBatch
	require.NoError(t, json.Unmarshal(r.Body, &b))
	clk.Advance(time.Minute)
	url := sess.AnthropicBaseURL() + "/v1/messages/batches/" + b.ID
	got := e2e.Call(t, srv.Client(), "GET", url, "", append(e2e.AnthropicSelectorOf(sess), "X-Forwarded-Proto", "https")...)
	require.NoError(t, json.Unmarshal(got.Body, &b))
	require.NotNil(t, b.ResultsURL)
	assert.Equal(t, "https://"+strings.TrimPrefix(url, "http://")+"/results", *b.ResultsURL)

	list := e2e.Call(t, srv.Client(), "GET", sess.AnthropicBaseURL()+"/v1/messages/batches?after_id=msgbatch_01gone", "", e2e.AnthropicSelectorOf(sess)...)
	require.Equal(t, http.StatusOK, list.Status, "%s", list.Body)
	assert.JSONEq(t, `{"data":[],"has_more":false,"first_id":null,"last_id":null}`, string(list.Body))
}
