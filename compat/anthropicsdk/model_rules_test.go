package anthropicsdk_test

import (
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Thinking types and prefill are checked per model as the API checks
// them: "enabled" is refused on Opus 4.7 and later, "adaptive" on Claude
// 4.5 and earlier, and a final assistant message on 4.6 and later.
func TestModelRules(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("Hi").Responds("hello").Repeat()
	client := clientFor(sess, "k", 0)
	user := []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Hi"))}
	prefill := append(user, anthropic.NewAssistantMessage(anthropic.NewTextBlock("Sure:")))
	enabled := anthropic.ThinkingConfigParamOfEnabled(2048)
	adaptive := anthropic.ThinkingConfigParamUnion{OfAdaptive: &anthropic.ThinkingConfigAdaptiveParam{}}
	disabled := anthropic.ThinkingConfigParamUnion{OfDisabled: &anthropic.ThinkingConfigDisabledParam{}}
	for _, tt := range []struct {
		name     string
		model    anthropic.Model
		thinking anthropic.ThinkingConfigParamUnion
		messages []anthropic.MessageParam
		refusal  string
	}{
		{"enabled on Opus 4.7", anthropic.ModelClaudeOpus4_7, enabled, user,
			`"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.`},
		{"enabled on Opus 5.5", anthropic.ModelClaudeOpus5_5, enabled, user,
			`"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.`},
		{"enabled on Sonnet 5.5", anthropic.ModelClaudeSonnet5_5, enabled, user,
			`"thinking.type.enabled" is not supported for this model. Use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.`},
		{"disabled on Fable 5", anthropic.ModelClaudeFable5, disabled, user,
			`"thinking.type.disabled" is not supported for this model. This model always thinks: use "thinking.type.adaptive" and "output_config.effort" to control thinking behavior.`},
		{"disabled on Sonnet 5.5", anthropic.ModelClaudeSonnet5_5, disabled, user, ""},
		{"adaptive on Haiku 4.5", anthropic.ModelClaudeHaiku4_5, adaptive, user,
			"adaptive thinking is not supported on this model"},
		{"prefill on Sonnet 5.5", anthropic.ModelClaudeSonnet5_5, anthropic.ThinkingConfigParamUnion{}, prefill,
			"This model does not support assistant message prefill. The conversation must end with a user message."},
		{"prefill on Opus 4.6", anthropic.ModelClaudeOpus4_6, anthropic.ThinkingConfigParamUnion{}, prefill,
			"This model does not support assistant message prefill. The conversation must end with a user message."},
		{"enabled on Opus 4.6", anthropic.ModelClaudeOpus4_6, enabled, user, ""},
		{"adaptive on Opus 4.7", anthropic.ModelClaudeOpus4_7, adaptive, user, ""},
		{"enabled on Haiku 4.5", anthropic.ModelClaudeHaiku4_5, enabled, user, ""},
		{"prefill on Haiku 4.5", anthropic.ModelClaudeHaiku4_5, anthropic.ThinkingConfigParamUnion{}, prefill, ""},
	} {
		_, err := client.Messages.New(t.Context(), anthropic.MessageNewParams{Model: tt.model, MaxTokens: 4096,
			Thinking: tt.thinking, Messages: tt.messages})
		if tt.refusal == "" {
			require.NoError(t, err, tt.name)
			continue
		}
		apiErr := apiError(t, err)
		assert.Equal(t, 400, apiErr.StatusCode, tt.name)
		assert.Equal(t, "invalid_request_error", string(apiErr.Type()), tt.name)
		assert.Equal(t, tt.refusal, apiErr.Message, tt.name)
	}
}

// TestSonnet5ThinksUnlessToldNot sends a temperature to Sonnet 5.5 with no
// thinking field: the model thinks by default, and thinking takes no
// temperature but 1, so it is refused; with thinking disabled it is taken.
func TestSonnet5ThinksUnlessToldNot(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("Hi").Responds("hello")
	client := clientFor(sess, "k", 0)
	p := userTurn("Hi")
	hot := option.WithJSONSet("temperature", 0.3) // v2's params have no temperature
	_, err := client.Messages.New(t.Context(), p, hot)
	assert.Contains(t, apiError(t, err).Error(), "`temperature` may only be set to 1 when thinking is enabled")
	p.Thinking = anthropic.ThinkingConfigParamUnion{OfDisabled: &anthropic.ThinkingConfigDisabledParam{}}
	_, err = client.Messages.New(t.Context(), p, hot)
	require.NoError(t, err)
}
