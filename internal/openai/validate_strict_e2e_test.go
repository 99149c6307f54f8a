package openai_test

import (
	"encoding/json"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func schemaOf(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(s), &m))
	return m
}

const (
	strictGood        = `{"type":"object","properties":{"city":{"type":"string"}},"required":["city"],"additionalProperties":false}`
	strictNoAdditonal = `{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`
	strictOptional    = `{"type":"object","properties":{"city":{"type":"string"},"unit":{"type":"string"}},"required":["city"],"additionalProperties":false}`
	strictNested      = `{"type":"object","properties":{"place":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}},"required":["place"],"additionalProperties":false}`
	strictKeyword     = `{"type":"object","properties":{"city":{"type":"string","minLength":1}},"required":["city"],"additionalProperties":false}`
)

// A strict json_schema response format whose schema breaks the rules of
// strict mode is refused in the real API's words, naming the offending
// subschema; strict false, or a schema that follows the rules, passes.
func TestValidateChatStrictResponseFormat(t *testing.T) {
	t.Parallel()
	sess, client := validationSession(t)
	format := func(schema string, strict bool) openai.ChatCompletionNewParams {
		p := e2e.UserTurn("gpt-4.1-mini", "Weather?")
		p.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
			JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{Name: "weather", Schema: schemaOf(t, schema), Strict: openai.Bool(strict)}}}
		return p
	}
	for schema, problem := range map[string]string{
		strictNoAdditonal: "In context=(), 'additionalProperties' is required to be supplied and to be false.",
		strictOptional:    "In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'unit'.",
		strictNested:      "In context=('properties', 'place'), 'additionalProperties' is required to be supplied and to be false.",
		strictKeyword:     "In context=('properties', 'city'), 'minLength' is not permitted.",
	} {
		_, err := client.Chat.Completions.New(t.Context(), format(schema, true))
		requireRefused(t, sess, err, "", "response_format", "Invalid schema for response_format 'weather': "+problem)
	}
	sess.Chat("more").Responds("ok")
	_, err := client.Chat.Completions.New(t.Context(), format(strictOptional, false))
	require.NoError(t, err)
	_, err = client.Chat.Completions.New(t.Context(), format(strictGood, true))
	require.NoError(t, err)
}

// A chat function tool with strict: true follows the same rules, refused
// with the tool's param and code invalid_function_parameters.
func TestValidateChatStrictTool(t *testing.T) {
	t.Parallel()
	sess, client := validationSession(t)
	p := e2e.UserTurn("gpt-4.1-mini", "Weather?")
	p.Tools = []openai.ChatCompletionToolUnionParam{
		openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{Name: "lookup", Parameters: schemaOf(t, strictGood), Strict: openai.Bool(true)}),
		openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{Name: "get_weather", Parameters: schemaOf(t, strictOptional), Strict: openai.Bool(true)}),
	}
	_, err := client.Chat.Completions.New(t.Context(), p)
	requireRefused(t, sess, err, "invalid_function_parameters", "tools[1].function.parameters",
		"Invalid schema for function 'get_weather': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'unit'.")

	p.Tools[1] = openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{Name: "get_weather", Parameters: schemaOf(t, strictOptional)})
	got, err := client.Chat.Completions.New(t.Context(), p)
	require.NoError(t, err, "a tool without strict is not checked")
	assert.Equal(t, "ok", got.Choices[0].Message.Content)
}

// The Responses API refuses a strict text.format (param text.format.schema,
// code invalid_json_schema) and a strict function tool (tools[i].parameters,
// invalid_function_parameters) whose schemas break the rules; a function
// tool without strict is not refused, as the API then falls back to
// best-effort calls for a schema it cannot make strict.
func TestValidateResponsesStrictSchemas(t *testing.T) {
	t.Parallel()
	sess, client := validationSession(t)
	params := responses.ResponseNewParams{Model: "gpt-4.1-mini", Input: e2e.InputText("Weather?"),
		Text: responses.ResponseTextConfigParam{Format: responses.ResponseFormatTextConfigUnionParam{
			OfJSONSchema: &responses.ResponseFormatTextJSONSchemaConfigParam{Name: "weather", Schema: schemaOf(t, strictNoAdditonal), Strict: openai.Bool(true)}}}}
	_, err := client.Responses.New(t.Context(), params)
	requireRefused(t, sess, err, "invalid_json_schema", "text.format.schema",
		"Invalid schema for response_format 'weather': In context=(), 'additionalProperties' is required to be supplied and to be false.")

	params = responses.ResponseNewParams{Model: "gpt-4.1-mini", Input: e2e.InputText("Weather?"), Tools: []responses.ToolUnionParam{
		{OfFunction: &responses.FunctionToolParam{Name: "get_weather", Parameters: schemaOf(t, strictOptional), Strict: openai.Bool(true)}}}}
	_, err = client.Responses.New(t.Context(), params)
	requireRefused(t, sess, err, "invalid_function_parameters", "tools[0].parameters",
		"Invalid schema for function 'get_weather': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'unit'.")

	params.Tools[0].OfFunction.Strict = param.Opt[bool]{}
	resp, err := client.Responses.New(t.Context(), params)
	require.NoError(t, err)
	assert.Equal(t, "ok", resp.OutputText())
}

// json_object needs the word json somewhere in the messages (any case);
// without it the real API refuses the request.
func TestValidateJSONObjectNeedsTheWordJSON(t *testing.T) {
	t.Parallel()
	sess, client := validationSession(t)
	p := e2e.UserTurn("gpt-4.1-mini", "List three colors.")
	p.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{OfJSONObject: &shared.ResponseFormatJSONObjectParam{}}
	_, err := client.Chat.Completions.New(t.Context(), p)
	requireRefused(t, sess, err, "", "messages", "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.")

	rp := responses.ResponseNewParams{Model: "gpt-4.1-mini", Input: e2e.InputText("List three colors."),
		Text: responses.ResponseTextConfigParam{Format: responses.ResponseFormatTextConfigUnionParam{OfJSONObject: &shared.ResponseFormatJSONObjectParam{}}}}
	_, err = client.Responses.New(t.Context(), rp)
	requireRefused(t, sess, err, "", "input", "Response input messages must contain the word 'json' in some form to use 'text.format' of type 'json_object'.")

	p.Messages = append([]openai.ChatCompletionMessageParamUnion{openai.SystemMessage("Answer in JSON.")}, p.Messages...)
	_, err = client.Chat.Completions.New(t.Context(), p)
	require.NoError(t, err)
}
