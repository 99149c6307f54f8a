package openai

import (
	"encoding/json"
	"testing"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
)

func responsesFuzzSeeds(f *testing.F) [][]byte {
	marshalSeed := func(v any) []byte {
		b, err := json.Marshal(v)
		if err != nil {
			f.Fatal(err)
		}
		return b
	}
	return [][]byte{
		marshalSeed(responses.ResponseNewParams{Model: "gpt-4.1", Input: responses.ResponseNewParamsInputUnion{OfString: oai.String("hi")},
			Instructions: oai.String("be brief"), Metadata: map[string]string{"a": "b"}}),
		// What go-openai v1.43.0 sends for a tool loop chained to an
		// earlier response (its module is not a dependency here, so the
		// body is kept as it marshalled).
		[]byte(`{"input":[{"role":"user","content":[{"type":"input_text","text":"x"}]},{"arguments":"{}","call_id":"call_1","name":"f","type":"function_call"},{"type":"function_call_output","call_id":"call_1","output":"ok"}],"model":"gpt-4o","previous_response_id":"resp_1","tool_choice":{"name":"f","type":"function"},"tools":[{"name":"f","parameters":{"type":"object"},"type":"function"}]}`),
		[]byte(`{"model":"m","input":[{"role":"assistant","content":[{"type":"output_text","text":"a"},{"type":"refusal","refusal":"r"}]},{"type":"reasoning","id":"rs_1","summary":[]},{"type":"item_reference","id":"msg_9"},{"role":"developer","content":"d"}]}`),
		[]byte(`{"model":"m","input":"x","text":{"format":{"type":"json_schema","name":"s","schema":{"type":"object"},"strict":true},"verbosity":"low"},"reasoning":{"effort":"low"},"conversation":{"id":"conv_1"}}`),
		[]byte(`{"model":"m","input":[{"type":"function_call_output","call_id":"c","output":[{"type":"input_text","text":"t"},{"type":"input_image","image_url":"u"},{"type":"input_file","file_id":"f"}]}]}`),
		[]byte(`{"model":"m","input":[],"previous_response_id":"resp_1","tools":[{"type":"web_search"}],"tool_choice":{"type":"allowed_tools","mode":"auto"},"max_output_tokens":16,"temperature":2,"top_p":0}`),
		[]byte(`{"model":"m","input":[{"type":"message","role":"user","content":[{"type":"input_audio","input_audio":{"data":"x"}}]}],"service_tier":"fast","store":false}`),
		[]byte(`{"model":1}`),
		[]byte(`{"model":"m","input":[{"type":7}]}`),
		[]byte(`{"model":"m","input":"x","metadata":{"k":1}}`),
		[]byte(`[]`),
		[]byte(``),
	}
}

// FuzzDecodeResponsesRequest: decoding never panics; a refusal is a 4xx
// with a type and a message that encodes; an accepted request turns into
// items, validates, normalizes and renders (object and stream) without
// panicking, and its items encode as JSON.
func FuzzDecodeResponsesRequest(f *testing.F) {
	for _, s := range responsesFuzzSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := DecodeResponsesRequest(body)
		if err != nil {
			checkRefusal(t, req != nil, err)
			return
		}
		items := req.InputItems(seqIDs())
		b, merr := json.Marshal(items)
		if merr != nil || !json.Valid(b) {
			t.Fatalf("items do not encode: %v", merr)
		}
		ValidateToolOutputs(items)
		n := NormalizeResponses(req.Model, req.Instructions, items, req)
		if n.Model != req.Model || n.Endpoint != "responses" {
			t.Fatalf("normalized %+v", n)
		}
		req.Normalize().ToolResults()
		pageOf(items, func(it *Item) string { return it.ID }, pageQuery{limit: defaultPageLimit, desc: true}, "no item %s")

		a := &ResponseAnswer{ID: "resp_f", Model: req.Model, MessageID: "msg_f", Text: n.LastUserText(), Request: req,
			Instructions: req.Instructions, Conversation: req.ConversationID()}
		if _, merr := json.Marshal(a.Object()); merr != nil {
			t.Fatalf("object does not encode: %v", merr)
		}
		if s := a.Stream(words, 2); s.Len() < 4 {
			t.Fatalf("stream of %d events", s.Len())
		}
	})
}
