package anthropic_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// threadBody is a request for claude-sonnet-5-5 with one user message and
// the given thread field (and extra top-level members).
func threadBody(thread, say, extra string) string {
	return fmt.Sprintf(`{"model":"claude-sonnet-5-5","max_tokens":64,%s"thread":%s,"messages":[{"role":"user","content":%q}]}`, extra, thread, say)
}

func continueFrom(id string) string {
	return fmt.Sprintf(`{"type":"continue","previous_message_id":%q}`, id)
}

// threadError is what an error body says of a thread refusal.
type threadError struct {
	Error struct {
		Type    string `json:"type"`
		Message string `json:"message"`
		Details struct {
			ErrorCode   string   `json:"error_code"`
			Unsupported []string `json:"unsupported"`
		} `json:"details"`
	} `json:"error"`
}

// TestThreadRefusals sends raw thread requests: each refusal has its
// status, type and details.error_code (those the SDK's ErrorCodeThread*
// name), leaves the scripted replies alone, and holds no claim on the
// thread, which a valid continue then proves.
func TestThreadRefusals(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("threaded").Reply(scenario.Text("one"), scenario.Text("two"))
	headers := append(e2e.AnthropicSelectorOf(sess), "anthropic-beta", "message-threads-2026-08-12")
	post := func(body string, h ...string) e2e.Reply {
		return e2e.Call(t, srv.Client(), "POST", sess.AnthropicBaseURL()+"/v1/messages", body, append(append([]string{}, headers...), h...)...)
	}
	created := post(threadBody(`{"type":"create"}`, "a", `"system":"S",`))
	require.Equal(t, http.StatusOK, created.Status, "%s", created.Body)
	var first struct {
		ID string `json:"id"`
	}
	require.NoError(t, json.Unmarshal(created.Body, &first))

	cases := []struct {
		name, body, code, errType string
		status                    int
		unsupported               []string
	}{
		{"unknown thread", threadBody(continueFrom("msg_011Cnothing"), "b", ""), "thread_not_found", "not_found_error", 404, nil},
		{"another model", `{"model":"claude-haiku-4-5","max_tokens":64,"thread":` + continueFrom(first.ID) + `,"messages":[{"role":"user","content":"b"}]}`,
			"thread_fingerprint_mismatch", "invalid_request_error", 400, nil},
		{"another system", threadBody(continueFrom(first.ID), "b", `"system":"T",`), "thread_fingerprint_mismatch", "invalid_request_error", 400, nil},
		{"context management", threadBody(`{"type":"create"}`, "b", `"context_management":{"edits":[]},`),
			"thread_unsupported_request", "invalid_request_error", 400, []string{"context_management"}},
		// Refused after the thread resolved: the claim must not stay.
		// Refused by the model's rules, once the thread was claimed.
		{"over the model's max_tokens", `{"model":"claude-sonnet-5-5","max_tokens":100000000,"thread":` + continueFrom(first.ID) + `,"messages":[{"role":"user","content":"b"}]}`,
			"", "invalid_request_error", 400, nil},
		{"bad content", `{"model":"claude-sonnet-5-5","max_tokens":64,"thread":` + continueFrom(first.ID) + `,"messages":[{"role":"user","content":" "}]}`,
			"", "invalid_request_error", 400, nil},
	}
	for _, c := range cases {
		r := post(c.body)
		require.Equal(t, c.status, r.Status, "%s: %s", c.name, r.Body)
		var e threadError
		require.NoError(t, json.Unmarshal(r.Body, &e), c.name)
		assert.Equal(t, c.errType, e.Error.Type, c.name)
		assert.Equal(t, c.code, e.Error.Details.ErrorCode, c.name)
		assert.Equal(t, c.unsupported, e.Error.Details.Unsupported, c.name)
		assert.NotEmpty(t, e.Error.Message, c.name)
	}
	assert.Equal(t, 1, sess.Pending(), "a refused request takes no reply")

	// The same system as the thread's may go with a continue.
	second := post(threadBody(continueFrom(first.ID), "b", `"system":"S",`))
	require.Equal(t, http.StatusOK, second.Status, "%s", second.Body)
	again := post(threadBody(continueFrom(first.ID), "c", ""))
	require.Equal(t, http.StatusBadRequest, again.Status)
	var e threadError
	require.NoError(t, json.Unmarshal(again.Body, &e))
	assert.Equal(t, "thread_already_continued", e.Error.Details.ErrorCode)

	last, ok := sess.Journal().Last()
	require.True(t, ok)
	assert.Equal(t, "thread_already_continued", last.ErrorCode)
}

// TestThreadFieldShape refuses a thread field the API's union refuses, and
// one sent without a beta.
func TestThreadFieldShape(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	beta := []string{"anthropic-beta", "message-threads-2026-08-12"}
	cases := []struct {
		name, body, message string
		headers             []string
	}{
		{"no beta", threadBody(`{"type":"create"}`, "a", ""), "thread: Extra inputs are not permitted", nil},
		{"unknown type", threadBody(`{"type":"fork"}`, "a", ""),
			"thread: Input tag 'fork' found using 'type' does not match any of the expected tags: 'create', 'continue'", beta},
		{"no previous id", threadBody(`{"type":"continue"}`, "a", ""), "thread.continue.previous_message_id: Field required", beta},
		{"extra field", threadBody(`{"type":"create","name":"x"}`, "a", ""), "thread.create.name: Extra inputs are not permitted", beta},
	}
	for _, c := range cases {
		h := append(append([]string{}, e2e.AnthropicSelectorOf(sess)...), c.headers...)
		r := e2e.Call(t, srv.Client(), "POST", sess.AnthropicBaseURL()+"/v1/messages", c.body, h...)
		require.Equal(t, http.StatusBadRequest, r.Status, "%s: %s", c.name, r.Body)
		var e threadError
		require.NoError(t, json.Unmarshal(r.Body, &e), c.name)
		assert.Equal(t, c.message, e.Error.Message, c.name)
	}
}
