package anthropicsdk_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/stretchr/testify/assert"
)

// Every HTTP error status the server scripts reaches anthropic-sdk-go as
// an *anthropic.Error with the status, Anthropic's type for it, the
// message and the headers, streamed and not.
func TestAnthropicErrorStatusMatrix(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	for _, tc := range []struct {
		status int
		typ    anthropic.ErrorType
	}{
		{400, anthropic.ErrorTypeInvalidRequestError},
		{401, anthropic.ErrorTypeAuthenticationError},
		{403, anthropic.ErrorTypePermissionError},
		{404, anthropic.ErrorTypeNotFoundError},
		{409, "conflict_error"},
		{422, anthropic.ErrorTypeInvalidRequestError},
		{429, anthropic.ErrorTypeRateLimitError},
		{500, anthropic.ErrorTypeAPIError},
		{502, anthropic.ErrorTypeAPIError},
		{503, anthropic.ErrorTypeOverloadedError},
		{504, anthropic.ErrorTypeTimeoutError},
		{529, anthropic.ErrorTypeOverloadedError},
	} {
		t.Run(strconv.Itoa(tc.status), func(t *testing.T) {
			t.Parallel()
			sess := srv.NewSession(t)
			headers := map[string]string(nil)
			if tc.status == 429 {
				headers = map[string]string{"Retry-After": "20", "retry-after-ms": "20000"}
			}
			sess.Chat("fail").Reply(scenario.Reply{Error: &scenario.Error{Status: tc.status, Message: "scripted", Headers: headers}}).Times(2)
			client := clientFor(sess, "k", 0)
			for _, stream := range []bool{false, true} {
				_, err := send(context.Background(), client, stream)
				apiErr := apiError(t, err)
				assert.Equal(t, tc.status, apiErr.StatusCode, "stream %t", stream)
				assert.Equal(t, tc.typ, apiErr.Type(), "stream %t", stream)
				assert.Equal(t, "scripted", apiErr.Message)
				checkRequestID(t, apiErr)
				for k, v := range headers {
					assert.Equal(t, v, apiErr.Response.Header.Get(k), k)
				}
			}
			assert.Equal(t, map[string]int{"http_error": 2}, sess.Assertions().Faults)
		})
	}
	// Overloaded by kind is Anthropic's 529.
	sess := srv.NewSession(t)
	sess.Chat("kind").Reply(scenario.Reply{Error: &scenario.Error{Kind: scenario.ErrorOverloaded}})
	_, err := send(context.Background(), clientFor(sess, "k", 0), false)
	apiErr := apiError(t, err)
	assert.Equal(t, 529, apiErr.StatusCode)
	assert.Equal(t, anthropic.ErrorTypeOverloadedError, apiErr.Type())
}
