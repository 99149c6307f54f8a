package anthropicsdk_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkRequestID requires the error's RequestID to be the response's
// request-id header, in the API's form.
func checkRequestID(t *testing.T, apiErr *anthropic.Error) {
	t.Helper()
	require.NotNil(t, apiErr.Response)
	assert.True(t, strings.HasPrefix(apiErr.RequestID, "req_"), "request ID %q", apiErr.RequestID)
	assert.Equal(t, apiErr.Response.Header.Get("request-id"), apiErr.RequestID)
}

// TestErrorDecoding checks that every error the server renders decodes
// into *anthropic.Error with the status, type, message and request ID the
// real API would give.
func TestErrorDecoding(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		reply       *scenario.Reply
		apiKey      string
		opts        []option.RequestOption
		model       anthropic.Model
		wantStatus  int
		wantType    anthropic.ErrorType
		wantMessage string
		wantCode    string
	}{
		{name: "rate limit", reply: &scenario.Reply{Error: &scenario.Error{Kind: scenario.ErrorRateLimit, Message: "Slow down"}},
			wantStatus: 429, wantType: anthropic.ErrorTypeRateLimitError, wantMessage: "Slow down"},
		{name: "overloaded", reply: &scenario.Reply{Error: &scenario.Error{Kind: scenario.ErrorOverloaded}},
			wantStatus: 529, wantType: anthropic.ErrorTypeOverloadedError, wantMessage: "Overloaded"},
		{name: "server error by kind", reply: &scenario.Reply{Error: &scenario.Error{Kind: scenario.ErrorServer}},
			wantStatus: 500, wantType: anthropic.ErrorTypeAPIError},
		{name: "server error by status", reply: ptr(scenario.Fail(500, "boom", "It broke")),
			wantStatus: 500, wantType: anthropic.ErrorTypeAPIError, wantMessage: "It broke", wantCode: "boom"},
		{name: "status 503 is overloaded", reply: &scenario.Reply{Error: &scenario.Error{Status: 503}},
			wantStatus: 503, wantType: anthropic.ErrorTypeOverloadedError},
		{name: "OpenAI type stays out", reply: &scenario.Reply{Error: &scenario.Error{Status: 429, Type: "tokens"}},
			wantStatus: 429, wantType: anthropic.ErrorTypeRateLimitError},
		{name: "Anthropic type kept", reply: &scenario.Reply{Error: &scenario.Error{Status: 400, Type: "billing_error"}},
			wantStatus: 400, wantType: anthropic.ErrorTypeBillingError},
		{name: "wrong key", apiKey: "wrong",
			wantStatus: 401, wantType: anthropic.ErrorTypeAuthenticationError, wantMessage: "invalid x-api-key"},
		{name: "missing key", opts: []option.RequestOption{option.WithHeaderDel("Authorization")},
			wantStatus: 401, wantType: anthropic.ErrorTypeAuthenticationError, wantMessage: "x-api-key header is required"},
		{name: "unknown model", model: "claude-nonexistent-9",
			wantStatus: 404, wantType: anthropic.ErrorTypeNotFoundError, wantMessage: "model: claude-nonexistent-9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sess := newSession(t, session.RequireAPIKey("k"))
			if tt.reply != nil {
				sess.Chat("fail").Reply(*tt.reply)
			}
			key := tt.apiKey
			if key == "" {
				key = "k"
			}
			client := clientFor(sess, key, 0)
			p := userTurn("hi")
			if tt.model != "" {
				p.Model = tt.model
			}
			for _, streamed := range []bool{false, true} {
				var err error
				if streamed {
					// A failure before the stream starts is an HTTP error
					// like any other.
					if tt.reply != nil {
						sess.Chat("fail").Reply(*tt.reply)
					}
					stream := client.Messages.NewStreaming(t.Context(), p, tt.opts...)
					for stream.Next() {
					}
					err = stream.Err()
					stream.Close()
				} else {
					_, err = client.Messages.New(t.Context(), p, tt.opts...)
				}
				apiErr := apiError(t, err)
				assert.Equal(t, tt.wantStatus, apiErr.StatusCode, "streamed %t", streamed)
				assert.Equal(t, tt.wantType, apiErr.Type(), "streamed %t", streamed)
				assert.NotEmpty(t, apiErr.Message)
				assert.Contains(t, apiErr.Message, tt.wantMessage)
				assert.Equal(t, tt.wantCode, string(apiErr.ErrorCode()))
				checkRequestID(t, apiErr)
				e, ok := sess.Journal().Last()
				require.True(t, ok)
				assert.Equal(t, tt.wantStatus, e.Status)
				assert.Equal(t, "anthropic", e.Provider)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// TestStreamFailureDecoding scripts a failure inside the stream: the SDK
// gets its 200, then an error event, which stream.Err reports as an
// *anthropic.Error with status 200 and the scripted type. Not streamed,
// the same reply is the HTTP error.
func TestStreamFailureDecoding(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		reply      scenario.Reply
		wantType   anthropic.ErrorType
		wantStatus int
		wantMsg    string
	}{
		{"FailStream", scenario.FailStream("stream_broke", "The stream broke"), anthropic.ErrorTypeAPIError, 500, "The stream broke"},
		{"overloaded in stream", scenario.Reply{Error: &scenario.Error{Kind: scenario.ErrorOverloaded, InStream: true}},
			anthropic.ErrorTypeOverloadedError, 529, "Overloaded"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sess := newSession(t)
			sess.Chat("broken").Reply(tt.reply, tt.reply)
			// Retries allowed: an error inside a stream is never retried.
			client := clientFor(sess, "k", 2)
			stream := client.Messages.NewStreaming(t.Context(), userTurn("hi"))
			var acc anthropic.Message
			for stream.Next() {
				require.NoError(t, acc.Accumulate(stream.Current()))
			}
			apiErr := apiError(t, stream.Err())
			stream.Close()
			assert.Equal(t, http.StatusOK, apiErr.StatusCode)
			assert.Equal(t, tt.wantType, apiErr.Type())
			assert.Contains(t, apiErr.Message, tt.wantMsg)
			checkRequestID(t, apiErr)
			assert.Empty(t, acc.Content)
			require.Equal(t, 1, sess.Journal().Len(), "an error inside a stream was retried")
			e, _ := sess.Journal().Last()
			assert.Equal(t, 200, e.Status)
			assert.True(t, e.Stream)

			_, err := client.Messages.New(t.Context(), userTurn("hi"), option.WithMaxRetries(0))
			apiErr = apiError(t, err)
			assert.Equal(t, tt.wantStatus, apiErr.StatusCode)
			assert.Equal(t, tt.wantType, apiErr.Type())
		})
	}
}
