package goopenai_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	goopenai "github.com/sashabaranov/go-openai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

func goClientFor(sess *session.Session) *goopenai.Client {
	cfg := goopenai.DefaultConfig("k")
	cfg.BaseURL = sess.BaseURL()
	cfg.HTTPClient = sess.HTTPClient()
	return goopenai.NewClientWithConfig(cfg)
}

// streamChoices reads a go-openai stream, merging the deltas of each
// choice index as a go-openai caller does, and returns the chunks.
func streamChoices(t *testing.T, stream *goopenai.ChatCompletionStream) ([]goopenai.ChatCompletionStreamResponse, map[int]*strings.Builder, map[int]goopenai.FinishReason) {
	t.Helper()
	defer stream.Close()
	var all []goopenai.ChatCompletionStreamResponse
	text := map[int]*strings.Builder{}
	finish := map[int]goopenai.FinishReason{}
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		all = append(all, resp)
		for _, c := range resp.Choices {
			if text[c.Index] == nil {
				text[c.Index] = &strings.Builder{}
			}
			text[c.Index].WriteString(c.Delta.Content)
			if c.FinishReason != "" {
				finish[c.Index] = c.FinishReason
			}
		}
	}
	return all, text, finish
}

// go-openai reads a stream with n = 2 as the real API sends it: one choice
// per chunk, each index with its own role chunk and finish chunk, and the
// usage chunk (no choices) last.
func TestGoOpenAIStreamTwoChoices(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	const text = "Both choices, one chunk at a time."
	sess.Chat("n").Responds(text)
	stream, err := goClientFor(sess).CreateChatCompletionStream(context.Background(), goopenai.ChatCompletionRequest{
		Model:         "gpt-4.1-mini",
		Messages:      []goopenai.ChatCompletionMessage{{Role: "user", Content: "Hi"}},
		N:             2,
		StreamOptions: &goopenai.StreamOptions{IncludeUsage: true},
	})
	require.NoError(t, err)
	all, got, finish := streamChoices(t, stream)
	require.NotEmpty(t, all)
	roles := map[int]int{}
	for _, c := range all[:len(all)-1] {
		require.Len(t, c.Choices, 1)
		assert.Nil(t, c.Usage, "usage is null until the last chunk")
		if c.Choices[0].Delta.Role != "" {
			roles[c.Choices[0].Index]++
		}
	}
	assert.Equal(t, map[int]int{0: 1, 1: 1}, roles, "one role chunk per index")
	last := all[len(all)-1]
	assert.Empty(t, last.Choices)
	require.NotNil(t, last.Usage)
	assert.Positive(t, last.Usage.CompletionTokens)
	require.Len(t, got, 2)
	for i := range 2 {
		assert.Equal(t, text, got[i].String(), "choice %d", i)
		assert.Equal(t, goopenai.FinishReasonStop, finish[i], "choice %d", i)
	}
}

// go-openai's own request fields for stop, logprobs and service_tier are
// honoured: the text is cut at the stop sequence, each token has its
// logprobs (in the body and in stream chunks), the tier is echoed.
func TestGoOpenAIStopLogprobsServiceTier(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("c").Responds("Keep this. Drop this.").Repeat()
	client := goClientFor(sess)
	req := goopenai.ChatCompletionRequest{
		Model:       "gpt-4.1-mini",
		Messages:    []goopenai.ChatCompletionMessage{{Role: "user", Content: "Hi"}},
		Stop:        []string{" Drop"},
		LogProbs:    true,
		TopLogProbs: 2,
		ServiceTier: goopenai.ServiceTierFlex,
	}
	resp, err := client.CreateChatCompletion(context.Background(), req)
	require.NoError(t, err)
	c := resp.Choices[0]
	assert.Equal(t, "Keep this.", c.Message.Content)
	assert.Equal(t, goopenai.FinishReasonStop, c.FinishReason)
	assert.Equal(t, goopenai.ServiceTierFlex, resp.ServiceTier)
	require.NotNil(t, c.LogProbs)
	var rebuilt strings.Builder
	for _, lp := range c.LogProbs.Content {
		rebuilt.WriteString(lp.Token)
		assert.Less(t, lp.LogProb, 0.0)
		assert.Equal(t, lp.Token, string(lp.Bytes))
		require.Len(t, lp.TopLogProbs, 2)
		assert.Equal(t, lp.Token, lp.TopLogProbs[0].Token)
		assert.Greater(t, lp.TopLogProbs[0].LogProb, lp.TopLogProbs[1].LogProb)
	}
	assert.Equal(t, "Keep this.", rebuilt.String())

	stream, err := client.CreateChatCompletionStream(context.Background(), req)
	require.NoError(t, err)
	all, got, finish := streamChoices(t, stream)
	assert.Equal(t, "Keep this.", got[0].String())
	assert.Equal(t, goopenai.FinishReasonStop, finish[0])
	var streamed strings.Builder
	for _, chunk := range all {
		for _, ch := range chunk.Choices {
			if ch.Logprobs == nil {
				continue
			}
			for _, lp := range ch.Logprobs.Content {
				streamed.WriteString(lp.Token)
				assert.Len(t, lp.TopLogprobs, 2)
			}
		}
	}
	assert.Equal(t, "Keep this.", streamed.String())
}
