package anthropicsdk_test

import (
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestThinkingDisplayOmitted asks for thinking.display "omitted": the
// thinking block comes with no text and a signature (streamed, a
// signature_delta and no thinking_delta), its tokens still count as
// output, and the block goes back with its empty text, which the server
// takes, on a tool loop's next turn as on a message thread's.
func TestThinkingDisplayOmitted(t *testing.T) {
	t.Parallel()
	for _, streamed := range []bool{false, true} {
		t.Run(map[bool]string{false: "non-streamed", true: "streamed"}[streamed], func(t *testing.T) {
			t.Parallel()
			sess := newSession(t)
			sess.Chat("think").Reply(
				scenario.Reply{Thinking: "The user wants the weather.", ToolCalls: []scenario.ToolCall{{Name: "get_weather", Arguments: `{"city":"Oslo"}`}}},
				scenario.Think("It is sunny.", "Sunny in Oslo."))
			client := clientFor(sess, "k", 0)
			p := userTurn("Weather in Oslo?")
			p.MaxTokens = 4096
			p.Thinking = anthropic.ThinkingConfigParamUnion{OfAdaptive: &anthropic.ThinkingConfigAdaptiveParam{
				Display: anthropic.ThinkingConfigAdaptiveDisplayOmitted}}
			p.Tools = []anthropic.ToolUnionParam{weatherTool}
			var first anthropic.Message
			if streamed {
				stream := client.Messages.NewStreaming(t.Context(), p)
				var kinds []string
				for stream.Next() {
					ev := stream.Current()
					require.NoError(t, first.Accumulate(ev))
					if d, ok := ev.AsAny().(anthropic.ContentBlockDeltaEvent); ok && d.Index == 0 {
						kinds = append(kinds, d.Delta.Type)
					}
				}
				require.NoError(t, stream.Err())
				assert.Equal(t, []string{"signature_delta"}, kinds)
			} else {
				m, err := client.Messages.New(t.Context(), p)
				require.NoError(t, err)
				first = *m
			}
			require.Len(t, first.Content, 2)
			thinking := first.Content[0].AsThinking()
			assert.Equal(t, "", thinking.Thinking)
			assert.NotEmpty(t, thinking.Signature)
			assert.Positive(t, first.Usage.OutputTokensDetails.ThinkingTokens, "the omitted thinking is billed")

			tu := first.Content[1].AsToolUse()
			p.Messages = append(p.Messages, first.ToParam(),
				anthropic.NewUserMessage(anthropic.NewToolResultBlock(tu.ID, "sunny", false)))
			second, err := client.Messages.New(t.Context(), p)
			require.NoError(t, err, "the omitted block goes back")
			assert.Equal(t, "", second.Content[0].Thinking)
			assert.Equal(t, "Sunny in Oslo.", second.Content[1].Text)

			// A signature the server did not make is refused with an empty
			// text as with a shown one.
			p.Messages[1] = anthropic.NewAssistantMessage(anthropic.NewThinkingBlock("c2lnbmF0dXJl", ""),
				anthropic.NewToolUseBlock(tu.ID, tu.Input, tu.Name))
			_, err = client.Messages.New(t.Context(), p)
			assert.Equal(t, 400, apiError(t, err).StatusCode)
		})
	}
}
