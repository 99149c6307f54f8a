package anthropicsdk_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sentBody is what one request of a thread carried: its thread field, how
// many messages and whether system and tools went with it, and the status
// it got.
type sentBody struct {
	Thread struct {
		Type              string `json:"type"`
		PreviousMessageID string `json:"previous_message_id"`
	} `json:"thread"`
	Messages []json.RawMessage `json:"messages"`
	System   json.RawMessage   `json:"system"`
	Tools    json.RawMessage   `json:"tools"`
	status   int
}

// bodyRecorder records the body of every /v1/messages request that goes
// through it, and the status each got.
type bodyRecorder struct {
	next http.RoundTripper
	mu   sync.Mutex
	sent []sentBody
}

func (r *bodyRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	var b sentBody
	if req.Body != nil {
		raw, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		req.Body = io.NopCloser(bytes.NewReader(raw))
		if err := json.Unmarshal(raw, &b); err != nil {
			return nil, err
		}
	}
	res, err := r.next.RoundTrip(req)
	if res != nil {
		b.status = res.StatusCode
	}
	r.mu.Lock()
	r.sent = append(r.sent, b)
	r.mu.Unlock()
	return res, err
}

func (r *bodyRecorder) bodies() []sentBody {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]sentBody(nil), r.sent...)
}

// recordedClient is a client of sess whose requests rec records; it
// retries retries times.
func recordedClient(sess *session.Session, retries ...int) (anthropic.Client, *bodyRecorder) {
	hc := sess.HTTPClient()
	rec := &bodyRecorder{next: hc.Transport}
	if rec.next == nil {
		rec.next = http.DefaultTransport
	}
	recorded := *hc
	recorded.Transport = rec
	return anthropic.NewClient(option.WithBaseURL(sess.AnthropicBaseURL()), option.WithAPIKey("k"),
		option.WithHTTPClient(&recorded), option.WithMaxRetries(append(retries, 0)[0])), rec
}

// texts is the text of each message the journal entry's request holds.
func texts(e journal.Entry) []string {
	var out []string
	for _, m := range e.Request.Messages {
		out = append(out, m.Role+":"+m.Text)
	}
	return out
}

// TestThreadSendKeepsTheConversation sends three turns on a message thread
// with the SDK's NewThread: the first creates the thread with the system
// prompt and the message, the others continue it with their new message
// only, and the server answers each over the whole conversation, which
// the journal shows.
func TestThreadSendKeepsTheConversation(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("threaded").Reply(scenario.Text("one"), scenario.Text("two"), scenario.Text("three"))
	client, rec := recordedClient(sess)
	thread := client.Beta.Messages.NewThread(anthropic.BetaMessageThreadCreateParams{
		Model: model, MaxTokens: 1024,
		System: []anthropic.BetaTextBlockParam{{Text: "Count."}},
	})
	var ids []string
	for _, say := range []string{"a", "b", "c"} {
		msg, err := thread.Send(t.Context(), anthropic.BetaMessageThreadSendParams{
			Messages: []anthropic.BetaMessageParam{anthropic.NewBetaUserMessage(anthropic.NewBetaTextBlock(say))},
		})
		require.NoError(t, err)
		ids = append(ids, msg.ID)
	}

	sent := rec.bodies()
	require.Len(t, sent, 3)
	assert.Equal(t, "create", sent[0].Thread.Type)
	assert.NotEmpty(t, sent[0].System)
	for i, b := range sent[1:] {
		assert.Equal(t, "continue", b.Thread.Type, "turn %d", i+2)
		assert.Equal(t, ids[i], b.Thread.PreviousMessageID, "turn %d", i+2)
		assert.Len(t, b.Messages, 1, "turn %d sends its new message only", i+2)
		assert.Empty(t, b.System, "turn %d", i+2)
	}

	entries := sess.Journal().Entries()
	require.Len(t, entries, 3)
	assert.Equal(t, []string{"user:a", "assistant:one", "user:b", "assistant:two", "user:c"}, texts(entries[2]))
	for _, e := range entries {
		assert.Equal(t, "Count.", e.Request.System)
		assert.Equal(t, 200, e.Status)
	}
	assert.Equal(t, []string{"one", "two", "three"}, []string{entries[0].ReplyText, entries[1].ReplyText, entries[2].ReplyText})

	var kept []string
	for _, r := range sess.History().Records {
		kept = append(kept, r.Kind+" "+r.ID+" after "+r.PreviousID)
	}
	// A turn marked continued is stored again, so the order is not the
	// thread's.
	assert.ElementsMatch(t, []string{"message " + ids[0] + " after ", "message " + ids[1] + " after " + ids[0],
		"message " + ids[2] + " after " + ids[1]}, kept, "the session's history holds the thread")
}

// weather is a BetaTool of the tool runner tests: it answers for a city.
type weather struct{}

func (weather) Name() string        { return "get_weather" }
func (weather) Description() string { return "The weather in a city" }
func (weather) InputSchema() anthropic.BetaToolInputSchemaParam {
	return anthropic.BetaToolInputSchemaParam{Properties: map[string]any{"city": map[string]any{"type": "string"}},
		Required: []string{"city"}}
}
func (weather) Execute(_ context.Context, input json.RawMessage) ([]anthropic.BetaToolResultBlockParamContentUnion, error) {
	var in struct {
		City string `json:"city"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return nil, err
	}
	return []anthropic.BetaToolResultBlockParamContentUnion{{OfText: &anthropic.BetaTextBlockParam{Text: "sunny in " + in.City}}}, nil
}

// TestToolRunnerCompletesItsLoop runs the SDK's tool runner to its final
// answer, streamed and not, on a message thread (the runner's default)
// and without one: threaded, the second turn sends only the tool results,
// and the server answers it over the whole conversation.
func TestToolRunnerCompletesItsLoop(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name               string
		streamed, noThread bool
	}{{"threaded", false, false}, {"threaded streamed", true, false}, {"unthreaded", false, true}, {"unthreaded streamed", true, true}} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			sess := newSession(t)
			scriptAgent(sess)
			client, rec := recordedClient(sess)
			params := anthropic.BetaToolRunnerParams{DisableThread: c.noThread, BetaMessageNewParams: anthropic.BetaMessageNewParams{
				Model: model, MaxTokens: 1024,
				Messages: []anthropic.BetaMessageParam{anthropic.NewBetaUserMessage(anthropic.NewBetaTextBlock("Weather in Paris and Rome?"))},
			}}
			tools := []anthropic.BetaTool{weather{}}
			var final string
			if c.streamed {
				runner := client.Beta.Messages.NewToolRunnerStreaming(tools, params)
				for events, err := range runner.AllStreaming(t.Context()) {
					require.NoError(t, err)
					for event, err := range events {
						require.NoError(t, err)
						if d, ok := event.AsAny().(anthropic.BetaRawContentBlockDeltaEvent); ok {
							final += d.Delta.Text
						}
					}
				}
			} else {
				msg, err := client.Beta.Messages.NewToolRunner(tools, params).RunToCompletion(t.Context())
				require.NoError(t, err)
				require.Len(t, msg.Content, 1)
				final = msg.Content[0].Text
			}
			assert.Equal(t, "Sunny in both.", final)

			sent := rec.bodies()
			require.Len(t, sent, 2)
			if c.noThread {
				assert.Empty(t, sent[1].Thread.Type)
				assert.Len(t, sent[1].Messages, 3)
			} else {
				assert.Equal(t, "create", sent[0].Thread.Type)
				assert.Equal(t, "continue", sent[1].Thread.Type)
				assert.Len(t, sent[1].Messages, 1, "the tool results only")
				assert.Empty(t, sent[1].Tools)
			}
			entries := sess.Journal().Entries()
			require.Len(t, entries, 2)
			assert.Len(t, entries[1].Request.Messages, 4, "question, calls, two results")
			assert.Equal(t, []string{"get_weather"}, entries[1].Request.Tools)
			require.Len(t, entries[1].ToolResults, 2)
			assert.Equal(t, "sunny in Paris", entries[1].ToolResults[0].Content)
		})
	}
}

// TestThreadRecoversWhenTheServerForgets runs a thread on a session that
// keeps one stored record: each continue evicts the turn before the one
// it continues, so every other continue finds no whole thread, gets 404
// thread_not_found, and the SDK replays the whole conversation under
// create, as it does against the real API.
func TestThreadRecoversWhenTheServerForgets(t *testing.T) {
	t.Parallel()
	sess := newSession(t, session.WithHistory(1))
	sess.Chat("forgetful").Reply(scenario.Text("one"), scenario.Text("two"), scenario.Text("three"))
	client, rec := recordedClient(sess)
	thread := client.Beta.Messages.NewThread(anthropic.BetaMessageThreadCreateParams{Model: model, MaxTokens: 1024})
	for _, say := range []string{"a", "b", "c"} {
		_, err := thread.Send(t.Context(), anthropic.BetaMessageThreadSendParams{
			Messages: []anthropic.BetaMessageParam{anthropic.NewBetaUserMessage(anthropic.NewBetaTextBlock(say))},
		})
		require.NoError(t, err)
	}
	var got []string
	for _, b := range rec.bodies() {
		got = append(got, b.Thread.Type+" "+http.StatusText(b.status))
	}
	assert.Equal(t, []string{"create OK", "continue OK", "continue Not Found", "create OK"}, got)
	last := rec.bodies()[3]
	assert.Len(t, last.Messages, 5, "the replay sends the whole conversation")

	entries := sess.Journal().Entries()
	require.Len(t, entries, 4)
	assert.Equal(t, "thread_not_found", entries[2].ErrorCode)
	assert.Equal(t, []string{"user:a", "assistant:one", "user:b", "assistant:two", "user:c"}, texts(entries[3]))
}

// TestThreadTurnRetriedAfterAFailure has the server fail a continue with
// 529: the SDK sends the same continue again, which finds the thread
// free (the failed request let go of it) and gets the next reply.
func TestThreadTurnRetriedAfterAFailure(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("flaky").Reply(scenario.Text("one"), scenario.Fail(529, "overloaded_error", "Overloaded"), scenario.Text("two"))
	client, rec := recordedClient(sess, 1)
	thread := client.Beta.Messages.NewThread(anthropic.BetaMessageThreadCreateParams{Model: model, MaxTokens: 1024})
	var last *anthropic.BetaMessage
	for _, say := range []string{"a", "b"} {
		msg, err := thread.Send(t.Context(), anthropic.BetaMessageThreadSendParams{
			Messages: []anthropic.BetaMessageParam{anthropic.NewBetaUserMessage(anthropic.NewBetaTextBlock(say))},
		})
		require.NoError(t, err)
		last = msg
	}
	assert.Equal(t, "two", last.Content[0].Text)
	var got []string
	for _, b := range rec.bodies() {
		got = append(got, fmt.Sprint(b.Thread.Type, " ", b.status))
	}
	assert.Equal(t, []string{"create 200", "continue 529", "continue 200"}, got)
}

// TestThreadKeepsThinkingAndServerBlocks continues a thread whose first
// reply thought (shown omitted, Sonnet 5's default), searched the web and
// called a tool: the thread holds those blocks as the client would send
// them back, and the continue with the tool result passes the checks of
// replayed thinking and redacted thinking.
func TestThreadKeepsThinkingAndServerBlocks(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("thinking thread").Reply(
		scenario.Reply{Thinking: "I should look it up.", RedactedThinking: []string{"secret"},
			WebSearches: []scenario.WebSearch{{Query: "weather Oslo", Results: []scenario.WebResult{{URL: "https://example.com/oslo", Title: "Oslo"}}}},
			ToolCalls:   []scenario.ToolCall{{Name: "get_weather", Arguments: `{"city":"Oslo"}`}}},
		scenario.Text("Sunny in Oslo."))
	client, rec := recordedClient(sess)
	msg, err := client.Beta.Messages.NewToolRunner([]anthropic.BetaTool{weather{}}, anthropic.BetaToolRunnerParams{
		BetaMessageNewParams: anthropic.BetaMessageNewParams{Model: model, MaxTokens: 1024,
			Messages: []anthropic.BetaMessageParam{anthropic.NewBetaUserMessage(anthropic.NewBetaTextBlock("Weather in Oslo?"))}},
	}).RunToCompletion(t.Context())
	require.NoError(t, err)
	assert.Equal(t, "Sunny in Oslo.", msg.Content[len(msg.Content)-1].Text)
	sent := rec.bodies()
	require.Len(t, sent, 2)
	assert.Equal(t, "continue", sent[1].Thread.Type)
	assert.Len(t, sent[1].Messages, 1)
	e, ok := sess.Journal().Last()
	require.True(t, ok)
	assert.Equal(t, 200, e.Status)
}
