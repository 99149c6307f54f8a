package llmtest_test

// Helpers of the tests here that call the OpenAI APIs on their way to
// their own subject (forks, idempotency, the journal, inspection, admin
// scenarios, conversation tracking). The codec's fidelity tests they came
// with moved to internal/openai (package openai_test), which keeps its own
// copies.

import (
	"errors"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/responses"
	"github.com/stretchr/testify/require"
)

// rsModel is the model the Responses tests talk to.
const rsModel = "gpt-4.1-mini"

// rsString is a plain-text input.
func rsString(text string) responses.ResponseNewParamsInputUnion {
	return responses.ResponseNewParamsInputUnion{OfString: openai.String(text)}
}

// rsWeatherTools offers the get_weather function.
func rsWeatherTools() []responses.ToolUnionParam {
	return []responses.ToolUnionParam{responses.ToolParamOfFunction("get_weather", map[string]any{
		"type":       "object",
		"properties": map[string]any{"city": map[string]any{"type": "string"}, "unit": map[string]any{"type": "string"}},
		"required":   []string{"city"},
	}, false)}
}

// rsWantError checks that err is openai-go's API error with this status,
// code and param ("" for null).
func rsWantError(t *testing.T, what string, err error, status int, code, param string) *openai.Error {
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

// rsStreamed is what a Responses stream delivered, read with openai-go.
type rsStreamed struct {
	types     []string
	completed responses.Response
	// deltas are the text and argument deltas per item ID, concatenated.
	deltas map[string]string
}

// rsCollect reads a whole openai-go Responses stream, checking the framing
// the SDK leaves to its caller: sequence numbers from 0, created first,
// completed last and once, and that every item's deltas add up to the item
// the output_item.done event carries.
func rsCollect(t *testing.T, stream *ssestream.Stream[responses.ResponseStreamEventUnion]) rsStreamed {
	t.Helper()
	defer stream.Close()
	s := rsStreamed{deltas: map[string]string{}}
	completed := 0
	for stream.Next() {
		ev := stream.Current()
		if ev.SequenceNumber != int64(len(s.types)) {
			t.Errorf("event %d (%s) has sequence_number %d", len(s.types), ev.Type, ev.SequenceNumber)
		}
		s.types = append(s.types, ev.Type)
		switch e := ev.AsAny().(type) {
		case responses.ResponseTextDeltaEvent:
			s.deltas[e.ItemID] += e.Delta
		case responses.ResponseFunctionCallArgumentsDeltaEvent:
			s.deltas[e.ItemID] += e.Delta
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
			if got := s.deltas[e.Item.ID]; got != whole {
				t.Errorf("item %s: deltas add up to %q, output_item.done carries %q", e.Item.ID, got, whole)
			}
		case responses.ResponseCompletedEvent:
			completed++
			s.completed = e.Response
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatalf("stream: %v", err)
	}
	if len(s.types) < 3 || s.types[0] != "response.created" || s.types[1] != "response.in_progress" ||
		s.types[len(s.types)-1] != "response.completed" || completed != 1 {
		t.Fatalf("event types %v: want response.created, response.in_progress … one response.completed last", s.types)
	}
	return s
}

// rsRespond answers params through openai-go, streamed or not, and returns
// the response object: the body, or the response.completed event's.
func rsRespond(t *testing.T, client openai.Client, params responses.ResponseNewParams, stream bool) *responses.Response {
	t.Helper()
	if !stream {
		r, err := client.Responses.New(t.Context(), params)
		if err != nil {
			t.Fatalf("Responses.New: %v", err)
		}
		return r
	}
	s := rsCollect(t, client.Responses.NewStreaming(t.Context(), params))
	return &s.completed
}

// countString is the count parameters of a plain-text input.
func countString(text string) responses.InputTokenCountParamsInputUnion {
	return responses.InputTokenCountParamsInputUnion{OfString: openai.String(text)}
}

// bigText is about n bytes of cheap-to-tokenize text. Every call returns
// the same text, so that its token count is computed once per process;
// each request still decodes its own copy.
func bigText(n int) string {
	return strings.Repeat("lorem ipsum dolor sit amet ", n/27+1)[:n]
}

// openaiError requires err to be an *openai.Error and returns it.
func openaiError(t *testing.T, err error) *openai.Error {
	t.Helper()
	require.Error(t, err)
	var apiErr *openai.Error
	require.True(t, errors.As(err, &apiErr), "error %v (%T) is not an *openai.Error", err, err)
	return apiErr
}

func ogTool(name string) openai.ChatCompletionToolUnionParam {
	return openai.ChatCompletionFunctionTool(openai.FunctionDefinitionParam{Name: name})
}
