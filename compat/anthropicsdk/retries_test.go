package anthropicsdk_test

import (
	"net/http"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fast is what a scripted error carries so that the SDK retries at once.
var fast = map[string]string{"retry-after-ms": "1"}

// TestSDKRetries scripts errors the SDK retries, then a text: with two
// retries allowed the call succeeds, each attempt takes one reply, and the
// journal shows the failed attempts before the 200.
func TestSDKRetries(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		failure    scenario.Reply
		wantStatus int
		wantHeader [2]string
	}{
		{"rate limit", scenario.Reply{Error: &scenario.Error{Kind: scenario.ErrorRateLimit, Headers: fast}},
			http.StatusTooManyRequests, [2]string{"retry-after-ms", "1"}},
		{"RateLimited", scenario.RateLimited(), http.StatusTooManyRequests, [2]string{"Retry-After", "0"}},
		{"overloaded", scenario.Reply{Error: &scenario.Error{Kind: scenario.ErrorOverloaded, Headers: fast}},
			529, [2]string{"retry-after-ms", "1"}},
		{"server error", scenario.Reply{Error: &scenario.Error{Kind: scenario.ErrorServer, Headers: fast}},
			http.StatusInternalServerError, [2]string{"retry-after-ms", "1"}},
	}
	for _, tt := range tests {
		for _, streamed := range []bool{false, true} {
			name := tt.name + map[bool]string{false: "", true: " streamed"}[streamed]
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				sess := newSession(t)
				sess.Chat("flaky").Reply(tt.failure, tt.failure, scenario.Text("finally"))
				var statuses []int
				var headers []string
				client := clientFor(sess, "k", 2)
				opt := optionMiddleware(func(resp *http.Response) {
					statuses = append(statuses, resp.StatusCode)
					headers = append(headers, resp.Header.Get(tt.wantHeader[0]))
				})
				var text string
				if streamed {
					msg := accumulate(t, client.Messages.NewStreaming(t.Context(), userTurn("hi"), opt))
					require.Len(t, msg.Content, 1)
					text = msg.Content[0].Text
				} else {
					msg, err := client.Messages.New(t.Context(), userTurn("hi"), opt)
					require.NoError(t, err)
					require.Len(t, msg.Content, 1)
					text = msg.Content[0].Text
				}
				assert.Equal(t, "finally", text)
				assert.Equal(t, []int{tt.wantStatus, tt.wantStatus, 200}, statuses)
				assert.Equal(t, tt.wantHeader[1], headers[0], "header %s", tt.wantHeader[0])

				entries := sess.Journal().Entries()
				require.Len(t, entries, 3)
				for i, want := range []int{tt.wantStatus, tt.wantStatus, 200} {
					assert.Equal(t, want, entries[i].Status, "attempt %d", i+1)
					assert.Equal(t, "flaky", entries[i].Scenario, "attempt %d", i+1)
					assert.Equal(t, "anthropic", entries[i].Provider)
				}
				assert.Zero(t, entries[0].Usage, "a refused attempt has no usage")
				assert.NotZero(t, entries[2].Usage)
				st := sess.Scenarios()
				require.Len(t, st, 1)
				assert.Zero(t, st[0].Remaining, "each attempt takes one reply")
			})
		}
	}
}

// TestSDKRetriesExhausted scripts more failures than the SDK retries: the
// call fails with the last one, and the reply after them stays queued.
func TestSDKRetriesExhausted(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	overloaded := scenario.Reply{Error: &scenario.Error{Kind: scenario.ErrorOverloaded, Headers: fast}}
	sess.Chat("down").Reply(overloaded, overloaded, overloaded, scenario.Text("too late"))
	client := clientFor(sess, "k", 2)
	_, err := client.Messages.New(t.Context(), userTurn("hi"))
	apiErr := apiError(t, err)
	assert.Equal(t, 529, apiErr.StatusCode)
	assert.Equal(t, anthropic.ErrorTypeOverloadedError, apiErr.Type())
	assert.Equal(t, 3, sess.Journal().Len())
	st := sess.Scenarios()
	require.Len(t, st, 1)
	assert.Equal(t, 1, st[0].Remaining)
}
