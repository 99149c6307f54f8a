package gemini

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// flash is a model the catalog knows, for the checks against its limits.
func flash(t *testing.T) *ModelInfo {
	t.Helper()
	info, ok := Lookup("models/gemini-2.5-flash")
	require.True(t, ok)
	return &info
}

// The conversation traps a client falls into, each answered with the
// API's 400 and its words (and the field, for the BadRequest detail).
func TestValidateGenerateTraps(t *testing.T) {
	const user = `{"role":"user","parts":[{"text":"hi"}]}`
	for _, tc := range []struct {
		name, body, message, param string
	}{
		{"no contents", `{}`,
			"* GenerateContentRequest.contents: contents is not specified\n", "contents"},
		{"empty contents", `{"contents":[]}`,
			"* GenerateContentRequest.contents: contents is not specified\n", "contents"},
		{"bad role", `{"contents":[{"role":"assistant","parts":[{"text":"hi"}]}]}`,
			"Please use a valid role: user, model.", "contents[0].role"},
		{"system role", `{"contents":[` + user + `,{"role":"system","parts":[{"text":"x"}]}]}`,
			"Please use a valid role: user, model.", "contents[1].role"},
		{"empty parts", `{"contents":[{"role":"user","parts":[]}]}`,
			"* GenerateContentRequest.contents[0].parts: contents.parts must not be empty.\n", "contents[0].parts"},
		{"no parts", `{"contents":[{"role":"user"}]}`,
			"* GenerateContentRequest.contents[0].parts: contents.parts must not be empty.\n", "contents[0].parts"},
		{"part without payload", `{"contents":[{"role":"user","parts":[{"text":"a"},{}]}]}`,
			"* GenerateContentRequest.contents[0].parts[1].data: required oneof field 'data' must have one initialized field\n", "contents[0].parts[1].data"},
		{"part with only null text", `{"contents":[{"parts":[{"text":null}]}]}`,
			"* GenerateContentRequest.contents[0].parts[0].data: required oneof field 'data' must have one initialized field\n", "contents[0].parts[0].data"},
		{"function response first", `{"contents":[{"role":"user","parts":[{"functionResponse":{"name":"f","response":{}}}]}]}`,
			"Please ensure that function response turn comes immediately after a function call turn.", "contents[0]"},
		{"function response after text", `{"contents":[` + user + `,{"role":"model","parts":[{"text":"ok"}]},
			{"role":"user","parts":[{"functionResponse":{"name":"f","response":{}}}]}]}`,
			"Please ensure that function response turn comes immediately after a function call turn.", "contents[2]"},
		{"count mismatch", `{"contents":[` + user + `,
			{"role":"model","parts":[{"functionCall":{"name":"f","args":{}}},{"functionCall":{"name":"g","args":{}}}]},
			{"role":"user","parts":[{"functionResponse":{"name":"f","response":{}}}]}]}`,
			"Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.", "contents[2]"},
		{"bad thought signature", `{"contents":[{"role":"user","parts":[{"text":"hi","thoughtSignature":"not base64!"}]}]}`,
			`Invalid value at 'contents[0].parts[0].thought_signature' (TYPE_BYTES), Base64 decoding failed for "not base64!"`, "contents[0].parts[0].thought_signature"},
		{"bad inline data", `{"contents":[{"parts":[{"inlineData":{"mimeType":"image/png","data":"%%%"}}]}]}`,
			`Invalid value at 'contents[0].parts[0].inline_data.data' (TYPE_BYTES), Base64 decoding failed for "%%%"`, "contents[0].parts[0].inline_data.data"},
		{"call without name", `{"contents":[{"role":"model","parts":[{"functionCall":{"args":{}}}]}]}`,
			"* GenerateContentRequest.contents[0].parts[0].function_call.name: Name cannot be empty.\n", "contents[0].parts[0].function_call.name"},
		{"cached content with system instruction", `{"contents":[` + user + `],"cachedContent":"cachedContents/abc",
			"systemInstruction":{"parts":[{"text":"x"}]}}`,
			"CachedContent can not be used with GenerateContent request setting system_instruction, tools or tool_config.\n\nProposed fix: move those values to CachedContent from GenerateContent request.", "cachedContent"},
		{"cached content with tools", `{"contents":[` + user + `],"cachedContent":"cachedContents/abc",
			"tools":[{"functionDeclarations":[{"name":"f"}]}]}`,
			"CachedContent can not be used with GenerateContent request setting system_instruction, tools or tool_config.\n\nProposed fix: move those values to CachedContent from GenerateContent request.", "cachedContent"},
		{"max output tokens over the limit", `{"contents":[` + user + `],"generationConfig":{"maxOutputTokens":65537}}`,
			"Unable to submit request because it has a maxOutputTokens value of 65537 but the supported range is from 1 (inclusive) to 65537 (exclusive). Update the value and try again.", "generationConfig.maxOutputTokens"},
		{"max output tokens zero", `{"contents":[` + user + `],"generationConfig":{"maxOutputTokens":0}}`,
			"Unable to submit request because it has a maxOutputTokens value of 0 but the supported range is from 1 (inclusive) to 65537 (exclusive). Update the value and try again.", "generationConfig.maxOutputTokens"},
		{"candidate count 0", `{"contents":[` + user + `],"generationConfig":{"candidateCount":0}}`,
			"* GenerateContentRequest.generation_config.candidate_count: must be between 1 and 8\n", "generation_config.candidate_count"},
		{"candidate count 9", `{"contents":[` + user + `],"generationConfig":{"candidateCount":9}}`,
			"* GenerateContentRequest.generation_config.candidate_count: must be between 1 and 8\n", "generation_config.candidate_count"},
		{"bad response mime type", `{"contents":[` + user + `],"generationConfig":{"responseMimeType":"text/html"}}`,
			"* GenerateContentRequest.generation_config.response_mime_type: allowed mimetypes are `text/plain`, `application/json`, `application/xml`, `application/yaml` and `text/x.enum`.\n", "generation_config.response_mime_type"},
		{"schema without json", `{"contents":[` + user + `],"generationConfig":{"responseSchema":{"type":"STRING"}}}`,
			"* GenerateContentRequest.generation_config.response_mime_type: response_mime_type must be application/json or text/x.enum when a response schema is set\n", "generation_config.response_mime_type"},
		{"temperature over 2", `{"contents":[` + user + `],"generationConfig":{"temperature":2.5}}`,
			"Unable to submit request because it has a temperature value of 2.5 but the supported range is from 0 (inclusive) to 2.0001 (exclusive). Update the value and try again.", "generationConfig.temperature"},
		{"budget and level", `{"contents":[` + user + `],"generationConfig":{"thinkingConfig":{"thinkingBudget":100,"thinkingLevel":"LOW"}}}`,
			"* GenerateContentRequest.generation_config.thinking_config: You can only set only one of thinking budget and thinking level.\n", "generation_config.thinking_config"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := validateGenerate(decodeGenerate(t, tc.body), flash(t))
			require.NotNil(t, err)
			assert.Equal(t, http.StatusBadRequest, err.Status)
			assert.Equal(t, statusInvalidArgument, err.Type)
			assert.Equal(t, tc.message, err.Message)
			assert.Equal(t, tc.param, err.Param)
		})
	}
}

// Well-formed requests pass: a tool round trip, candidates at the bounds,
// the largest maxOutputTokens, a schema with JSON.
func TestValidateGenerateAccepts(t *testing.T) {
	for name, body := range map[string]string{
		"text": `{"contents":[{"parts":[{"text":"hi"}]}]}`,
		"tool round trip": `{"contents":[{"role":"user","parts":[{"text":"weather?"}]},
			{"role":"model","parts":[{"functionCall":{"name":"f","args":{}}},{"functionCall":{"name":"g","args":{}}}]},
			{"role":"user","parts":[{"functionResponse":{"name":"g","response":{}}},{"functionResponse":{"name":"f","response":{}}}]}],
			"tools":[{"functionDeclarations":[{"name":"f"},{"name":"g"}]}]}`,
		"signature std base64": `{"contents":[{"role":"model","parts":[{"text":"x","thoughtSignature":"c2lnbmF0dXJl"}]}]}`,
		"signature url base64": `{"contents":[{"role":"model","parts":[{"text":"x","thoughtSignature":"-_-_"}]}]}`,
		"candidates 1":         `{"contents":[{"parts":[{"text":"hi"}]}],"generationConfig":{"candidateCount":1}}`,
		"candidates 8":         `{"contents":[{"parts":[{"text":"hi"}]}],"generationConfig":{"candidateCount":8}}`,
		"max output tokens":    `{"contents":[{"parts":[{"text":"hi"}]}],"generationConfig":{"maxOutputTokens":65536}}`,
		"schema": `{"contents":[{"parts":[{"text":"hi"}]}],
			"generationConfig":{"responseMimeType":"application/json","responseSchema":{"type":"STRING"}}}`,
		"cached content alone": `{"contents":[{"parts":[{"text":"hi"}]}],"cachedContent":"cachedContents/abc"}`,
		// §7.3 of the wire notes: genai sends these, and the API takes them.
		"document metadata": `{"contents":[{"parts":[{"fileData":{"mimeType":"application/pdf","fileUri":"gs://b/d.pdf"},
			"documentMetadata":{"startPage":1,"endPage":2}},{"text":"summarize"}]}]}`,
		"empty generation config": `{"contents":[{"parts":[{"text":"hi"}]}],"generationConfig":{}}`,
		"two model turns in a row": `{"contents":[{"role":"user","parts":[{"text":"hi"}]},
			{"role":"model","parts":[{"text":"one"}]},{"role":"model","parts":[{"text":"two"}]},
			{"role":"user","parts":[{"text":"and?"}]}]}`,
	} {
		t.Run(name, func(t *testing.T) {
			assert.Nil(t, validateGenerate(decodeGenerate(t, body), flash(t)))
		})
	}
}

// A model the catalog does not know has no limits to check against.
func TestValidateGenerateUnknownModel(t *testing.T) {
	req := decodeGenerate(t, `{"contents":[{"parts":[{"text":"hi"}]}],"generationConfig":{"maxOutputTokens":10000000}}`)
	assert.Nil(t, validateGenerate(req, nil))
}

// countTokens takes no contents at all (a count of nothing); generate
// requires them.
func TestValidateContentsOptional(t *testing.T) {
	assert.Nil(t, validateContents("CountTokensRequest", nil, false))
	err := validateContents("CountTokensRequest", nil, true)
	require.NotNil(t, err)
	assert.Equal(t, "* CountTokensRequest.contents: contents is not specified\n", err.Message)
}
