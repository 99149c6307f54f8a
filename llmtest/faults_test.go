package llmtest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
)

// In a Responses stream the failure arrives as response.failed, and the
// stored response is failed too.
func TestResponsesStreamFailsInStream(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("broken").Reply(scenario.FailStream("server_is_overloaded", "Too busy."))
	client := e2e.ClientFor(sess, "k")
	stream := client.Responses.NewStreaming(context.Background(), responses.ResponseNewParams{
		Model: "gpt-4.1-mini", Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("Hi")},
	})
	var types []string
	var failed responses.Response
	for stream.Next() {
		ev := stream.Current()
		types = append(types, ev.Type)
		if ev.Type == "response.failed" {
			failed = ev.AsResponseFailed().Response
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if strings.Join(types, ",") != "response.created,response.in_progress,response.failed" {
		t.Fatalf("events = %v", types)
	}
	if failed.Status != "failed" || failed.Error.Code != "server_is_overloaded" || failed.Error.Message != "Too busy." {
		t.Errorf("failed response: status %q error %+v", failed.Status, failed.Error)
	}
	got, err := client.Responses.Get(context.Background(), failed.ID, responses.ResponseGetParams{})
	if err != nil || got.Status != "failed" {
		t.Errorf("stored failed response: %v, %v", got.Status, err)
	}
}
