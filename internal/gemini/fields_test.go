package gemini

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The API reads bodies as proto3 JSON: genai sends camelCase, curl users
// and other SDKs snake_case, and both must land in the same typed fields.
func TestDecodeBodyAcceptsBothSpellings(t *testing.T) {
	for name, body := range map[string]string{
		"camelCase": `{"contents":[{"role":"user","parts":[{"text":"hi"}]}],
			"systemInstruction":{"parts":[{"text":"be brief"}]},
			"generationConfig":{"maxOutputTokens":64,"responseMimeType":"application/json",
				"thinkingConfig":{"includeThoughts":true,"thinkingBudget":128}},
			"toolConfig":{"functionCallingConfig":{"mode":"ANY","allowedFunctionNames":["f"]}}}`,
		"snake_case": `{"contents":[{"role":"user","parts":[{"text":"hi"}]}],
			"system_instruction":{"parts":[{"text":"be brief"}]},
			"generation_config":{"max_output_tokens":64,"response_mime_type":"application/json",
				"thinking_config":{"include_thoughts":true,"thinking_budget":128}},
			"tool_config":{"function_calling_config":{"mode":"ANY","allowed_function_names":["f"]}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			req := decodeGenerate(t, body)
			require.NotNil(t, req.SystemInstruction)
			assert.Equal(t, "be brief", textOf(req.SystemInstruction))
			require.NotNil(t, req.GenerationConfig)
			g := req.GenerationConfig
			require.NotNil(t, g.MaxOutputTokens)
			assert.Equal(t, 64, *g.MaxOutputTokens)
			assert.Equal(t, "application/json", g.ResponseMimeType)
			require.NotNil(t, g.ThinkingConfig)
			assert.True(t, g.ThinkingConfig.IncludeThoughts)
			require.NotNil(t, g.ThinkingConfig.ThinkingBudget)
			assert.Equal(t, 128, *g.ThinkingConfig.ThinkingBudget)
			require.NotNil(t, req.ToolConfig)
			require.NotNil(t, req.ToolConfig.FunctionCallingConfig)
			assert.Equal(t, "ANY", req.ToolConfig.FunctionCallingConfig.Mode)
			assert.Equal(t, []string{"f"}, req.ToolConfig.FunctionCallingConfig.AllowedFunctionNames)
		})
	}
}

// normalizeMessage rewrites the body into the one form the typed decoding
// reads: camelCase names, numbers as numbers, enums by name, no nulls.
func TestNormalizeMessageRewrites(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"snake to camel", `{"generation_config":{"top_k":3}}`, `{"generationConfig":{"topK":3}}`},
		{"int as string", `{"generationConfig":{"maxOutputTokens":"100"}}`, `{"generationConfig":{"maxOutputTokens":100}}`},
		{"float as string", `{"generationConfig":{"temperature":" 0.5 "}}`, `{"generationConfig":{"temperature":0.5}}`},
		{"enum by name", `{"toolConfig":{"functionCallingConfig":{"mode":"NONE"}}}`, `{"toolConfig":{"functionCallingConfig":{"mode":"NONE"}}}`},
		{"enum by number", `{"toolConfig":{"functionCallingConfig":{"mode":2}}}`, `{"toolConfig":{"functionCallingConfig":{"mode":"ANY"}}}`},
		{"repeated enum by number", `{"generationConfig":{"responseModalities":[1,"IMAGE"]}}`, `{"generationConfig":{"responseModalities":["TEXT","IMAGE"]}}`},
		{"null dropped", `{"systemInstruction":null,"generationConfig":{"temperature":null,"topK":1}}`, `{"generationConfig":{"topK":1}}`},
		// Structs are free-form: their keys are the caller's, not the
		// proto's, and must not be renamed.
		{"struct keys kept", `{"contents":[{"parts":[{"function_call":{"name":"f","args":{"snake_key":1,"camelKey":null}}}]}]}`,
			`{"contents":[{"parts":[{"functionCall":{"args":{"camelKey":null,"snake_key":1},"name":"f"}}]}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := normalized(t, tc.in, generateRequestMessage)
			require.Nil(t, err)
			assert.JSONEq(t, tc.want, got)
		})
	}
}

// Numbers given as strings reach the typed fields as numbers.
func TestDecodeBodyNumbersAsStrings(t *testing.T) {
	req := decodeGenerate(t, `{"contents":[{"parts":[{"text":"x"}]}],
		"generationConfig":{"maxOutputTokens":"100","temperature":"0.25","topK":"7","candidateCount":"2"}}`)
	g := req.GenerationConfig
	require.NotNil(t, g)
	assert.Equal(t, 100, *g.MaxOutputTokens)
	assert.Equal(t, 0.25, *g.Temperature)
	assert.Equal(t, 7, *g.TopK)
	assert.Equal(t, 2, *g.CandidateCount)
}

// A field given in both spellings is ambiguous: the API refuses it
// rather than pick one.
func TestDecodeBodyRefusesBothSpellings(t *testing.T) {
	for _, body := range []string{
		`{"generationConfig":{},"generation_config":{}}`,
		`{"generationConfig":{"maxOutputTokens":1,"max_output_tokens":2}}`,
	} {
		err := refuse(t, body)
		assert.Equal(t, http.StatusBadRequest, err.Status)
		assert.Contains(t, err.Message, "Invalid JSON payload received. Duplicate field")
	}
}

// Only a field's camelCase (json_name) and snake_case (proto name)
// spellings are its names; anything else is unknown, or two odd
// spellings of one field would silently overwrite each other.
func TestDecodeBodyRefusesOtherSpellings(t *testing.T) {
	for _, tc := range []struct{ body, name string }{
		{`{"generation_Config":{}}`, "generation_Config"},
		{`{"generationConfig_":{}}`, "generationConfig_"},
		{`{"generation__config":{}}`, "generation__config"},
	} {
		err := refuse(t, tc.body)
		assert.Equal(t, `Invalid JSON payload received. Unknown name "`+tc.name+`": Cannot find field.`, err.Message, tc.body)
	}
}

// An unknown field is refused in the transcoder's words, naming where it
// is; at the top level there is no " at '...'" part.
func TestDecodeBodyUnknownField(t *testing.T) {
	for _, tc := range []struct{ body, want, param string }{
		{`{"x":1}`, `Invalid JSON payload received. Unknown name "x": Cannot find field.`, ""},
		{`{"generationConfig":{"x":1}}`, `Invalid JSON payload received. Unknown name "x" at 'generation_config': Cannot find field.`, "generation_config"},
		{`{"generation_config":{"x":1}}`, `Invalid JSON payload received. Unknown name "x" at 'generation_config': Cannot find field.`, "generation_config"},
		{`{"generationConfig":{"thinkingConfig":{"x":1}}}`, `Invalid JSON payload received. Unknown name "x" at 'generation_config.thinking_config': Cannot find field.`, "generation_config.thinking_config"},
		{`{"contents":[{"parts":[{"text":"a"},{"x":1}]}]}`, `Invalid JSON payload received. Unknown name "x" at 'contents[0].parts[1]': Cannot find field.`, "contents[0].parts[1]"},
	} {
		err := refuse(t, tc.body)
		assert.Equal(t, http.StatusBadRequest, err.Status)
		assert.Equal(t, statusInvalidArgument, err.Type)
		assert.Equal(t, tc.want, err.Message, tc.body)
		assert.Equal(t, tc.param, err.Param, tc.body)
	}
}

// Of several unknown fields the first in sorted order is named, so that
// the same body always gets the same error (map order is random).
func TestDecodeBodyUnknownFieldDeterministic(t *testing.T) {
	for range 20 {
		err := refuse(t, `{"zeta":1,"beta":2,"alpha":3,"contents":[]}`)
		assert.Equal(t, `Invalid JSON payload received. Unknown name "alpha": Cannot find field.`, err.Message)
	}
}

// A value of the wrong JSON type is refused with its path (snake_case),
// its proto type and the value as the transcoder quotes it.
func TestDecodeBodyWrongType(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{`{"generationConfig":{"temperature":true}}`, `Invalid value at 'generation_config.temperature' (TYPE_FLOAT), true`},
		{`{"generationConfig":{"maxOutputTokens":"lots"}}`, `Invalid value at 'generation_config.max_output_tokens' (TYPE_INT32), "lots"`},
		{`{"generationConfig":{"maxOutputTokens":1.5}}`, `Invalid value at 'generation_config.max_output_tokens' (TYPE_INT32), 1.5`},
		{`{"generationConfig":{"maxOutputTokens":4294967296}}`, `Invalid value at 'generation_config.max_output_tokens' (TYPE_INT32), 4294967296`},
		{`{"generationConfig":{"stopSequences":"END"}}`, `Invalid value at 'generation_config.stop_sequences' (TYPE_STRING), "END"`},
		{`{"generationConfig":{"thinkingConfig":{"includeThoughts":"yes"}}}`, `Invalid value at 'generation_config.thinking_config.include_thoughts' (TYPE_BOOL), "yes"`},
		{`{"cachedContent":7}`, `Invalid value at 'cached_content' (TYPE_STRING), 7`},
		{`{"contents":[{"role":"user","parts":[{"text":["a"]}]}]}`, `Invalid value at 'contents[0].parts[0].text' (TYPE_STRING), [...]`},
		{`{"contents":[{"parts":[{"functionCall":{"name":"f","args":"{}"}}]}]}`, `Invalid value at 'contents[0].parts[0].function_call.args' (type.googleapis.com/google.protobuf.Struct), "{}"`},
		{`{"generationConfig":[]}`, `Invalid value at 'generation_config' (type.googleapis.com/google.ai.generativelanguage.v1beta.GenerationConfig), [...]`},
		{`{"toolConfig":{"functionCallingConfig":{"mode":"SOMETIMES"}}}`, `Invalid value at 'tool_config.function_calling_config.mode' (type.googleapis.com/google.ai.generativelanguage.v1beta.FunctionCallingConfig.Mode), "SOMETIMES"`},
		{`{"toolConfig":{"functionCallingConfig":{"mode":9}}}`, `Invalid value at 'tool_config.function_calling_config.mode' (type.googleapis.com/google.ai.generativelanguage.v1beta.FunctionCallingConfig.Mode), 9`},
		{`{"labels":{"team":1}}`, `Invalid value at 'labels["team"]' (TYPE_STRING), 1`},
	} {
		err := refuse(t, tc.body)
		assert.Equal(t, http.StatusBadRequest, err.Status, tc.body)
		assert.Equal(t, tc.want, err.Message, tc.body)
	}
}

// A number given as a string that is no JSON number ("+5", "0x10",
// "NaN") must be refused as a wrong value, not pass the check and then
// fail re-encoding with Go's own error text.
func TestDecodeBodyNumberStringsMustBeNumbers(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{`{"generationConfig":{"topK":"+5"}}`, `Invalid value at 'generation_config.top_k' (TYPE_INT32), "+5"`},
		{`{"generationConfig":{"topK":"05"}}`, `Invalid value at 'generation_config.top_k' (TYPE_INT32), "05"`},
		{`{"generationConfig":{"temperature":"0x1p-2"}}`, `Invalid value at 'generation_config.temperature' (TYPE_FLOAT), "0x1p-2"`},
		{`{"generationConfig":{"temperature":"NaN"}}`, `Invalid value at 'generation_config.temperature' (TYPE_FLOAT), "NaN"`},
	} {
		err := refuse(t, tc.body)
		assert.Equal(t, tc.want, err.Message, tc.body)
	}
}

// genai sends no body for some calls: an empty body is the empty message.
func TestDecodeBodyEmpty(t *testing.T) {
	for _, body := range []string{"", "  \n\t"} {
		var req GenerateRequest
		require.Nil(t, decodeBody(context.Background(), []byte(body), generateRequestMessage, &req))
		assert.Empty(t, req.Contents)
		assert.Nil(t, req.GenerationConfig)
	}
}

// A body that is not one JSON object is refused as invalid JSON.
func TestDecodeBodyNotAnObject(t *testing.T) {
	for _, body := range []string{`[]`, `"x"`, `{"contents":[]`, `{} {}`, `nul`} {
		err := refuse(t, body)
		assert.Equal(t, http.StatusBadRequest, err.Status, body)
		assert.Contains(t, err.Message, "Invalid JSON payload received.", body)
	}
}

// A body read after the client went away is not worth an answer: 499.
func TestDecodeBodyCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var req GenerateRequest
	err := decodeBody(ctx, []byte(`{}`), generateRequestMessage, &req)
	require.NotNil(t, err)
	assert.Equal(t, 499, err.Status)
}
