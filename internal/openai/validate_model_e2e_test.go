package openai_test

import (
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/session"
)

// A reasoning model takes only the default temperature and top_p on Chat
// Completions; other values are refused in the real API's words.
func TestValidateReasoningModelSampling(t *testing.T) {
	t.Parallel()
	sess, client := validationSession(t)
	p := e2e.UserTurn("o4-mini", "Hi")
	p.Temperature = openai.Float(0.5)
	_, err := client.Chat.Completions.New(t.Context(), p)
	requireRefused(t, sess, err, "unsupported_value", "temperature",
		"Unsupported value: 'temperature' does not support 0.5 with this model. Only the default (1) value is supported.")

	p.Temperature = openai.Float(1)
	p.TopP = openai.Float(0)
	_, err = client.Chat.Completions.New(t.Context(), p)
	requireRefused(t, sess, err, "unsupported_value", "top_p",
		"Unsupported value: 'top_p' does not support 0 with this model. Only the default (1) value is supported.")

	p.TopP = openai.Float(1)
	p.ReasoningEffort = shared.ReasoningEffortLow
	got, err := client.Chat.Completions.New(t.Context(), p)
	require.NoError(t, err, "the defaults and reasoning_effort pass on a reasoning model")
	assert.Equal(t, "ok", got.Choices[0].Message.Content)
}

// A reasoning model at effort none (gpt-5.1's default) samples as any
// chat model: temperature passes; at another effort it is refused again.
func TestValidateSamplingAtEffortNone(t *testing.T) {
	t.Parallel()
	sess, client := validationSession(t)
	p := e2e.UserTurn("gpt-5.1", "Hi")
	p.Temperature = openai.Float(0.2)
	p.ReasoningEffort = shared.ReasoningEffortLow
	_, err := client.Chat.Completions.New(t.Context(), p)
	requireRefused(t, sess, err, "unsupported_value", "temperature",
		"Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is supported.")
	_, err = client.Responses.New(t.Context(), responses.ResponseNewParams{Model: "gpt-5.1", Temperature: openai.Float(0.2),
		Reasoning: shared.ReasoningParam{Effort: shared.ReasoningEffortLow},
		Input:     responses.ResponseNewParamsInputUnion{OfString: openai.String("Hi")}})
	requireRefused(t, sess, err, "unsupported_parameter", "temperature", "Unsupported parameter: 'temperature' is not supported with this model.")

	sess.Chat("second").Responds("ok")
	p.ReasoningEffort = ""
	_, err = client.Chat.Completions.New(t.Context(), p)
	require.NoError(t, err, "gpt-5.1 answers at effort none by default")
	_, err = client.Responses.New(t.Context(), responses.ResponseNewParams{Model: "gpt-5.1", Temperature: openai.Float(0.2),
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("Hi")}})
	require.NoError(t, err)
}

// Reasoning models before gpt-5.5 take no stop sequences, snapshots
// included; gpt-5.5 and models that do not reason take them.
func TestValidateStopOnReasoningModels(t *testing.T) {
	t.Parallel()
	sess, client := validationSession(t)
	stop := openai.ChatCompletionNewParamsStopUnion{OfString: openai.String("END")}
	for _, model := range []string{"gpt-5", "gpt-5-2025-08-07", "o4-mini", "gpt-5.2"} {
		p := e2e.UserTurn(model, "Hi")
		p.Stop = stop
		_, err := client.Chat.Completions.New(t.Context(), p)
		requireRefused(t, sess, err, "unsupported_parameter", "stop", "Unsupported parameter: 'stop' is not supported with this model.")
	}
	sess.Chat("second").Responds("ok")
	for _, model := range []string{"gpt-5.5", "gpt-4.1-mini"} {
		p := e2e.UserTurn(model, "Hi")
		p.Stop = stop
		_, err := client.Chat.Completions.New(t.Context(), p)
		require.NoError(t, err, model)
	}
}

// reasoning_effort on a model that does not reason is an argument the real
// Chat Completions API does not recognize; audio output needs an audio
// model.
func TestValidateChatModelWithoutReasoningOrAudio(t *testing.T) {
	t.Parallel()
	sess, client := validationSession(t)
	p := e2e.UserTurn("gpt-4o-mini", "Hi")
	p.ReasoningEffort = shared.ReasoningEffortLow
	_, err := client.Chat.Completions.New(t.Context(), p)
	requireRefused(t, sess, err, "", "", "Unrecognized request argument supplied: reasoning_effort")

	p = e2e.UserTurn("gpt-4o-mini", "Hi")
	p.Modalities = []string{"text", "audio"}
	_, err = client.Chat.Completions.New(t.Context(), p)
	requireRefused(t, sess, err, "invalid_value", "modalities", "Invalid value: 'audio'. This model does not support audio output.")

	p.Modalities = []string{"text"}
	p.Temperature = openai.Float(0.3)
	_, err = client.Chat.Completions.New(t.Context(), p)
	require.NoError(t, err)
}

// The Responses API words the same rules as unsupported parameters:
// temperature on a reasoning model, reasoning.effort on one that does not
// reason.
func TestValidateResponsesModelParameters(t *testing.T) {
	t.Parallel()
	sess, client := validationSession(t)
	_, err := client.Responses.New(t.Context(), responses.ResponseNewParams{Model: "gpt-5", Input: e2e.InputText("Hi"), Temperature: openai.Float(0.2)})
	requireRefused(t, sess, err, "unsupported_parameter", "temperature", "Unsupported parameter: 'temperature' is not supported with this model.")

	_, err = client.Responses.New(t.Context(), responses.ResponseNewParams{Model: "gpt-4.1-mini", Input: e2e.InputText("Hi"),
		Reasoning: shared.ReasoningParam{Effort: shared.ReasoningEffortHigh}})
	requireRefused(t, sess, err, "unsupported_parameter", "reasoning.effort", "Unsupported parameter: 'reasoning.effort' is not supported with this model.")

	resp, err := client.Responses.New(t.Context(), responses.ResponseNewParams{Model: "gpt-5", Input: e2e.InputText("Hi"),
		Reasoning: shared.ReasoningParam{Effort: shared.ReasoningEffortHigh}})
	require.NoError(t, err)
	assert.Equal(t, "ok", resp.OutputText())
}

// A model the catalog does not list by name takes the rules of its family:
// an allow-listed future o3 snapshot refuses max_tokens and a temperature
// alike, as the real API would.
func TestValidateRulesOfAModelsFamily(t *testing.T) {
	t.Parallel()
	sess, client := validationSession(t, session.OnlyModels("o3-2099-01-01"))
	p := e2e.UserTurn("o3-2099-01-01", "Hi")
	p.Temperature = openai.Float(0.5)
	_, err := client.Chat.Completions.New(t.Context(), p)
	requireRefused(t, sess, err, "unsupported_value", "temperature",
		"Unsupported value: 'temperature' does not support 0.5 with this model. Only the default (1) value is supported.")
	p = e2e.UserTurn("o3-2099-01-01", "Hi")
	p.MaxTokens = openai.Int(5)
	_, err = client.Chat.Completions.New(t.Context(), p)
	var apiErr *openai.Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, "unsupported_parameter", apiErr.Code)
	assert.Equal(t, "max_tokens", apiErr.Param)
}

// A reasoning effort the model does not take is refused in each API's
// words: minimal on gpt-5.1, none on gpt-5 (and its snapshot), anything but
// high on gpt-5-pro; efforts the model takes pass.
func TestValidateEffortsOfEachModel(t *testing.T) {
	t.Parallel()
	sess, client := validationSession(t)
	p := e2e.UserTurn("gpt-5.1", "Hi")
	p.ReasoningEffort = shared.ReasoningEffortMinimal
	_, err := client.Chat.Completions.New(t.Context(), p)
	requireRefused(t, sess, err, "unsupported_value", "reasoning_effort",
		"Unsupported value: 'reasoning_effort' does not support 'minimal' with this model. Supported values are: 'none', 'low', 'medium', and 'high'.")
	for _, model := range []string{"gpt-5", "gpt-5-2025-08-07"} {
		_, err = client.Responses.New(t.Context(), responses.ResponseNewParams{Model: model,
			Reasoning: shared.ReasoningParam{Effort: shared.ReasoningEffortNone},
			Input:     responses.ResponseNewParamsInputUnion{OfString: openai.String("Hi")}})
		requireRefused(t, sess, err, "unsupported_value", "reasoning.effort",
			"Unsupported value: 'none' is not supported with the '"+model+"' model. Supported values are: 'minimal', 'low', 'medium', and 'high'.")
	}
	p = e2e.UserTurn("gpt-5-pro", "Hi")
	p.ReasoningEffort = shared.ReasoningEffortLow
	_, err = client.Chat.Completions.New(t.Context(), p)
	requireRefused(t, sess, err, "unsupported_value", "reasoning_effort",
		"Unsupported value: 'reasoning_effort' does not support 'low' with this model. Supported values are: 'high'.")

	p = e2e.UserTurn("gpt-5", "Hi")
	p.ReasoningEffort = shared.ReasoningEffortMinimal
	_, err = client.Chat.Completions.New(t.Context(), p)
	require.NoError(t, err, "gpt-5 takes minimal")
}
