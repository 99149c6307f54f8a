package anthropicsdk_test

import (
	"context"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FailsAfter may name one of Anthropic's error types as its code: the
// stream's error event has that type and no error_code, and a request that
// does not stream gets the type's status.
func TestFailsAfterNamesAnAnthropicType(t *testing.T) {
	for _, tt := range []struct {
		typ    string
		status int
	}{{"overloaded_error", 529}, {"rate_limit_error", 429}, {"api_error", 500}} {
		t.Run(tt.typ, func(t *testing.T) {
			forEachSend(t, func(t *testing.T, sess *session.Session, call func(context.Context) (string, error), stream bool) {
				sess.Chat("Hi").Reply(scenario.Text("partial answer here").FailsAfter(4, tt.typ, "Trouble mid-answer."))
				_, err := call(t.Context())
				apiErr := apiError(t, err)
				assert.Equal(t, tt.typ, string(apiErr.Type()))
				assert.Equal(t, "Trouble mid-answer.", apiErr.Message)
				assert.Empty(t, string(apiErr.ErrorCode()), "no error_code: %s", apiErr.RawJSON())
				assert.False(t, strings.Contains(apiErr.RawJSON(), `"details"`), apiErr.RawJSON())
				if stream {
					assert.Equal(t, 200, apiErr.StatusCode)
				} else {
					assert.Equal(t, tt.status, apiErr.StatusCode)
				}
			})
		})
	}
}

// A scripted 429 is Anthropic's bare rate_limit_error, without OpenAI's
// rate_limit_exceeded code; a code the test scripts itself stays.
func TestRateLimitedInAnthropicWords(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("Hi").Reply(scenario.RateLimited(), scenario.Fail(429, "my_code", "slow down"))
	client := clientFor(sess, "k", 0)
	_, err := client.Messages.New(t.Context(), userTurn("Hi"))
	apiErr := apiError(t, err)
	require.Equal(t, 429, apiErr.StatusCode)
	assert.Equal(t, "rate_limit_error", string(apiErr.Type()))
	assert.False(t, strings.Contains(apiErr.RawJSON(), `"details"`), apiErr.RawJSON())

	_, err = client.Messages.New(t.Context(), userTurn("Hi"))
	apiErr = apiError(t, err)
	assert.Equal(t, "my_code", string(apiErr.ErrorCode()))
	assert.Equal(t, "slow down", apiErr.Message)
}
