package openai_test

import (
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Numbers out of the API's ranges are refused with its range errors.
func TestValidateChatRanges(t *testing.T) {
	t.Parallel()
	sess, client := validationSession(t)
	for _, c := range []struct {
		set           func(*openai.ChatCompletionNewParams)
		code, message string
		param         string
	}{
		{func(p *openai.ChatCompletionNewParams) { p.MaxTokens = openai.Int(-5) }, "integer_below_min_value",
			"Invalid 'max_tokens': integer below minimum value. Expected a value >= 1, but got -5 instead.", "max_tokens"},
		{func(p *openai.ChatCompletionNewParams) { p.MaxCompletionTokens = openai.Int(0) }, "integer_below_min_value",
			"Invalid 'max_completion_tokens': integer below minimum value. Expected a value >= 1, but got 0 instead.", "max_completion_tokens"},
		{func(p *openai.ChatCompletionNewParams) { p.Temperature = openai.Float(2.5) }, "decimal_above_max_value",
			"Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got 2.5 instead.", "temperature"},
		{func(p *openai.ChatCompletionNewParams) { p.TopP = openai.Float(-0.1) }, "decimal_below_min_value",
			"Invalid 'top_p': decimal below minimum value. Expected a value >= 0, but got -0.1 instead.", "top_p"},
		{func(p *openai.ChatCompletionNewParams) { p.FrequencyPenalty = openai.Float(-3) }, "decimal_below_min_value",
			"Invalid 'frequency_penalty': decimal below minimum value. Expected a value >= -2, but got -3 instead.", "frequency_penalty"},
		{func(p *openai.ChatCompletionNewParams) { p.PresencePenalty = openai.Float(2.1) }, "decimal_above_max_value",
			"Invalid 'presence_penalty': decimal above maximum value. Expected a value <= 2, but got 2.1 instead.", "presence_penalty"},
		{func(p *openai.ChatCompletionNewParams) { p.N = openai.Int(0) }, "integer_below_min_value",
			"Invalid 'n': integer below minimum value. Expected a value >= 1, but got 0 instead.", "n"},
	} {
		p := e2e.UserTurn("gpt-4.1-mini", "Hi")
		c.set(&p)
		_, err := client.Chat.Completions.New(t.Context(), p)
		requireRefused(t, sess, err, c.code, c.param, c.message)
	}
}

// Content parts of a type the role does not take, and image URLs that are
// neither http(s) nor base64 image data URLs, are refused.
func TestValidateChatContentParts(t *testing.T) {
	t.Parallel()
	sess, client := validationSession(t)
	image := func(url string) openai.ChatCompletionNewParams {
		return openai.ChatCompletionNewParams{Model: "gpt-4.1-mini", Messages: []openai.ChatCompletionMessageParamUnion{
			openai.UserMessage([]openai.ChatCompletionContentPartUnionParam{
				openai.TextContentPart("What is this?"),
				openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: url}),
			})}}
	}
	_, err := client.Chat.Completions.New(t.Context(), image("photo.png"))
	requireRefused(t, sess, err, "invalid_value", "messages[0].content[1].image_url.url",
		"Invalid image URL: 'messages[0].content[1].image_url.url'. Expected a base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU='), but got a value without the 'data:' prefix.")
	_, err = client.Chat.Completions.New(t.Context(), image("data:image/png;base64,"))
	requireRefused(t, sess, err, "invalid_value", "messages[0].content[1].image_url.url",
		"Invalid image URL: 'messages[0].content[1].image_url.url'. Expected a base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU='), but got empty base64-encoded bytes.")

	r := e2e.Call(t, sess.HTTPClient(), "POST", sess.BaseURL()+"/chat/completions",
		`{"model":"gpt-4.1-mini","messages":[{"role":"user","content":[{"type":"image","text":"x"}]}]}`, e2e.SelectorOf(sess)...)
	code, _, param, message := r.APIError(t)
	assert.Equal(t, 400, r.Status)
	assert.Equal(t, "invalid_value", code)
	assert.Equal(t, "messages[0].content[0].type", param)
	assert.Equal(t, "Invalid value: 'image'. Supported values are: 'text', 'image_url', 'input_audio', and 'file'.", message)

	got, err := client.Chat.Completions.New(t.Context(), image("data:image/png;base64,aW1n"))
	require.NoError(t, err)
	assert.Equal(t, "ok", got.Choices[0].Message.Content)
}

// Hosted tools without the fields they need, unknown tool types,
// background without store and bad image URLs are refused by the
// Responses API.
func TestValidateResponsesShapes(t *testing.T) {
	t.Parallel()
	sess, client := validationSession(t)
	base := func() responses.ResponseNewParams {
		return responses.ResponseNewParams{Model: "gpt-4.1-mini", Input: e2e.InputText("Hi")}
	}
	for _, c := range []struct {
		tool  map[string]any
		param string
	}{
		{map[string]any{"type": "file_search"}, "tools[0].vector_store_ids"},
		{map[string]any{"type": "code_interpreter"}, "tools[0].container"},
		{map[string]any{"type": "mcp", "server_url": "https://mcp.example.com"}, "tools[0].server_label"},
	} {
		p := base()
		p.SetExtraFields(map[string]any{"tools": []any{c.tool}})
		_, err := client.Responses.New(t.Context(), p)
		requireRefused(t, sess, err, "missing_required_parameter", c.param, "Missing required parameter: '"+c.param+"'.")
	}

	p := base()
	p.SetExtraFields(map[string]any{"tools": []any{map[string]any{"type": "calculator"}}})
	_, err := client.Responses.New(t.Context(), p)
	apiErr := e2e.OpenAIError(t, err)
	assert.Equal(t, "invalid_value", apiErr.Code)
	assert.Equal(t, "tools[0].type", apiErr.Param)
	assert.Contains(t, apiErr.Message, "Invalid value: 'calculator'. Supported values are: 'function', 'file_search',")

	p = base()
	p.Background, p.Store = openai.Bool(true), openai.Bool(false)
	_, err = client.Responses.New(t.Context(), p)
	requireRefused(t, sess, err, "", "background", "Background responses require 'store' to be true: set 'store' to true or remove 'background'.")

	p = responses.ResponseNewParams{Model: "gpt-4.1-mini", Input: responses.ResponseNewParamsInputUnion{OfInputItemList: responses.ResponseInputParam{
		responses.ResponseInputItemParamOfMessage(responses.ResponseInputMessageContentListParam{
			responses.ResponseInputContentParamOfInputText("What is this?"),
			{OfInputImage: &responses.ResponseInputImageParam{ImageURL: openai.String("photo.png"), Detail: responses.ResponseInputImageDetailAuto}},
		}, responses.EasyInputMessageRoleUser)}}}
	_, err = client.Responses.New(t.Context(), p)
	requireRefused(t, sess, err, "invalid_value", "input[0].content[1].image_url",
		"Invalid 'input[0].content[1].image_url'. Expected a base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU='), but got a value without the 'data:' prefix.")

	p = base()
	p.Tools = []responses.ToolUnionParam{{OfFileSearch: &responses.FileSearchToolParam{VectorStoreIDs: []string{"vs_1"}}}}
	resp, err := client.Responses.New(t.Context(), p)
	require.NoError(t, err)
	assert.Equal(t, "ok", resp.OutputText())
}

// A sampling knob of the wrong JSON type is named in param.
func TestValidateChatKnobType(t *testing.T) {
	t.Parallel()
	sess, _ := validationSession(t)
	r := e2e.Call(t, sess.HTTPClient(), "POST", sess.BaseURL()+"/chat/completions",
		`{"model":"gpt-4.1-mini","messages":[{"role":"user","content":"Hi"}],"temperature":"hot"}`, e2e.SelectorOf(sess)...)
	code, _, param, message := r.APIError(t)
	assert.Equal(t, 400, r.Status)
	assert.Equal(t, "invalid_type", code)
	assert.Equal(t, "temperature", param)
	assert.Equal(t, "Invalid type for 'temperature': expected a number, but got a string instead.", message)
}

// openai-go v3.101.0's background_options: its completion windows are
// known, any other is refused as an invalid value.
func TestValidateResponsesBackgroundOptions(t *testing.T) {
	t.Parallel()
	_, client := validationSession(t)
	p := responses.ResponseNewParams{Model: "gpt-4.1-mini", Input: e2e.InputText("Hi"), Background: openai.Bool(true),
		BackgroundOptions: responses.ResponseNewParamsBackgroundOptions{CompletionWindow: "8h", ContinuationID: openai.String("c1")}}
	_, err := client.Responses.New(t.Context(), p)
	require.NoError(t, err)
	p.BackgroundOptions.CompletionWindow = "1d"
	_, err = client.Responses.New(t.Context(), p)
	apiErr := e2e.OpenAIError(t, err)
	assert.Equal(t, "invalid_value", apiErr.Code)
	assert.Equal(t, "background_options.completion_window", apiErr.Param)
	assert.Equal(t, "Invalid value: '1d'. Supported values are: 'soonest', '2h', and '8h'.", apiErr.Message)
}
