package llmtest_test

import (
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// onlyEntry returns the journal's one entry.
func onlyEntry(t *testing.T, sess *session.Session) journal.Entry {
	t.Helper()
	entries := sess.Journal().Entries()
	require.Len(t, entries, 1)
	return entries[0]
}

// A refusal is journaled as the refusal, apart from the text, which a
// refusing answer does not have: through Chat Completions and Responses.
func TestJournalRecordsTheRefusalApartFromTheText(t *testing.T) {
	t.Parallel()
	const refusal = "I can't help with that."
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("refuse").Refuses(refusal).Repeat()
	client := e2e.ClientFor(sess, "k")

	resp, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "How do I pick a lock?"))
	require.NoError(t, err)
	require.Equal(t, refusal, resp.Choices[0].Message.Refusal)
	r, err := client.Responses.New(t.Context(), responses.ResponseNewParams{Model: e2e.ReplyModel, Input: e2e.InputText("How do I pick a lock?")})
	require.NoError(t, err)
	require.Equal(t, "refusal", r.Output[0].Content[0].Type)

	entries := sess.Journal().Entries()
	require.Len(t, entries, 2)
	for _, e := range entries {
		assert.Equal(t, refusal, e.Refusal, e.Path)
		assert.Empty(t, e.ReplyText, e.Path)
		assert.False(t, e.JSON, e.Path)
	}
}

// A structured output is journaled as JSON, its document as the text; a
// plain text reply is not.
func TestJournalMarksAStructuredReply(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("weather").RespondsJSON(map[string]any{"city": "Paris", "temp": 21.5, "sunny": true}).Then("plain")
	client := e2e.ClientFor(sess, "k")

	resp, err := client.Chat.Completions.New(t.Context(), e2e.StructuredParams("Weather in Paris?"))
	require.NoError(t, err)
	_, err = client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "And now?"))
	require.NoError(t, err)

	entries := sess.Journal().Entries()
	require.Len(t, entries, 2)
	assert.True(t, entries[0].JSON)
	assert.JSONEq(t, resp.Choices[0].Message.Content, entries[0].ReplyText)
	assert.Empty(t, entries[0].SchemaErrors)
	assert.False(t, entries[1].JSON)
	assert.Equal(t, "plain", entries[1].ReplyText)
}

// Each entry names the ID of the answer the SDK received: the chat
// completion's (streamed or not), the response's; embeddings have none.
func TestJournalResponseIDsAreThoseTheSDKReceived(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("any").Responds("hello there").Repeat()
	client := e2e.ClientFor(sess, "k")

	chat, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi"))
	require.NoError(t, err)
	acc, _ := e2e.ReadChatStream(t, client.Chat.Completions.NewStreaming(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi")))
	resp, err := client.Responses.New(t.Context(), responses.ResponseNewParams{Model: e2e.ReplyModel, Input: e2e.InputText("Hi")})
	require.NoError(t, err)
	_, err = client.Embeddings.New(t.Context(), openai.EmbeddingNewParams{Model: e2e.EmbeddingModel,
		Input: openai.EmbeddingNewParamsInputUnion{OfString: openai.String("Hi")}})
	require.NoError(t, err)

	entries := sess.Journal().Entries()
	require.Len(t, entries, 4)
	assert.Regexp(t, `^chatcmpl-`, chat.ID)
	assert.Equal(t, chat.ID, entries[0].ResponseID)
	assert.Regexp(t, `^chatcmpl-`, acc.ID)
	assert.Equal(t, acc.ID, entries[1].ResponseID)
	assert.NotEqual(t, chat.ID, acc.ID)
	assert.Regexp(t, `^resp_`, resp.ID)
	assert.Equal(t, resp.ID, entries[2].ResponseID)
	assert.Empty(t, entries[3].ResponseID, "an embeddings answer has no ID")
}

// An entry names the reply that answered by its index among the
// scenario's replies, and the call site that scripted it.
func TestJournalNamesTheReplyAndWhereItWasScripted(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("plan").
		Reply(scenario.Reply{Text: "first", ScriptedAt: "plan_test.go:10"}).
		Reply(scenario.Reply{Text: "second", ScriptedAt: "plan_test.go:11"}).
		Reply(scenario.Reply{Error: &scenario.Error{Status: 503, Code: "overloaded", Message: "Try later."}, ScriptedAt: "plan_test.go:12"})
	client := e2e.ClientFor(sess, "k")
	for range 2 {
		_, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi"))
		require.NoError(t, err)
	}
	_, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi"))
	require.Error(t, err)

	entries := sess.Journal().Entries()
	require.Len(t, entries, 3)
	for i, e := range entries {
		assert.Equal(t, "plan", e.Scenario)
		assert.Equal(t, i, e.ReplyIndex, "entry %d", i)
	}
	assert.Equal(t, "plan_test.go:11", entries[1].ScriptedAt)
	assert.Equal(t, "plan_test.go:12", entries[2].ScriptedAt, "a scripted error names its reply too")
}

// A chaos rule's reply is its rule's only reply.
func TestJournalNamesTheChaosRulesReply(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.WithChaos(1, session.ChaosRule{Name: "every2nd", Every: 2,
		Reply: scenario.Reply{Text: "chaos", ScriptedAt: "chaos_test.go:5"}}))
	sess.Chat("plan").Responds("first").Then("second")
	client := e2e.ClientFor(sess, "k")
	for range 3 {
		_, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi"))
		require.NoError(t, err)
	}
	entries := sess.Journal().Entries()
	require.Len(t, entries, 3)
	assert.Equal(t, "chaos:every2nd", entries[1].Scenario)
	assert.Equal(t, 0, entries[1].ReplyIndex)
	assert.Equal(t, "chaos_test.go:5", entries[1].ScriptedAt)
	assert.Equal(t, "plan", entries[2].Scenario)
	assert.Equal(t, 1, entries[2].ReplyIndex, "the chaos reply took none of the scenario's")
}

// A refused request's entry has the message the SDK's error has: a
// request no scenario answers, a scripted 429, a model the session does
// not serve, an error event inside a stream.
func TestJournalErrorMessageIsTheOneTheSDKGot(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("greeting").When(scenario.Match{UserContains: "Hello"}).Responds("Hi!")
	sess.Chat("busy").When(scenario.Match{UserContains: "busy"}).
		Fails(429, "rate_limit_exceeded", "Rate limit reached for gpt-4.1-mini, try again in 20s.").
		Reply(scenario.Text("one two three four five six").FailsAfter(2, "server_error", "Broke mid-way."))
	client := e2e.ClientFor(sess, "k")

	sdkMessage := func(err error) string {
		t.Helper()
		var apiErr *openai.Error
		require.ErrorAs(t, err, &apiErr)
		require.NotEmpty(t, apiErr.Message)
		return apiErr.Message
	}
	_, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Bonjour"))
	miss := sdkMessage(err)
	_, err = client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "are you busy?"))
	limited := sdkMessage(err)
	_, err = client.Chat.Completions.New(t.Context(), e2e.UserTurn("no-such-model", "Hello"))
	unknown := sdkMessage(err)
	s := client.Chat.Completions.NewStreaming(t.Context(), e2e.UserTurn(e2e.ReplyModel, "are you busy?"))
	for s.Next() {
	}
	require.Error(t, s.Err())
	require.NoError(t, s.Close())

	entries := sess.Journal().Entries()
	require.Len(t, entries, 4)
	assert.Equal(t, "llm_test_server_no_scenario", entries[0].ErrorCode)
	assert.Equal(t, miss, entries[0].ErrorMessage)
	assert.Equal(t, 429, entries[1].Status)
	assert.Equal(t, "Rate limit reached for gpt-4.1-mini, try again in 20s.", limited)
	assert.Equal(t, limited, entries[1].ErrorMessage)
	assert.Equal(t, unknown, entries[2].ErrorMessage)
	assert.Equal(t, "Broke mid-way.", entries[3].ErrorMessage)
	assert.Contains(t, s.Err().Error(), entries[3].ErrorMessage)
}

// A streamed answer's entry counts the events sent: every chunk the SDK
// read and [DONE] for Chat Completions, every event for Responses, those
// before the cut for a stream cut short; an answer not streamed has none.
func TestJournalCountsTheEventsOfAStream(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	const text = "one two three four five six seven eight"
	sess.Chat("counted").Responds(text).Then(text).Then(text).Reply(scenario.Text(text).CutAfter(3))
	client := e2e.ClientFor(sess, "k")

	chunks := 0
	s := client.Chat.Completions.NewStreaming(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi"))
	for s.Next() {
		chunks++
	}
	require.NoError(t, s.Err())
	require.NoError(t, s.Close())
	events := 0
	rs := client.Responses.NewStreaming(t.Context(), responses.ResponseNewParams{Model: e2e.ReplyModel, Input: e2e.InputText("Hi")})
	for rs.Next() {
		events++
	}
	require.NoError(t, rs.Err())
	require.NoError(t, rs.Close())
	_, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi"))
	require.NoError(t, err)
	cut := client.Chat.Completions.NewStreaming(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi"))
	for cut.Next() {
	}
	require.Error(t, cut.Err())
	require.NoError(t, cut.Close())

	entries := sess.Journal().Entries()
	require.Len(t, entries, 4)
	require.Greater(t, chunks, 3, "role, text and finish chunks")
	assert.Equal(t, chunks+1, entries[0].Chunks, "the chunks and [DONE]")
	assert.Equal(t, events, entries[1].Chunks)
	assert.Zero(t, entries[2].Chunks)
	assert.Equal(t, 3, entries[3].Chunks)
}

// The time to first byte is read on the session's clock: in a synctest
// bubble, exactly the reply's scripted delay, and for a paced stream the
// delay and the time to its first event; zero for an answer dropped.
func TestJournalTimeToFirstByteOnTheSessionsClock(t *testing.T) {
	t.Parallel()
	inBubble(t, func(t *testing.T, srv *llmtest.Server) {
		sess := srv.NewSession(t)
		sess.Chat("slow").RespondsAfter(30*time.Second, "at last").
			Reply(scenario.Reply{Text: "paced answer here", Delay: 3 * time.Second}.Paced(2*time.Second, 10)).
			Reply(scenario.Reply{Delay: time.Second, Fault: &scenario.Fault{Kind: scenario.FaultDrop}}).
			Responds("at once")
		client := e2e.ClientFor(sess, "k")
		_, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi"))
		require.NoError(t, err)
		acc, _ := e2e.ReadChatStream(t, client.Chat.Completions.NewStreaming(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi")))
		require.Equal(t, "paced answer here", acc.Choices[0].Message.Content)
		_, err = client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi"))
		require.Error(t, err)
		_, err = client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi"))
		require.NoError(t, err)

		entries := sess.Journal().Entries()
		require.Len(t, entries, 4)
		assert.Equal(t, 30*time.Second, entries[0].FirstByte)
		assert.Equal(t, 5*time.Second, entries[1].FirstByte, "the delay and the time to first token")
		assert.Greater(t, entries[1].Duration, entries[1].FirstByte, "the paced events after the first")
		assert.Zero(t, entries[2].FirstByte, "a drop sends nothing")
		assert.Zero(t, entries[2].Chunks)
		assert.Zero(t, entries[3].FirstByte, "nothing to wait for")
	})
}

// The same on a fake clock the test advances: the first byte comes when
// the clock passes the reply's delay, not before.
func TestJournalTimeToFirstByteOnAFakeClock(t *testing.T) {
	t.Parallel()
	fake := clock.NewFake(time.Date(2031, 3, 4, 5, 6, 7, 0, time.UTC))
	srv := llmtest.NewServer(t, llmtest.WithClock(fake))
	sess := srv.NewSession(t)
	sess.Chat("slow").RespondsAfter(90*time.Second, "at last")
	client := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("k"),
		option.WithHTTPClient(sess.HTTPClient()), option.WithMaxRetries(0))
	done := make(chan error, 1)
	go func() {
		_, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi"))
		done <- err
	}()
	require.NoError(t, fake.WaitForTimers(t.Context(), 1), "the reply's delay never began")
	fake.Advance(90 * time.Second)
	require.NoError(t, <-done)
	assert.Equal(t, 90*time.Second, onlyEntry(t, sess).FirstByte)
}

// A stream replayed for its Idempotency-Key sends the same events again,
// and its entry counts them.
func TestJournalCountsTheEventsOfAReplayedStream(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("once").Responds("one two three four five")
	client := e2e.ClientFor(sess, "k")
	read := func() int {
		t.Helper()
		chunks := 0
		s := client.Chat.Completions.NewStreaming(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi"), option.WithHeader("Idempotency-Key", "key-1"))
		for s.Next() {
			chunks++
		}
		require.NoError(t, s.Err())
		require.NoError(t, s.Close())
		return chunks
	}
	first, again := read(), read()
	require.Equal(t, first, again)

	entries := sess.Journal().Entries()
	require.Len(t, entries, 2)
	require.True(t, entries[1].Replay)
	assert.Equal(t, first+1, entries[0].Chunks)
	assert.Equal(t, entries[0].Chunks, entries[1].Chunks)
}
