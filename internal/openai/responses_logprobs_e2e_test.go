package openai_test

import (
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
)

// include message.output_text.logprobs gives the output text's tokens with
// deterministic log probabilities and top_logprobs alternatives, in the
// object, in each text delta (joining into the part's), and in a stored
// response read back; without it the arrays are empty.
func TestResponsesLogprobs(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	const text = "The quick brown fox jumps over the lazy dog."
	sess.Chat("any").Responds(text).Repeat()
	client := e2e.ClientFor(sess, "k")
	ctx := t.Context()
	params := responses.ResponseNewParams{Model: "gpt-4.1-mini", TopLogprobs: openai.Int(3),
		Include: []responses.ResponseIncludable{responses.ResponseIncludableMessageOutputTextLogprobs},
		Input:   responses.ResponseNewParamsInputUnion{OfString: openai.String("Hi")}}

	resp, err := client.Responses.New(ctx, params)
	require.NoError(t, err)
	part := resp.Output[0].Content[0]
	require.NotEmpty(t, part.Logprobs)
	var joined strings.Builder
	for _, lp := range part.Logprobs {
		joined.WriteString(lp.Token)
		assert.LessOrEqual(t, lp.Logprob, 0.0)
		assert.Equal(t, len(lp.Token), len(lp.Bytes))
		require.Len(t, lp.TopLogprobs, 3)
		assert.Equal(t, lp.Token, lp.TopLogprobs[0].Token, "the chosen token leads its alternatives")
	}
	assert.Equal(t, text, joined.String())

	stream := client.Responses.NewStreaming(ctx, params)
	var fromDeltas []responses.ResponseTextDeltaEventLogprob
	var final []responses.ResponseOutputTextLogprob
	for stream.Next() {
		switch e := stream.Current(); e.Type {
		case "response.output_text.delta":
			fromDeltas = append(fromDeltas, e.AsResponseOutputTextDelta().Logprobs...)
		case "response.completed":
			final = e.AsResponseCompleted().Response.Output[0].Content[0].Logprobs
		}
	}
	require.NoError(t, stream.Err())
	require.Len(t, fromDeltas, len(final))
	for i := range final {
		assert.Equal(t, final[i].Token, fromDeltas[i].Token)
		assert.Equal(t, final[i].Logprob, fromDeltas[i].Logprob)
	}
	assert.Equal(t, part.Logprobs[0].Logprob, final[0].Logprob, "the same text has the same logprobs")

	got, err := client.Responses.Get(ctx, resp.ID, responses.ResponseGetParams{})
	require.NoError(t, err)
	assert.Equal(t, len(part.Logprobs), len(got.Output[0].Content[0].Logprobs))

	params.Include = nil
	plain, err := client.Responses.New(ctx, params)
	require.NoError(t, err)
	assert.Empty(t, plain.Output[0].Content[0].Logprobs)
}
