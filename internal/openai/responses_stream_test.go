package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	oai "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
)

// sseEvent is one parsed Responses event.
type sseEvent struct {
	name string
	data map[string]json.RawMessage
	raw  []byte
}

// responseEvents parses a stream, checking its framing: event and data
// lines, a blank line after each event, sequence numbers from 0, the type
// matching the event name, no top-level error key, no [DONE].
func responseEvents(t *testing.T, s *SSE) []sseEvent {
	t.Helper()
	if len(s.Ends) == 0 || s.Ends[len(s.Ends)-1] != len(s.Body) || !bytes.HasSuffix(s.Body, []byte("}\n\n")) || bytes.Contains(s.Body, []byte("[DONE]")) {
		t.Fatalf("stream does not end with an event and a blank line: %q", s.Body)
	}
	var out []sseEvent
	for i := range s.Len() {
		ev := string(s.Event(i))
		lines := strings.Split(strings.TrimSuffix(ev, "\n\n"), "\n")
		if len(lines) != 2 || !strings.HasPrefix(lines[0], "event: ") || !strings.HasPrefix(lines[1], "data: ") || !strings.HasSuffix(ev, "\n\n") {
			t.Fatalf("event %d is not an event line, a data line and a blank line: %q", i, ev)
		}
		e := sseEvent{name: strings.TrimPrefix(lines[0], "event: "), raw: []byte(strings.TrimPrefix(lines[1], "data: "))}
		if err := json.Unmarshal(e.raw, &e.data); err != nil {
			t.Fatalf("event %d data: %v", i, err)
		}
		if string(e.data["type"]) != strconv.Quote(e.name) || string(e.data["sequence_number"]) != strconv.Itoa(i) {
			t.Errorf("event %d: type %s sequence_number %s under event %q", i, e.data["type"], e.data["sequence_number"], e.name)
		}
		if _, has := e.data["error"]; has {
			t.Errorf("event %d has a top-level error key: %s", i, e.raw)
		}
		out = append(out, e)
	}
	return out
}

func eventNames(evs []sseEvent) []string {
	names := make([]string, len(evs))
	for i, e := range evs {
		names[i] = e.name
	}
	return names
}

// The event sequences of a text answer, a refusal, tool calls after text,
// an incomplete answer and a failure.
func TestResponseStreamShape(t *testing.T) {
	a := testAnswer(nil)
	a.Text = "one two three"
	evs := responseEvents(t, a.Stream(words, 2))
	equal(t, "text events", eventNames(evs), []string{"response.created", "response.in_progress",
		"response.output_item.added", "response.content_part.added", "response.output_text.delta", "response.output_text.delta",
		"response.output_text.done", "response.content_part.done", "response.output_item.done", "response.completed"})
	jsonEqual(t, "created", evs[0].data["response"], string(marshal(t, func() *ResponseObject {
		o := a.Object()
		o.Status, o.Output, o.Usage, o.CompletedAt = "in_progress", []Item{}, nil, nil
		o.ServiceTier = "auto" // resolved only at completion
		return o
	}())))
	jsonEqual(t, "in_progress", evs[1].data["response"], string(evs[0].data["response"]))
	jsonEqual(t, "item added", evs[2].raw, `{"type":"response.output_item.added","sequence_number":2,"output_index":0,
		"item":{"type":"message","id":"msg_1","status":"in_progress","role":"assistant","content":[]}}`)
	jsonEqual(t, "part added", evs[3].raw, `{"type":"response.content_part.added","sequence_number":3,"item_id":"msg_1","output_index":0,"content_index":0,
		"part":{"type":"output_text","annotations":[],"logprobs":[],"text":""}}`)
	jsonEqual(t, "delta", evs[4].raw, `{"type":"response.output_text.delta","sequence_number":4,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"one two ","logprobs":[],
		"obfuscation":"`+obfuscation("msg_1", 4, "one two ")+`"}`)
	jsonEqual(t, "text done", evs[6].raw, `{"type":"response.output_text.done","sequence_number":6,"item_id":"msg_1","output_index":0,"content_index":0,"text":"one two three","logprobs":[]}`)
	jsonEqual(t, "part done", evs[7].data["part"], `{"type":"output_text","annotations":[],"logprobs":[],"text":"one two three"}`)
	jsonEqual(t, "completed", evs[9].data["response"], string(marshal(t, a.Object())))

	r := testAnswer(nil)
	r.Refusal = "No."
	equal(t, "refusal events", eventNames(responseEvents(t, r.Stream(nil, 1)))[3:7], []string{"response.content_part.added",
		"response.refusal.delta", "response.refusal.done", "response.content_part.done"})

	c := testAnswer(nil)
	c.Text, c.ToolCalls = "Hm.", weatherCalls
	evs = responseEvents(t, c.Stream(bytewise, 4))
	names := eventNames(evs)
	if names[8] != "response.output_item.added" || names[len(names)-1] != "response.completed" {
		t.Errorf("tool events %v", names)
	}
	jsonEqual(t, "call added", evs[8].raw, `{"type":"response.output_item.added","sequence_number":8,"output_index":1,
		"item":{"type":"function_call","id":"fc_1","status":"in_progress","call_id":"call_A","name":"get_weather","arguments":""}}`)
	jsonEqual(t, "arguments delta", evs[9].raw, `{"type":"response.function_call_arguments.delta","sequence_number":9,"item_id":"fc_1","output_index":1,"delta":"{\"ci",
		"obfuscation":"`+obfuscation("fc_1", 9, `{"ci`)+`"}`)
	args := map[string]string{}
	for _, e := range evs {
		var p struct {
			ItemID      string `json:"item_id"`
			OutputIndex int    `json:"output_index"`
			Delta       string `json:"delta"`
			Arguments   string `json:"arguments"`
		}
		json.Unmarshal(e.raw, &p)
		switch e.name {
		case "response.function_call_arguments.delta":
			args[p.ItemID] += p.Delta
		case "response.function_call_arguments.done":
			if args[p.ItemID] != p.Arguments {
				t.Errorf("deltas of %s = %q, done says %q", p.ItemID, args[p.ItemID], p.Arguments)
			}
		}
	}
	equal(t, "reassembled arguments", args, map[string]string{"fc_1": weatherCalls[0].Arguments, "fc_2": weatherCalls[1].Arguments})

	inc := testAnswer(nil)
	inc.Text, inc.FinishReason = "cut", "length"
	evs = responseEvents(t, inc.Stream(nil, 1))
	last := evs[len(evs)-1]
	if last.name != "response.incomplete" || !bytes.Contains(last.data["response"], []byte(`"incomplete_details":{"reason":"max_output_tokens"}`)) {
		t.Errorf("incomplete terminal %s", last.raw)
	}
	jsonEqual(t, "incomplete terminal", last.data["response"], string(marshal(t, inc.Object())))

	failing := testAnswer(nil)
	failing.Failure = &ResponseError{Code: "server_error", Message: "The server had an error."}
	evs = responseEvents(t, failing.Stream(nil, 1))
	equal(t, "failed events", eventNames(evs), []string{"response.created", "response.in_progress", "response.failed"})
	if !bytes.Contains(evs[2].data["response"], []byte(`"status":"failed"`)) || !bytes.Contains(evs[2].data["response"], []byte(`"error":{"code":"server_error","message":"The server had an error."}`)) {
		t.Errorf("failed event %s", evs[2].raw)
	}

	empty := responseEvents(t, testAnswer(nil).Stream(nil, 1))
	if len(empty) != 8 || empty[4].name != "response.output_text.done" {
		t.Errorf("empty answer events %v", eventNames(empty))
	}
}

// openai-go's NewStreaming: every event decodes to its variant, text deltas
// and argument deltas rebuild the answer, and the completed event's
// response is the object.
func TestResponseStreamOpenAIGo(t *testing.T) {
	for _, tt := range []struct {
		name string
		edit func(*ResponseAnswer)
	}{
		{"text", func(a *ResponseAnswer) { a.Text = "héllo wörld ✓ <ok> & done" }},
		{"tools", func(a *ResponseAnswer) { a.ToolCalls = weatherCalls }},
		{"text and tools", func(a *ResponseAnswer) { a.Text, a.ToolCalls = "Let me check.", weatherCalls }},
		{"refusal", func(a *ResponseAnswer) { a.Refusal = "I can’t do that." }},
		{"incomplete", func(a *ResponseAnswer) { a.Text, a.FinishReason = "cut off", "length" }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := testAnswer(nil)
			tt.edit(a)
			srv := serve(t, a.Stream(bytewise, 3).Body)
			client := oai.NewClient(option.WithBaseURL(srv.URL+"/v1"), option.WithAPIKey("sk-test"), option.WithMaxRetries(0))
			stream := client.Responses.NewStreaming(context.Background(), responses.ResponseNewParams{Model: "gpt-4.1",
				Input: responses.ResponseNewParamsInputUnion{OfString: oai.String("x")}})
			var text, refusal strings.Builder
			args := map[string]string{}
			var final *responses.Response
			n := 0
			for stream.Next() {
				ev := stream.Current()
				if int(ev.SequenceNumber) != n {
					t.Errorf("event %d has sequence_number %d", n, ev.SequenceNumber)
				}
				n++
				switch v := ev.AsAny().(type) {
				case responses.ResponseCreatedEvent:
					if v.Response.Status != "in_progress" || len(v.Response.Output) != 0 {
						t.Errorf("created %+v", v.Response)
					}
				case responses.ResponseInProgressEvent:
				case responses.ResponseOutputItemAddedEvent:
					if v.Item.Status != "in_progress" {
						t.Errorf("added %+v", v.Item)
					}
				case responses.ResponseContentPartAddedEvent, responses.ResponseContentPartDoneEvent:
				case responses.ResponseTextDeltaEvent:
					text.WriteString(v.Delta)
				case responses.ResponseTextDoneEvent:
					if v.Text != a.Text || v.ItemID != "msg_1" {
						t.Errorf("text done %+v", v)
					}
				case responses.ResponseRefusalDeltaEvent:
					refusal.WriteString(v.Delta)
				case responses.ResponseRefusalDoneEvent:
					if v.Refusal != a.Refusal {
						t.Errorf("refusal done %+v", v)
					}
				case responses.ResponseFunctionCallArgumentsDeltaEvent:
					args[v.ItemID] += v.Delta
				case responses.ResponseFunctionCallArgumentsDoneEvent:
					if args[v.ItemID] != v.Arguments {
						t.Errorf("deltas %q, done %q", args[v.ItemID], v.Arguments)
					}
				case responses.ResponseOutputItemDoneEvent:
					if v.Item.Type == "function_call" && (v.Item.CallID == "" || v.Item.Arguments.OfString != args[v.Item.ID]) {
						t.Errorf("call done %+v", v.Item)
					}
				case responses.ResponseCompletedEvent:
					final = &v.Response
				case responses.ResponseIncompleteEvent:
					final = &v.Response
				default:
					t.Errorf("event %s decoded as %T", ev.Type, v)
				}
			}
			if err := stream.Err(); err != nil {
				t.Fatal(err)
			}
			if text.String() != a.Text || refusal.String() != a.Refusal {
				t.Errorf("text %q refusal %q", text.String(), refusal.String())
			}
			for _, c := range a.ToolCalls {
				if args[c.ID] != c.Arguments {
					t.Errorf("arguments of %s: %q", c.ID, args[c.ID])
				}
			}
			if final == nil {
				t.Fatal("no terminal event")
			}
			jsonEqual(t, "terminal response", []byte(final.RawJSON()), string(marshal(t, a.Object())))
			if final.OutputText() != a.Text {
				t.Errorf("OutputText %q", final.OutputText())
			}
		})
	}
}

// A failure mid-stream: response.failed reaches openai-go as an event, not
// a stream error.
func TestResponsesFailedEvent(t *testing.T) {
	failing := testAnswer(nil)
	failing.Failure = &ResponseError{Code: "server_is_overloaded", Message: "Overloaded."}
	failed := failing.Stream(nil, 1)
	srv2 := serve(t, failed.Body)
	client2 := oai.NewClient(option.WithBaseURL(srv2.URL+"/v1"), option.WithAPIKey("sk-test"), option.WithMaxRetries(0))
	stream := client2.Responses.NewStreaming(context.Background(), responses.ResponseNewParams{Model: "m"})
	var got responses.ResponseFailedEvent
	for stream.Next() {
		if v, ok := stream.Current().AsAny().(responses.ResponseFailedEvent); ok {
			got = v
		}
	}
	if stream.Err() != nil || got.Response.Status != "failed" || got.Response.Error.Code != "server_is_overloaded" {
		t.Errorf("openai-go failed event %+v, err %v", got, stream.Err())
	}
}

// Text and arguments are cut per tokensPerChunk without splitting UTF-8.
func TestResponseStreamUTF8(t *testing.T) {
	a := testAnswer(nil)
	a.Text = "日本語のテキスト ✓"
	for _, per := range []int{0, 1, 2, 5} {
		var text strings.Builder
		for _, e := range responseEvents(t, a.Stream(bytewise, per)) {
			if e.name == "response.output_text.delta" {
				var d string
				json.Unmarshal(e.data["delta"], &d)
				if strings.ContainsRune(d, '\uFFFD') {
					t.Errorf("per %d: delta %q splits a character", per, d)
				}
				text.WriteString(d)
			}
		}
		if text.String() != a.Text {
			t.Errorf("per %d: %q", per, text.String())
		}
	}
}
