package gemini

import (
	"context"
	"testing"
)

// FuzzGenerateBody feeds arbitrary bodies through the path every
// generateContent takes before the scenario: decoding, validation and
// normalization. None may panic, and every refusal must be the client's
// fault (a 4xx *apierr.Error), never a 500 for a body the server failed
// to read.
func FuzzGenerateBody(f *testing.F) {
	for _, seed := range []string{
		``,
		`{}`,
		`{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`,
		`{"contents":[{"role":"user","parts":[{"text":"weather?"}]},
			{"role":"model","parts":[{"functionCall":{"name":"f","args":{"city":"Paris"}}},{"functionCall":{"name":"g"}}]},
			{"role":"user","parts":[{"functionResponse":{"name":"g","response":{}}},{"functionResponse":{"name":"f","response":{"t":1}}}]}],
			"tools":[{"functionDeclarations":[{"name":"f","parameters":{"type":"OBJECT","properties":{"city":{"type":"STRING"}}}},{"name":"g"}]}],
			"toolConfig":{"functionCallingConfig":{"mode":"ANY","allowedFunctionNames":["f"]}}}`,
		`{"contents":[{"parts":[{"text":"x","thought_signature":"c2ln"}]}],"system_instruction":{"parts":[{"text":"s"}]},
			"generation_config":{"max_output_tokens":"64","temperature":0.2,"candidate_count":2,"response_mime_type":"application/json",
			"response_schema":{"type":"ARRAY","items":{"type":"INTEGER","nullable":true}},"thinking_config":{"include_thoughts":true,"thinking_budget":-1}},
			"labels":{"a":"b"},"safetySettings":[{"category":10,"threshold":"BLOCK_NONE"}]}`,
		`{"contents":[{"parts":[{"inlineData":{"mimeType":"image/png","data":"iVBORw0KGgo="}}]}],"cachedContent":"cachedContents/x"}`,
		`{"contents":[{"role":"tool","parts":[]}]}`,
		`{"contents":"x","generationConfig":{"x":1}}`,
		`{"generationConfig":{},"generation_config":null}`,
		`{"contents":[{"parts":[{"text":null,"functionResponse":{"name":""}}]}]}`,
		`[1,2]`,
		`{"contents":[`,
	} {
		f.Add([]byte(seed))
	}
	info, _ := Lookup("gemini-2.5-flash")
	f.Fuzz(func(t *testing.T, body []byte) {
		var req GenerateRequest
		if err := decodeBody(context.Background(), body, generateRequestMessage, &req); err != nil {
			if err.Status < 400 || err.Status > 499 {
				t.Fatalf("decodeBody(%q): status %d: %v", body, err.Status, err)
			}
			return
		}
		for _, model := range []*ModelInfo{&info, nil} {
			if err := validateGenerate(&req, model); err != nil && (err.Status < 400 || err.Status > 499) {
				t.Fatalf("validateGenerate(%q): status %d: %v", body, err.Status, err)
			}
		}
		_ = req.Normalize("gemini-2.5-flash", false)
		_ = req.Normalize("gemini-2.5-flash", true)
	})
}
