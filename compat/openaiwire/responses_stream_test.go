package openaiwire_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	goai "github.com/sashabaranov/go-openai"
)

// go-openai's CreateResponseStream decodes every event and ends with
// io.EOF; the completed event carries the object.
func TestResponseStreamGoOpenAI(t *testing.T) {
	a := testAnswer(nil)
	a.Text, a.ToolCalls = "Let me check.", weatherCalls
	srv := serve(t, a.Stream(words, 1).Body)
	stream, err := goOpenAIClient(srv.URL).CreateResponseStream(context.Background(), goai.CreateResponseRequest{Model: "gpt-4.1", Input: "x"})
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	var text strings.Builder
	args := map[string]string{}
	var final *goai.CreateResponseResponse
	n := 0
	for ; ; n++ {
		ev, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("event %d: %v", n, err)
		}
		if ev.SequenceNumber != n || ev.Type == "" || len(ev.Raw) == 0 {
			t.Errorf("event %d: %+v", n, ev)
		}
		switch ev.Type {
		case goai.ResponseStreamEventOutputTextDelta:
			text.WriteString(ev.Delta)
		case goai.ResponseStreamEventFunctionArgumentsDelta:
			args[ev.ItemID] += ev.Delta
		case goai.ResponseStreamEventOutputItemAdded:
			if ev.Item == nil || ev.Item.ID == "" {
				t.Errorf("added %+v", ev.Item)
			}
		case goai.ResponseStreamEventCompleted:
			final = ev.Response
		}
	}
	if n != a.Stream(words, 1).Len() || text.String() != a.Text || args["fc_1"] != weatherCalls[0].Arguments || args["fc_2"] != weatherCalls[1].Arguments {
		t.Errorf("%d events, text %q, args %v", n, text.String(), args)
	}
	if final == nil || final.GetOutputText() != a.Text || final.Created != a.CreatedAt || final.Usage.TotalTokens != 1107 || len(final.Output) != 3 {
		t.Errorf("completed %+v", final)
	}
}
