package e2e

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/responses"
)

// InputText is a plain-text Responses input.
func InputText(text string) responses.ResponseNewParamsInputUnion {
	return responses.ResponseNewParamsInputUnion{OfString: openai.String(text)}
}

// InputItems is a Responses input of items.
func InputItems(items ...responses.ResponseInputItemUnionParam) responses.ResponseNewParamsInputUnion {
	return responses.ResponseNewParamsInputUnion{OfInputItemList: responses.ResponseInputParam(items)}
}

// CallOutput is a function_call_output item answering callID.
func CallOutput(callID, output string) responses.ResponseInputItemUnionParam {
	item := responses.ResponseInputItemParamOfFunctionCallOutput(output)
	item.OfFunctionCallOutput.CallID = openai.String(callID)
	return item
}

// CountInputText is the input of an input-token count of plain text.
func CountInputText(text string) responses.InputTokenCountParamsInputUnion {
	return responses.InputTokenCountParamsInputUnion{OfString: openai.String(text)}
}

// WeatherTools offers the get_weather function to a Responses request.
func WeatherTools() []responses.ToolUnionParam {
	return []responses.ToolUnionParam{responses.ToolParamOfFunction("get_weather", map[string]any{
		"type":       "object",
		"properties": map[string]any{"city": map[string]any{"type": "string"}, "unit": map[string]any{"type": "string"}},
		"required":   []string{"city"},
	}, false)}
}

// BigText is about n bytes of cheap-to-tokenize text. Every call returns
// the same text, so that its token count is computed once per process;
// each request still decodes its own copy.
func BigText(n int) string {
	return strings.Repeat("lorem ipsum dolor sit amet ", n/27+1)[:n]
}

// WantInvalidRequest checks that err is openai-go's API error of type
// invalid_request_error with this status, code and param ("" for null),
// and returns it.
func WantInvalidRequest(t testing.TB, what string, err error, status int, code, param string) *openai.Error {
	t.Helper()
	var apiErr *openai.Error
	if !errors.As(err, &apiErr) {
		t.Fatalf("%s: err = %v (%T), want *openai.Error %d", what, err, err, status)
	}
	if apiErr.StatusCode != status || apiErr.Code != code || apiErr.Param != param || apiErr.Type != "invalid_request_error" {
		t.Errorf("%s: error %d type %q code %q param %q (%s), want %d invalid_request_error code %q param %q",
			what, apiErr.StatusCode, apiErr.Type, apiErr.Code, apiErr.Param, apiErr.Message, status, code, param)
	}
	return apiErr
}

// ResponsesStream is what a Responses stream delivered, read with
// openai-go.
type ResponsesStream struct {
	// Types are the events' types, in order.
	Types []string
	// Completed is the response of the response.completed event.
	Completed responses.Response
	// Deltas are the text and argument deltas per item ID, concatenated.
	Deltas map[string]string
}

// CollectResponses reads a whole openai-go Responses stream, checking the
// framing the SDK leaves to its caller: sequence numbers from 0, created
// first, completed last and once, and that every item's deltas add up to
// the item the output_item.done event carries.
func CollectResponses(t testing.TB, stream *ssestream.Stream[responses.ResponseStreamEventUnion]) ResponsesStream {
	t.Helper()
	defer stream.Close()
	s := ResponsesStream{Deltas: map[string]string{}}
	completed := 0
	for stream.Next() {
		ev := stream.Current()
		if ev.SequenceNumber != int64(len(s.Types)) {
			t.Errorf("event %d (%s) has sequence_number %d", len(s.Types), ev.Type, ev.SequenceNumber)
		}
		s.Types = append(s.Types, ev.Type)
		switch e := ev.AsAny().(type) {
		case responses.ResponseTextDeltaEvent:
			s.Deltas[e.ItemID] += e.Delta
		case responses.ResponseFunctionCallArgumentsDeltaEvent:
			s.Deltas[e.ItemID] += e.Delta
		case responses.ResponseOutputItemDoneEvent:
			var whole string
			switch e.Item.Type {
			case "message":
				for _, c := range e.Item.AsMessage().Content {
					whole += c.Text
				}
			case "function_call":
				whole = e.Item.AsFunctionCall().Arguments
			}
			if got := s.Deltas[e.Item.ID]; got != whole {
				t.Errorf("item %s: deltas add up to %q, output_item.done carries %q", e.Item.ID, got, whole)
			}
		case responses.ResponseCompletedEvent:
			completed++
			s.Completed = e.Response
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatalf("stream: %v", err)
	}
	opening := s.Types
	if len(opening) > 1 && opening[1] == "response.queued" {
		opening = opening[1:] // a background response is queued first
	}
	if len(opening) < 3 || s.Types[0] != "response.created" || opening[1] != "response.in_progress" ||
		s.Types[len(s.Types)-1] != "response.completed" || completed != 1 {
		t.Fatalf("event types %v: want response.created, (response.queued,) response.in_progress … one response.completed last", s.Types)
	}
	return s
}

// Respond answers params through openai-go, streamed or not, and returns
// the response object: the body, or the response.completed event's.
func Respond(t testing.TB, client openai.Client, params responses.ResponseNewParams, stream bool) *responses.Response {
	t.Helper()
	if !stream {
		r, err := client.Responses.New(t.Context(), params)
		if err != nil {
			t.Fatalf("Responses.New: %v", err)
		}
		return r
	}
	s := CollectResponses(t, client.Responses.NewStreaming(t.Context(), params))
	return &s.Completed
}

// DecodeObject decodes a response's raw JSON, for comparing the fields
// openai-go does not keep apart from their defaults.
func DecodeObject(t testing.TB, raw string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		t.Fatalf("response %q: %v", raw, err)
	}
	return m
}
