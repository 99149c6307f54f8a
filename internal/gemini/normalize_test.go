package gemini

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// Before Gemini 3 the API's calls and responses carry no ids: Normalize
// gives each call one from its place and pairs each response with the
// call of its name in the previous model turn, whatever the order the
// responses come in, so that scenarios see the same tool messages as for
// an OpenAI conversation.
func TestNormalizePairsResponsesByName(t *testing.T) {
	req := decodeGenerate(t, `{"contents":[
		{"role":"user","parts":[{"text":"weather and time?"}]},
		{"role":"model","parts":[{"functionCall":{"name":"get_weather","args":{"city":"Paris"}}},{"functionCall":{"name":"get_time","args":{}}}]},
		{"role":"user","parts":[{"functionResponse":{"name":"get_time","response":{"t":"noon"}}},{"functionResponse":{"name":"get_weather","response":{"w":"sun"}}}]}]}`)
	n := req.Normalize("gemini-2.5-flash", false)
	assert.Equal(t, scenario.EndpointGenerateContent, n.Endpoint)
	assert.Equal(t, "gemini-2.5-flash", n.Model)
	require.Len(t, n.Messages, 4, "user, assistant, and one tool message per response; no empty user message")

	assert.Equal(t, "user", n.Messages[0].Role)
	assert.Equal(t, "weather and time?", n.Messages[0].Content)

	a := n.Messages[1]
	assert.Equal(t, "assistant", a.Role)
	assert.Equal(t, []scenario.ToolCall{
		{ID: "call-1-0", Name: "get_weather", Arguments: `{"city":"Paris"}`},
		{ID: "call-1-1", Name: "get_time", Arguments: `{}`},
	}, a.ToolCalls)

	assert.Equal(t, scenario.Message{Role: "tool", Name: "get_time", ToolCallID: "call-1-1", Content: `{"t":"noon"}`}, n.Messages[2])
	assert.Equal(t, scenario.Message{Role: "tool", Name: "get_weather", ToolCallID: "call-1-0", Content: `{"w":"sun"}`}, n.Messages[3])
}

// Two calls of the same function are answered in order; a response
// whose name matches no call takes the first call not yet answered.
func TestNormalizePairsSameNameInOrder(t *testing.T) {
	req := decodeGenerate(t, `{"contents":[
		{"role":"user","parts":[{"text":"go"}]},
		{"role":"model","parts":[{"functionCall":{"name":"f"}},{"functionCall":{"name":"f"}},{"functionCall":{"name":"g"}}]},
		{"role":"user","parts":[{"functionResponse":{"name":"f","response":{}}},{"functionResponse":{"name":"h","response":{}}},{"functionResponse":{"name":"f","response":{}}}]}]}`)
	n := req.Normalize("m", false)
	require.Len(t, n.Messages, 5)
	assert.Equal(t, "call-1-0", n.Messages[2].ToolCallID)
	assert.Equal(t, "call-1-1", n.Messages[3].ToolCallID, "h matches nothing: the first unanswered call")
	assert.Equal(t, "call-1-2", n.Messages[4].ToolCallID, "the second f finds the f calls answered")
}

// Gemini 3's calls and responses carry ids: they are kept as given.
func TestNormalizeKeepsIDs(t *testing.T) {
	req := decodeGenerate(t, `{"contents":[
		{"role":"user","parts":[{"text":"go"}]},
		{"role":"model","parts":[{"functionCall":{"id":"a1","name":"f","args":{}}},{"functionCall":{"id":"b2","name":"g","args":{}}}]},
		{"role":"user","parts":[{"functionResponse":{"id":"b2","name":"g","response":{}}},{"functionResponse":{"id":"a1","name":"f","response":{}}},{"text":"and?"}]}]}`)
	n := req.Normalize("m", true)
	assert.True(t, n.Stream)
	require.Len(t, n.Messages, 5)
	assert.Equal(t, "a1", n.Messages[1].ToolCalls[0].ID)
	assert.Equal(t, "b2", n.Messages[1].ToolCalls[1].ID)
	assert.Equal(t, "b2", n.Messages[2].ToolCallID)
	assert.Equal(t, "a1", n.Messages[3].ToolCallID)
	assert.Equal(t, scenario.Message{Role: "user", Content: "and?"}, n.Messages[4], "the turn's text follows its responses")
}

// A response without an id answers a call that has one by name.
func TestNormalizePairsIDlessResponseToCallID(t *testing.T) {
	req := decodeGenerate(t, `{"contents":[
		{"role":"user","parts":[{"text":"go"}]},
		{"role":"model","parts":[{"functionCall":{"id":"a1","name":"f"}},{"functionCall":{"id":"b2","name":"g"}}]},
		{"role":"user","parts":[{"functionResponse":{"name":"g","response":{}}},{"functionResponse":{"name":"f","response":{}}}]}]}`)
	n := req.Normalize("m", false)
	require.Len(t, n.Messages, 4)
	assert.Equal(t, "b2", n.Messages[2].ToolCallID)
	assert.Equal(t, "a1", n.Messages[3].ToolCallID)
}

// functionCallingConfig's modes are the neutral tool choice.
func TestNormalizeToolConfig(t *testing.T) {
	for _, tc := range []struct{ name, config, want string }{
		{"ANY with one name", `{"mode":"ANY","allowedFunctionNames":["get_weather"]}`, "get_weather"},
		{"ANY", `{"mode":"ANY"}`, "required"},
		{"ANY with two names", `{"mode":"ANY","allowedFunctionNames":["a","b"]}`, "required"},
		{"ANY by number", `{"mode":2}`, "required"},
		{"NONE", `{"mode":"NONE"}`, "none"},
		{"AUTO", `{"mode":"AUTO"}`, "auto"},
		{"VALIDATED", `{"mode":"VALIDATED"}`, "auto"},
		{"unspecified", `{}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := decodeGenerate(t, `{"contents":[{"parts":[{"text":"x"}]}],"toolConfig":{"functionCallingConfig":`+tc.config+`}}`)
			assert.Equal(t, tc.want, req.Normalize("m", false).ToolChoice)
		})
	}
}

// responseSchema is the API's OpenAPI subset (upper-case types,
// nullable, propertyOrdering): scenarios and the schema checker see it
// as lower-case JSON Schema.
func TestNormalizeResponseSchema(t *testing.T) {
	req := decodeGenerate(t, `{"contents":[{"parts":[{"text":"x"}]}],"generationConfig":{"responseMimeType":"application/json",
		"responseSchema":{"type":"OBJECT","properties":{
			"name":{"type":"STRING","format":"email"},
			"tags":{"type":"ARRAY","items":{"type":"STRING","enum":["A","B"]}},
			"n":{"type":"INTEGER"}},
		"required":["name"],"propertyOrdering":["name","tags","n"]}}}`)
	n := req.Normalize("m", false)
	require.NotNil(t, n.ResponseFormat)
	assert.Equal(t, "json_schema", n.ResponseFormat.Type)
	assert.True(t, n.ResponseFormat.Strict)
	assert.JSONEq(t, `{"type":"object","properties":{
		"name":{"type":"string","format":"email"},
		"tags":{"type":"array","items":{"type":"string","enum":["A","B"]}},
		"n":{"type":"integer"}},
		"required":["name"]}`, string(n.ResponseFormat.Schema))
}

// The properties of a schema are named by the caller: a property called
// "type", "title" or "example" is a schema like any other, to lower, and
// not a keyword to keep or drop.
func TestNormalizeResponseSchemaPropertyNames(t *testing.T) {
	req := decodeGenerate(t, `{"contents":[{"parts":[{"text":"x"}]}],"generationConfig":{"responseMimeType":"application/json",
		"responseSchema":{"type":"OBJECT","properties":{
			"type":{"type":"STRING"},"title":{"type":"STRING"},"example":{"type":"INTEGER"}}}}}`)
	n := req.Normalize("m", false)
	require.NotNil(t, n.ResponseFormat)
	assert.JSONEq(t, `{"type":"object","properties":{
		"type":{"type":"string"},"title":{"type":"string"},"example":{"type":"integer"}}}`, string(n.ResponseFormat.Schema))
}

// Function parameters are lowered the same way; parametersJsonSchema is
// JSON Schema already and passed as given.
func TestNormalizeToolParameters(t *testing.T) {
	req := decodeGenerate(t, `{"contents":[{"parts":[{"text":"x"}]}],"tools":[{"functionDeclarations":[
		{"name":"f","description":"d","parameters":{"type":"OBJECT","properties":{"q":{"type":"STRING"}}}},
		{"name":"g","parametersJsonSchema":{"type":"object","properties":{"Q":{"type":"string"}}}}]}]}`)
	n := req.Normalize("m", false)
	require.Len(t, n.Tools, 2)
	assert.Equal(t, "f", n.Tools[0].Name)
	assert.Equal(t, "d", n.Tools[0].Description)
	assert.JSONEq(t, `{"type":"object","properties":{"q":{"type":"string"}}}`, string(n.Tools[0].Parameters))
	assert.JSONEq(t, `{"type":"object","properties":{"Q":{"type":"string"}}}`, string(n.Tools[1].Parameters))
}

// The rest of the request: the system instruction's text, the sampling
// settings, JSON without a schema, labels as metadata.
func TestNormalizeConfig(t *testing.T) {
	req := decodeGenerate(t, `{"contents":[{"parts":[{"text":"x"}]}],
		"systemInstruction":{"parts":[{"text":"one"},{"text":"two"}]},
		"generationConfig":{"temperature":0.5,"topP":0.9,"maxOutputTokens":99,"stopSequences":["END"],"responseMimeType":"application/json"},
		"labels":{"team":"a"}}`)
	n := req.Normalize("m", false)
	assert.Equal(t, "one\ntwo", n.System)
	require.NotNil(t, n.Temperature)
	assert.Equal(t, 0.5, *n.Temperature)
	require.NotNil(t, n.TopP)
	assert.Equal(t, 0.9, *n.TopP)
	assert.Equal(t, 99, n.MaxOutputTokens)
	assert.Equal(t, []string{"END"}, n.StopSequences)
	require.NotNil(t, n.ResponseFormat)
	assert.Equal(t, "json_object", n.ResponseFormat.Type)
	assert.Equal(t, map[string]string{"team": "a"}, n.Metadata)

	// Plain text asks for no format.
	req = decodeGenerate(t, `{"contents":[{"parts":[{"text":"x"}]}],"generationConfig":{"responseMimeType":"text/plain"}}`)
	assert.Nil(t, req.Normalize("m", false).ResponseFormat)
}
