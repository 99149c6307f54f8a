package llmtest_test

import (
	"testing"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

// BenchmarkChatCompletionTransport measures one non-streamed chat
// completion through openai-go over each transport, in the same run: the
// ratio memory/loopback is what skipping the socket saves.
func BenchmarkChatCompletionTransport(b *testing.B) {
	for _, mode := range []llmtest.TransportMode{llmtest.Loopback, llmtest.InMemory} {
		b.Run(mode.String(), func(b *testing.B) {
			client := benchClient(b, func(sess *session.Session) { benchScript(sess, b.N+1) }, llmtest.WithTransport(mode))
			benchChatLoop(b, client)
		})
	}
}
