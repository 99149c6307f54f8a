package llmtest_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/tokens"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// streamBenchTokens is the length of the streamed benchmark reply.
const streamBenchTokens = 500

// streamBenchChunks is the number of chunks of that reply streamed one
// token per chunk: the role chunk, one per token, the finishing chunk.
const streamBenchChunks = 1 + streamBenchTokens + 1

// streamBenchText returns a plain English text of exactly streamBenchTokens
// tokens in benchModel's encoding.
func streamBenchText(b *testing.B) string {
	b.Helper()
	words := strings.Fields("the quick brown fox jumps over the lazy dog while a small bird sings " +
		"in the old tree near the river and the sun sets slowly behind the distant hills")
	var long strings.Builder
	for i := range 2 * streamBenchTokens {
		if i > 0 {
			long.WriteByte(' ')
		}
		long.WriteString(words[i%len(words)])
	}
	text := strings.Join(tokens.Split(benchModel, long.String())[:streamBenchTokens], "")
	if n := tokens.Count(benchModel, text); n != streamBenchTokens {
		b.Fatalf("the benchmark text has %d tokens, want %d", n, streamBenchTokens)
	}
	return text
}

// benchStreamLoop streams the benchmark reply once untimed (checking the
// text), then b.N times timed, reading every chunk through openai-go.
func benchStreamLoop(b *testing.B, client openai.Client, text string) {
	ctx := context.Background()
	params := benchParams()
	stream := func(acc *openai.ChatCompletionAccumulator) {
		s := client.Chat.Completions.NewStreaming(ctx, params)
		n := 0
		for s.Next() {
			if acc != nil {
				acc.AddChunk(s.Current())
			}
			n++
		}
		if err := s.Err(); err != nil {
			b.Fatal(err)
		}
		s.Close()
		if n != streamBenchChunks {
			b.Fatalf("%d chunks, want %d", n, streamBenchChunks)
		}
	}
	var acc openai.ChatCompletionAccumulator
	stream(&acc)
	if got := acc.Choices[0].Message.Content; got != text {
		b.Fatalf("streamed %q, want the benchmark text", got)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		stream(nil)
	}
	b.StopTimer()
}

// streamBenchBody captures the SSE body our server streams for the
// benchmark request.
func streamBenchBody(b *testing.B, text string) []byte {
	b.Helper()
	body := benchCapture(b, true, func(sess *session.Session) { sess.Chat("bench").Responds(text) })
	if !bytes.HasSuffix(body, []byte("data: [DONE]\n\n")) {
		b.Fatalf("reference stream: body %.200s", body)
	}
	return body
}

// BenchmarkChatCompletionStream compares streaming a 500-token reply, one
// token per chunk, through openai-go's NewStreaming from a session
// ("llmtest") against a bare handler writing the same precomputed SSE bytes
// in one write ("bare"). The session's reply repeats, so b.N is unbounded.
// "bare" runs second and reports llmtest/bare (its last run against
// llmtest's last run); target: at most 1.5.
func BenchmarkChatCompletionStream(b *testing.B) {
	text := streamBenchText(b)
	var llmtestNs float64 // ns/op of the last llmtest run

	b.Run("llmtest", func(b *testing.B) {
		client := benchClient(b, func(sess *session.Session) { sess.Chat("bench").Responds(text).Repeat() })
		benchStreamLoop(b, client, text)
		llmtestNs = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	})

	b.Run("bare", func(b *testing.B) {
		body := streamBenchBody(b, text)
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
			w.Header().Set("Cache-Control", "no-cache")
			w.Write(body)
		}))
		defer ts.Close()
		transport := http.DefaultTransport.(*http.Transport).Clone()
		defer transport.CloseIdleConnections()
		client := openai.NewClient(
			option.WithBaseURL(ts.URL+"/v1"),
			option.WithAPIKey(benchAPIKey),
			option.WithHTTPClient(&http.Client{Transport: transport}),
			option.WithMaxRetries(0))
		benchStreamLoop(b, client, text)
		bareNs := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
		if llmtestNs > 0 && bareNs > 0 {
			b.ReportMetric(llmtestNs/bareNs, "llmtest/bare") // target: at most 1.5
		}
	})
}
