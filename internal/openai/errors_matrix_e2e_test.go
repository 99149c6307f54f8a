package openai_test

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/openai/openai-go/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// statusMatrix is every HTTP error status the server is asked to script,
// with the OpenAI type each gets when the script names none.
var statusMatrix = []struct {
	status  int
	code    string
	openai  string // OpenAI's error type for the status
	headers map[string]string
}{
	{400, "invalid_value", "invalid_request_error", nil},
	{401, "invalid_api_key", "invalid_request_error", nil},
	{403, "unsupported_country_region_territory", "invalid_request_error", nil},
	{404, "model_not_found", "invalid_request_error", nil},
	{409, "conflict", "invalid_request_error", nil},
	{422, "unprocessable_entity", "invalid_request_error", nil},
	{429, "rate_limit_exceeded", "requests", map[string]string{"Retry-After": "20", "retry-after-ms": "20000"}},
	{500, "server_error", "server_error", nil},
	{502, "bad_gateway", "server_error", nil},
	{503, "overloaded", "server_error", nil},
	{504, "timeout", "server_error", nil},
	{529, "overloaded", "server_error", nil},
}

// Every scripted status reaches openai-go as an *openai.Error with the
// status, type, code, message and headers of the script, on both APIs,
// streamed and not; the journal counts each as an http_error.
func TestOpenAIErrorStatusMatrix(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	for _, tc := range statusMatrix {
		t.Run(strconv.Itoa(tc.status), func(t *testing.T) {
			t.Parallel()
			sess := srv.NewSession(t)
			reply := scenario.Reply{Error: &scenario.Error{Status: tc.status, Code: tc.code, Message: "scripted " + tc.code, Headers: tc.headers}}
			sess.Chat("fail").Reply(reply).Times(4)
			client := e2e.ClientFor(sess, "k")
			for _, api := range e2e.OpenAIAPIs() {
				for _, stream := range []bool{false, true} {
					_, err := api.Call(context.Background(), client, stream)
					var apiErr *openai.Error
					require.True(t, errors.As(err, &apiErr), "%s stream %t: %v (%T)", api.Name, stream, err, err)
					assert.Equal(t, tc.status, apiErr.StatusCode)
					assert.Equal(t, tc.openai, apiErr.Type)
					assert.Equal(t, tc.code, apiErr.Code)
					assert.Equal(t, "scripted "+tc.code, apiErr.Message)
					for k, v := range tc.headers {
						assert.Equal(t, v, apiErr.Response.Header.Get(k), k)
					}
				}
			}
			assert.Equal(t, map[string]int{"http_error": 4}, sess.Assertions().Faults)
		})
	}
	// A kind without a status takes OpenAI's status for it: overloaded
	// is 503 here (Anthropic's is 529).
	sess := srv.NewSession(t)
	sess.Chat("kind").Reply(scenario.Reply{Error: &scenario.Error{Kind: scenario.ErrorOverloaded}})
	client := e2e.ClientFor(sess, "k")
	_, err := client.Chat.Completions.New(context.Background(), e2e.UserTurn("gpt-4o-mini", "Hi"))
	var apiErr *openai.Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusServiceUnavailable, apiErr.StatusCode)
	assert.Equal(t, "server_error", apiErr.Type)
}
