package gemini

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// Normalize turns the request into the form scenarios see, the same as
// the equivalent OpenAI conversation's: systemInstruction is System; a
// user content is a user message, each of its functionResponse parts a
// "tool" message before the rest; a model content is an assistant
// message with its functionCall parts as tool calls. A call without an
// id (the API's calls have none before Gemini 3) gets one from its place
// in the conversation, and its response, which has none either, the same
// one, paired by name within the turn. It leaves Conversation, Generation
// and Turn to the runtime.
func (r *GenerateRequest) Normalize(model string, stream bool) *scenario.Request {
	n := &scenario.Request{Endpoint: scenario.EndpointGenerateContent, Model: model, Stream: stream,
		Messages: make([]scenario.Message, 0, len(r.Contents))}
	if r.SystemInstruction != nil {
		n.System = textOf(r.SystemInstruction)
	}
	var calls []scenario.ToolCall // the previous model turn's calls
	for i := range r.Contents {
		c := &r.Contents[i]
		if c.Role == "model" {
			m := scenario.Message{Role: "assistant", Content: textOf(c)}
			for j := range c.Parts {
				if fc := c.Parts[j].FunctionCall; fc != nil {
					m.ToolCalls = append(m.ToolCalls, scenario.ToolCall{ID: callID(fc.ID, i, j), Name: fc.Name, Arguments: args(fc.Args)})
				}
			}
			calls = m.ToolCalls
			n.Messages = append(n.Messages, m)
			continue
		}
		answered := make([]bool, len(calls))
		for j := range c.Parts {
			if fr := c.Parts[j].FunctionResponse; fr != nil {
				n.Messages = append(n.Messages, scenario.Message{Role: "tool", Name: fr.Name,
					ToolCallID: pairCall(fr, calls, answered), Content: compact(fr.Response)})
			}
		}
		calls = nil
		if text := textOf(c); text != "" || !hasFunctionResponse(c) {
			n.Messages = append(n.Messages, scenario.Message{Role: "user", Content: text})
		}
	}
	for i := range r.Tools {
		for _, d := range r.Tools[i].FunctionDeclarations {
			params := d.ParametersJSONSchema
			if len(params) == 0 {
				params = lowerSchema(d.Parameters)
			}
			n.Tools = append(n.Tools, scenario.Tool{Name: d.Name, Description: d.Description, Parameters: params})
		}
	}
	if tc := r.ToolConfig; tc != nil && tc.FunctionCallingConfig != nil {
		fc := tc.FunctionCallingConfig
		switch fc.Mode {
		case "ANY":
			n.ToolChoice = "required"
			if len(fc.AllowedFunctionNames) == 1 {
				n.ToolChoice = fc.AllowedFunctionNames[0]
			}
		case "NONE":
			n.ToolChoice = "none"
		case "AUTO", "VALIDATED":
			n.ToolChoice = "auto"
		}
	}
	if g := r.GenerationConfig; g != nil {
		n.Temperature, n.TopP, n.StopSequences = g.Temperature, g.TopP, g.StopSequences
		if g.MaxOutputTokens != nil {
			n.MaxOutputTokens = *g.MaxOutputTokens
		}
		n.ResponseFormat = responseFormat(g)
	}
	if len(r.Labels) > 0 {
		n.Metadata = r.Labels
	}
	return n
}

func hasFunctionResponse(c *Content) bool {
	return countParts(c, func(p *Part) bool { return p.FunctionResponse != nil }) > 0
}

// callID is a call's own id, or one made of its place: content i, part j.
func callID(id string, i, j int) string {
	if id != "" {
		return id
	}
	return "call-" + strconv.Itoa(i) + "-" + strconv.Itoa(j)
}

// pairCall is the ID of the call fr answers: the one its id names, else
// the first call of that name not yet answered, else the first not yet
// answered.
func pairCall(fr *FunctionResponse, calls []scenario.ToolCall, answered []bool) string {
	if fr.ID != "" {
		return fr.ID
	}
	pick := -1
	for k, c := range calls {
		if !answered[k] && c.Name == fr.Name {
			pick = k
			break
		}
	}
	for k := range calls {
		if pick < 0 && !answered[k] {
			pick = k
		}
	}
	if pick < 0 {
		return ""
	}
	answered[pick] = true
	return calls[pick].ID
}

// args is a call's arguments as the JSON text scenarios see.
func args(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "{}"
	}
	return compact(raw)
}

func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// responseFormat is the structured output generationConfig asks for:
// JSON with a schema (responseJsonSchema as given, responseSchema with
// its OpenAPI types in lower case), JSON without one, or nil for text.
func responseFormat(g *GenerationConfig) *scenario.ResponseFormat {
	if g.ResponseMimeType != "application/json" {
		return nil
	}
	switch {
	case len(g.ResponseJSONSchema) > 0:
		return &scenario.ResponseFormat{Type: "json_schema", Schema: g.ResponseJSONSchema, Strict: true}
	case len(g.ResponseSchema) > 0:
		return &scenario.ResponseFormat{Type: "json_schema", Schema: lowerSchema(g.ResponseSchema), Strict: true}
	}
	return &scenario.ResponseFormat{Type: "json_object"}
}

// lowerSchema rewrites an OpenAPI-subset Schema (types in upper case,
// nullable) as the JSON Schema the schema checker reads.
func lowerSchema(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return raw
	}
	out, err := json.Marshal(lowerTypes(v))
	if err != nil {
		return raw
	}
	return out
}

// lowerTypes rewrites one schema: its type in lower case, the OpenAPI
// keywords JSON Schema lacks dropped (nullable widens the type to null),
// and its subschemas the same way. The keys under properties are names,
// not keywords: each value there is a schema of its own.
func lowerTypes(v any) any {
	switch v := v.(type) {
	case map[string]any:
		nullable, _ := v["nullable"].(bool)
		delete(v, "nullable")
		delete(v, "propertyOrdering")
		delete(v, "example")
		if s, ok := v["type"].(string); ok {
			v["type"] = strings.ToLower(s)
			if nullable {
				v["type"] = []any{strings.ToLower(s), "null"}
			}
		}
		if props, ok := v["properties"].(map[string]any); ok {
			for name, schema := range props {
				props[name] = lowerTypes(schema)
			}
		}
		for _, k := range []string{"items", "anyOf", "oneOf", "allOf", "not", "additionalProperties"} {
			if sub, ok := v[k]; ok {
				v[k] = lowerTypes(sub)
			}
		}
		return v
	case []any:
		for i := range v {
			v[i] = lowerTypes(v[i])
		}
	}
	return v
}
