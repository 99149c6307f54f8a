package answer_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/answer"
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/openai"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// fakeTurn is a codec's turn that logs the steps Serve asks it for, so
// that the tests see the pipeline's order from the codec's side.
type fakeTurn struct {
	req      *scenario.Request
	steps    []string
	rules    *apierr.Error
	prompt   answer.Prompt
	rendered *provider.Answer
	failure  *apierr.Error
}

func (f *fakeTurn) Request() *scenario.Request { return f.req }
func (f *fakeTurn) Ignored() []string          { return []string{"extra"} }
func (f *fakeTurn) Rules() *apierr.Error       { f.steps = append(f.steps, "rules"); return f.rules }
func (f *fakeTurn) Prompt(context.Context) (answer.Prompt, error) {
	f.steps = append(f.steps, "prompt")
	return f.prompt, nil
}
func (f *fakeTurn) TooLong(n int) *apierr.Error {
	f.steps = append(f.steps, "too long")
	return &apierr.Error{Status: 400, Code: "too_long"}
}
func (f *fakeTurn) Spec(*scenario.Reply) answer.Spec {
	f.steps = append(f.steps, "spec")
	return answer.Spec{ID: "fake_1"}
}
func (f *fakeTurn) Render(a *provider.Answer, _ *scenario.Reply, s answer.Stream) answer.Rendered {
	f.steps = append(f.steps, "render")
	f.rendered = a
	return answer.Rendered{JSON: map[string]string{"text": a.Text}}
}
func (f *fakeTurn) Delivered(failure *apierr.Error) func() {
	f.steps = append(f.steps, "delivered")
	f.failure = failure
	return nil
}

// serveFake runs one request through Serve (or Count) with f as its turn,
// on a runtime that scripts replies.
func serveFake(t *testing.T, f *fakeTurn, count bool, replies ...scenario.Reply) (*provider.Exchange, provider.Response) {
	t.Helper()
	rt := runtime.New(runtime.Settings{JournalCapacity: 10, JournalMaxBytes: 1 << 20})
	if len(replies) > 0 {
		rt.AddReplies("s", scenario.Match{}, replies...)
	}
	x := &provider.Exchange{Ctx: t.Context(), Runtime: rt, MaxBody: 1 << 20, Codec: openai.Codec{},
		Request: httptest.NewRequest("POST", "/v1/x", strings.NewReader(`{}`))}
	decode := func(*provider.Exchange, []byte) (answer.Turn, *apierr.Error) { return f, nil }
	route := answer.Serve(decode)
	if count {
		route = answer.Count(decode, func(n int) any { return n })
	}
	return x, route(x)
}

func fakeRequest() *scenario.Request {
	return &scenario.Request{Endpoint: scenario.EndpointChatCompletions, Model: "gpt-4o",
		Messages: []scenario.Message{{Role: "user", Content: "hi"}}}
}

// Serve asks the codec for each of its parts once, in the pipeline's
// order, records the request and its ignored fields, and builds the answer
// from the reserved reply.
func TestServeRunsThePipelineInOrder(t *testing.T) {
	f := &fakeTurn{req: fakeRequest(), prompt: answer.Prompt{Segments: []runtime.PromptSegment{{Text: "p", Tokens: 5}}, Window: 100}}
	x, res := serveFake(t, f, false, scenario.Text("hello"))
	require.Nil(t, res.Err)
	assert.Equal(t, []string{"rules", "prompt", "spec", "render", "delivered"}, f.steps)
	assert.Equal(t, map[string]string{"text": "hello"}, res.JSON)
	assert.NotNil(t, res.Reservation)
	assert.Equal(t, "fake_1", f.rendered.ID)
	assert.Equal(t, 5, f.rendered.Usage.Input)
	assert.Equal(t, "gpt-4o", x.Entry.Model)
	assert.Equal(t, "hi", x.Entry.UserText)
	assert.Equal(t, []string{"extra"}, x.Entry.Ignored)
	assert.Equal(t, "s", x.Entry.Scenario)
	assert.Equal(t, "hello", x.Entry.ReplyText)
}

// What the model's rules refuse, and a prompt too long for its window,
// take no reply and stop before the answer is shaped.
func TestServeRefusesBeforeAnyReply(t *testing.T) {
	f := &fakeTurn{req: fakeRequest(), rules: &apierr.Error{Status: 400, Code: "model_rule"}}
	x, res := serveFake(t, f, false, scenario.Text("hello"))
	require.NotNil(t, res.Err)
	assert.Equal(t, "model_rule", res.Err.Code)
	assert.Equal(t, []string{"rules"}, f.steps, "nothing is counted for a refused model")
	assert.Equal(t, 1, x.Runtime.Pending())

	f = &fakeTurn{req: fakeRequest(), prompt: answer.Prompt{Segments: []runtime.PromptSegment{{Tokens: 90}}, Window: 100}}
	f.req.MaxOutputTokens = 20
	x, res = serveFake(t, f, false, scenario.Text("hello"))
	require.NotNil(t, res.Err)
	assert.Equal(t, "too_long", res.Err.Code)
	assert.Equal(t, []string{"rules", "prompt", "too long"}, f.steps)
	assert.Equal(t, 1, x.Runtime.Pending(), "a prompt too long takes no reply")

	f = &fakeTurn{req: fakeRequest()}
	f.req.Model = "no-such-model"
	_, res = serveFake(t, f, false, scenario.Text("hello"))
	require.NotNil(t, res.Err)
	assert.Equal(t, "model_not_found", res.Err.Code)
	assert.Empty(t, f.steps, "an unserved model is refused first")
}

// The reply is cut at the request's stop sequences before the answer is
// built: the codec renders the cut text and the sequence it stopped at.
func TestServeCutsAtStopSequences(t *testing.T) {
	f := &fakeTurn{req: fakeRequest()}
	f.req.StopSequences = []string{"STOP", "ST"}
	x, res := serveFake(t, f, false, scenario.Reply{Text: "go on STOP here", ToolCalls: []scenario.ToolCall{{Name: "f"}}})
	require.Nil(t, res.Err)
	assert.Equal(t, "go on ", f.rendered.Text)
	assert.Equal(t, "ST", f.rendered.StopSequence, "the shorter of two at one offset comes first")
	assert.Empty(t, f.rendered.ToolCalls)
	assert.Equal(t, scenario.FinishStop, f.rendered.Finish)
	assert.Equal(t, "go on ", x.Entry.ReplyText)
}

// An error scripted inside a stream, after no event as after many, is
// rendered as a stream the HTTP core fails, and the codec's hook hears of
// the failure in its words.
func TestServeHandsAnInStreamErrorToTheCore(t *testing.T) {
	for _, after := range []int{0, 3} {
		f := &fakeTurn{req: fakeRequest()}
		f.req.Stream = true
		x, res := serveFake(t, f, false, scenario.Reply{Error: &scenario.Error{Kind: scenario.ErrorOverloaded, InStream: true, AfterEvents: after}})
		require.Nil(t, res.Err, "after %d", after)
		require.NotNil(t, x.StreamError, "after %d", after)
		assert.Equal(t, after, x.StreamError.AfterEvents)
		assert.Contains(t, f.steps, "render")
		require.NotNil(t, f.failure, "after %d", after)
		assert.Equal(t, 503, f.failure.Status, "resolved in the codec's words")
	}
}

// Count counts the prompt without a reply, and journals a count: no
// endpoint, not streamed.
func TestCountCountsWithoutAnswering(t *testing.T) {
	f := &fakeTurn{req: fakeRequest(), prompt: answer.Prompt{Segments: []runtime.PromptSegment{{Tokens: 7}}, Overhead: 3, Window: 5}}
	f.req.Stream = true
	x, res := serveFake(t, f, true, scenario.Text("hello"))
	require.Nil(t, res.Err)
	assert.Equal(t, 10, res.JSON, "a count is not held to the context window")
	assert.Equal(t, []string{"rules", "prompt"}, f.steps)
	assert.Equal(t, 1, x.Runtime.Pending())
	assert.Empty(t, x.Entry.Endpoint)
	assert.False(t, x.Entry.Stream)
	assert.Equal(t, "gpt-4o", x.Entry.Model)
}

// A decoder that refuses after understanding the model returns a turn
// with it, which the journal records.
func TestServeRecordsWhatARefusedDecodeUnderstood(t *testing.T) {
	rt := runtime.New(runtime.Settings{JournalCapacity: 10, JournalMaxBytes: 1 << 20})
	x := &provider.Exchange{Ctx: t.Context(), Runtime: rt, MaxBody: 1 << 20, Codec: openai.Codec{},
		Request: httptest.NewRequest("POST", "/v1/x", strings.NewReader(`{}`))}
	partial := &fakeTurn{req: &scenario.Request{Model: "gpt-4o", Stream: true}}
	res := answer.Serve(func(*provider.Exchange, []byte) (answer.Turn, *apierr.Error) {
		return partial, &apierr.Error{Status: 400, Code: "previous_response_not_found"}
	})(x)
	require.NotNil(t, res.Err)
	assert.Equal(t, "gpt-4o", x.Entry.Model)
	assert.True(t, x.Entry.Stream)
	assert.Empty(t, partial.steps)
}
