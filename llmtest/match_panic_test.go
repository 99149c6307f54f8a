package llmtest_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// A match function (scenario.Func) that panics is a fault of the test,
// answered as a panicking Go responder is: 500
// llm_test_server_responder_failed naming the scenario and the panic, in
// the journal too, with no reply taken; the server keeps answering. That
// holds where the predicate picks a reply and where it explains a miss,
// over either transport, where the panic used to reach the client as EOF.
func TestPanickingMatchFunction(t *testing.T) {
	t.Parallel()
	for _, mode := range []llmtest.TransportMode{llmtest.Loopback, llmtest.InMemory} {
		t.Run(mode.String(), func(t *testing.T) {
			t.Parallel()
			srv := llmtest.NewServer(t, llmtest.WithTransport(mode))
			sess := srv.NewSession(t)
			sess.Chat("picky").When(scenario.Func(func(r *scenario.Request) bool {
				if r.LastUserText() == "boom" {
					panic("picky predicate broke")
				}
				return false
			})).Responds("never sent")
			// Its model condition fails first, so its predicate runs only
			// to explain why it passed over a request.
			sess.Chat("explained").When(scenario.All(scenario.Model("gpt-4o"),
				scenario.Func(func(*scenario.Request) bool { panic("explained predicate broke") }))).Responds("never sent")
			sess.Chat("fine").When(scenario.UserEquals("Hi")).Responds("still serving")
			client := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("k"),
				option.WithHTTPClient(sess.HTTPClient()), option.WithMaxRetries(0))

			for _, c := range []struct{ user, scenario, panic string }{
				{"boom", "picky", "picky predicate broke"},           // picking a reply
				{"Hello?", "explained", "explained predicate broke"}, // explaining the miss
			} {
				_, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, c.user))
				var apiErr *openai.Error
				if !errors.As(err, &apiErr) {
					t.Fatalf("%q: err = %v (%T), want a 500 from the server", c.user, err, err)
				}
				want := fmt.Sprintf("The match function of scenario %q panicked: %s", c.scenario, c.panic)
				if apiErr.StatusCode != 500 || apiErr.Code != "llm_test_server_responder_failed" || apiErr.Type != "server_error" ||
					!strings.Contains(apiErr.Message, want) {
					t.Errorf("%q: error = %d %q %q %q, want 500 llm_test_server_responder_failed server_error with %q",
						c.user, apiErr.StatusCode, apiErr.Code, apiErr.Type, apiErr.Message, want)
				}
			}
			resp, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi"))
			if err != nil || resp.Choices[0].Message.Content != "still serving" {
				t.Fatalf("next request: %v, %v", resp, err)
			}
			e2e.CheckStatuses(t, sess, []int{500, 500, 200}, []string{"llm_test_server_responder_failed", "llm_test_server_responder_failed", ""})
			if e := sess.Journal().Entries()[0]; !strings.Contains(e.ErrorMessage, "picky predicate broke") {
				t.Errorf("journaled message = %q, want the panic", e.ErrorMessage)
			}
			if got := sess.Pending(); got != 2 {
				t.Errorf("pending = %d, want 2: the panics took no reply", got)
			}
		})
	}
}

// Embeddings, which have vectors of their own when no scenario answers,
// are answered the same way when a match function panics.
func TestPanickingEmbeddingsMatchFunction(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Embeddings("fixed").When(scenario.Func(func(r *scenario.Request) bool {
		if r.LastUserText() == "boom" {
			panic("vectors predicate broke")
		}
		return true
	})).Reply(scenario.Vectors([]float32{1, 2}))
	client := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("k"),
		option.WithHTTPClient(sess.HTTPClient()), option.WithMaxRetries(0))
	embed := func(input string) (*openai.CreateEmbeddingResponse, error) {
		return client.Embeddings.New(t.Context(), openai.EmbeddingNewParams{Model: "text-embedding-3-small",
			Input: openai.EmbeddingNewParamsInputUnion{OfString: openai.String(input)}})
	}
	_, err := embed("boom")
	var apiErr *openai.Error
	if !errors.As(err, &apiErr) {
		t.Fatalf("err = %v (%T), want a 500 from the server", err, err)
	}
	const want = `The match function of scenario "fixed" panicked: vectors predicate broke`
	if apiErr.StatusCode != 500 || apiErr.Code != "llm_test_server_responder_failed" || !strings.Contains(apiErr.Message, want) {
		t.Errorf("error = %d %q %q, want 500 llm_test_server_responder_failed with %q", apiErr.StatusCode, apiErr.Code, apiErr.Message, want)
	}
	resp, err := embed("fine")
	if err != nil || len(resp.Data) != 1 || len(resp.Data[0].Embedding) != 2 {
		t.Fatalf("next request: %v, %v", resp, err)
	}
	e2e.CheckStatuses(t, sess, []int{500, 200}, []string{"llm_test_server_responder_failed", ""})
	if e := sess.Journal().Entries()[0]; e.Fault != "" || e.Scenario != "" {
		t.Errorf("the failed request names fault %q and scenario %q, want neither: none was scripted or answered", e.Fault, e.Scenario)
	}
}
