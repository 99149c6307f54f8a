package anthropicsdk_test

import (
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMaxTokensZeroWarmsTheCacheOnly sends max_tokens 0, which asks the
// API to populate the prompt cache without generating (the SDK's MaxTokens
// doc): the message has no content, stops at max_tokens with 0 output
// tokens, writes the prompt's breakpoint to the cache, and takes no
// scripted reply, streamed or not.
func TestMaxTokensZeroWarmsTheCacheOnly(t *testing.T) {
	t.Parallel()
	for _, streamed := range []bool{false, true} {
		t.Run(map[bool]string{false: "non-streamed", true: "streamed"}[streamed], func(t *testing.T) {
			t.Parallel()
			sess := newSession(t)
			sess.Chat("kept").Responds("the reply")
			client := clientFor(sess, "k", 0)
			params := userTurn("Hi")
			params.MaxTokens = 0
			params.System = []anthropic.TextBlockParam{{Text: strings.Repeat("cache me ", 1200),
				CacheControl: anthropic.NewCacheControlEphemeralParam()}}
			var msg anthropic.Message
			if streamed {
				msg = accumulate(t, client.Messages.NewStreaming(t.Context(), params))
			} else {
				m, err := client.Messages.New(t.Context(), params)
				require.NoError(t, err)
				msg = *m
			}
			assert.Empty(t, msg.Content)
			assert.Equal(t, anthropic.StopReasonMaxTokens, msg.StopReason)
			assert.Zero(t, msg.Usage.OutputTokens)
			assert.Positive(t, msg.Usage.CacheCreationInputTokens, "the breakpoint was written")
			assert.Equal(t, 1, sess.Pending(), "no scripted reply was taken")

			// The warmed prefix is read by the request that follows.
			params.MaxTokens = 1024
			m, err := client.Messages.New(t.Context(), params)
			require.NoError(t, err)
			assert.Equal(t, "the reply", m.Content[0].Text)
			assert.Equal(t, msg.Usage.CacheCreationInputTokens, m.Usage.CacheReadInputTokens)
		})
	}
}
