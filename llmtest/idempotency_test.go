package llmtest_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// withKey sends the Idempotency-Key header.
func withKey(key string) option.RequestOption { return option.WithHeader("Idempotency-Key", key) }

// A retry with the same Idempotency-Key and body gets the first answer
// again, byte for byte, and uses no other reply; the journal marks it a
// replay.
func TestIdempotentChatReplay(t *testing.T) {
	t.Parallel()
	sess := llmtest.NewServer(t).NewSession(t)
	sess.Chat("seq").Responds("first").Then("second").Then("third")
	client := e2e.ClientFor(sess, "k")
	params := e2e.UserTurn(e2e.ReplyModel, "Hello")

	var raw1, raw2 *http.Response
	first, err := client.Chat.Completions.New(t.Context(), params, withKey("key-1"), option.WithResponseInto(&raw1))
	require.NoError(t, err)
	again, err := client.Chat.Completions.New(t.Context(), params, withKey("key-1"), option.WithResponseInto(&raw2))
	require.NoError(t, err)
	assert.Equal(t, "first", again.Choices[0].Message.Content)
	assert.Equal(t, first.RawJSON(), again.RawJSON(), "the replay is the first answer byte for byte")
	assert.Equal(t, raw1.StatusCode, raw2.StatusCode)
	assert.Equal(t, raw1.Header.Get("X-Request-Id"), raw2.Header.Get("X-Request-Id"))
	assert.Equal(t, raw1.Header.Get("Content-Type"), raw2.Header.Get("Content-Type"))
	assert.Equal(t, "true", raw2.Header.Get("Idempotent-Replayed"))
	assert.Empty(t, raw1.Header.Get("Idempotent-Replayed"))
	assert.Equal(t, 2, sess.Pending(), "the replay used no reply")

	// Without the key, or with another, the next reply answers.
	other, err := client.Chat.Completions.New(t.Context(), params, withKey("key-2"))
	require.NoError(t, err)
	assert.Equal(t, "second", other.Choices[0].Message.Content)

	entries := sess.Journal().Entries()
	require.Len(t, entries, 3)
	assert.False(t, entries[0].Replay)
	assert.Equal(t, "key-1", entries[0].IdempotencyKey)
	assert.True(t, entries[1].Replay)
	assert.Equal(t, 200, entries[1].Status)
	assert.Equal(t, e2e.ReplyModel, entries[1].Model)
	assert.Empty(t, entries[1].Scenario, "a replay uses no scenario's reply")
	assert.False(t, entries[2].Replay)

	// Reset forgets the keys.
	sess.Reset()
	fresh, err := client.Chat.Completions.New(t.Context(), params, withKey("key-1"))
	require.NoError(t, err)
	assert.Equal(t, "first", fresh.Choices[0].Message.Content)
	assert.Equal(t, 2, sess.Pending(), "after Reset the key answers afresh, with a reply")
	last, _ := sess.Journal().Last()
	assert.False(t, last.Replay)
}

// A stream is replayed as the same event stream.
func TestIdempotentStreamReplay(t *testing.T) {
	t.Parallel()
	sess := llmtest.NewServer(t).NewSession(t)
	sess.Chat("seq").Responds("streamed words here").Then("second")
	client := e2e.ClientFor(sess, "k")
	params := e2e.UserTurn(e2e.ReplyModel, "Hello")

	collect := func() ([]string, string) {
		stream := client.Chat.Completions.NewStreaming(t.Context(), params, withKey("s-1"))
		defer stream.Close()
		var chunks []string
		var text string
		for stream.Next() {
			c := stream.Current()
			chunks = append(chunks, c.RawJSON())
			if len(c.Choices) > 0 {
				text += c.Choices[0].Delta.Content
			}
		}
		require.NoError(t, stream.Err())
		return chunks, text
	}
	chunks1, text1 := collect()
	chunks2, text2 := collect()
	assert.Equal(t, "streamed words here", text1)
	assert.Equal(t, text1, text2)
	assert.Equal(t, chunks1, chunks2, "the replay sends the same events")
	assert.Equal(t, 1, sess.Pending())
	last, _ := sess.Journal().Last()
	assert.True(t, last.Replay)
	assert.True(t, last.Stream)

	// Responses too, streamed or not.
	sess.Chat("rs").Responds("a response").Repeat()
	rp := responses.ResponseNewParams{Model: e2e.ResponsesModel, Input: e2e.InputText("Hi")}
	r1, err := client.Responses.New(t.Context(), rp, withKey("r-1"))
	require.NoError(t, err)
	r2, err := client.Responses.New(t.Context(), rp, withKey("r-1"))
	require.NoError(t, err)
	assert.Equal(t, r1.ID, r2.ID)
	assert.Equal(t, r1.RawJSON(), r2.RawJSON())
}

// The same key with another body is 409 idempotency_key_reused, which no
// SDK retries.
func TestIdempotencyKeyReusedWithAnotherBody(t *testing.T) {
	t.Parallel()
	sess := llmtest.NewServer(t).NewSession(t)
	sess.Chat("seq").Responds("first").Then("second")
	client := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("k"),
		option.WithHTTPClient(sess.HTTPClient())) // retries as by default
	_, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hello"), withKey("k-1"))
	require.NoError(t, err)
	_, err = client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Something else"), withKey("k-1"))
	apiErr := e2e.OpenAIError(t, err)
	assert.Equal(t, http.StatusConflict, apiErr.StatusCode)
	assert.Equal(t, "idempotency_key_reused", apiErr.Code)
	assert.Contains(t, apiErr.Message, "Send a new key")
	assert.Equal(t, 1, sess.Pending(), "the conflict used no reply")
	assert.Equal(t, 2, sess.Journal().Len(), "one attempt: x-should-retry: false")
}

// A key whose first request is still being answered is 409 too.
func TestIdempotencyKeyInFlight(t *testing.T) {
	t.Parallel()
	sess := llmtest.NewServer(t).NewSession(t)
	entered, release := make(chan struct{}), make(chan struct{})
	sess.Chat("slow").Reply(scenario.Respond(func(*scenario.Request) scenario.Reply {
		close(entered)
		<-release
		return scenario.Text("at last")
	}))
	client := e2e.ClientFor(sess, "k")
	params := e2e.UserTurn(e2e.ReplyModel, "Hello")

	var wg sync.WaitGroup
	var first *openai.ChatCompletion
	var firstErr error
	wg.Go(func() { first, firstErr = client.Chat.Completions.New(t.Context(), params, withKey("busy")) })
	<-entered
	_, err := client.Chat.Completions.New(t.Context(), params, withKey("busy"))
	close(release)
	wg.Wait()
	apiErr := e2e.OpenAIError(t, err)
	assert.Equal(t, http.StatusConflict, apiErr.StatusCode)
	assert.Equal(t, "idempotency_key_in_flight", apiErr.Code)
	assert.Contains(t, apiErr.Message, "still being answered")
	require.NoError(t, firstErr)
	assert.Equal(t, "at last", first.Choices[0].Message.Content)

	// Once it is over, the retry gets its answer.
	again, err := client.Chat.Completions.New(t.Context(), params, withKey("busy"))
	require.NoError(t, err)
	assert.Equal(t, first.ID, again.ID)
}

// A failed attempt is not kept: the retry with the same key gets the next
// reply, and that answer is the one kept.
func TestIdempotencyKeepsOnlySuccessfulAnswers(t *testing.T) {
	t.Parallel()
	sess := llmtest.NewServer(t).NewSession(t)
	sess.Chat("seq").Fails(500, "", "boom").Then("recovered").Then("unused")
	client := e2e.ClientFor(sess, "k")
	params := e2e.UserTurn(e2e.ReplyModel, "Hello")
	_, err := client.Chat.Completions.New(t.Context(), params, withKey("retry"))
	assert.Equal(t, 500, e2e.OpenAIError(t, err).StatusCode)
	got, err := client.Chat.Completions.New(t.Context(), params, withKey("retry"))
	require.NoError(t, err)
	assert.Equal(t, "recovered", got.Choices[0].Message.Content)
	again, err := client.Chat.Completions.New(t.Context(), params, withKey("retry"))
	require.NoError(t, err)
	assert.Equal(t, got.ID, again.ID)
	assert.Equal(t, 1, sess.Pending())
	var replays int
	for _, e := range sess.Journal().Entries() {
		if e.Replay {
			replays++
		}
	}
	assert.Equal(t, 1, replays)
}

// A session configured without keys answers every request afresh, and the
// journal's JSON carries the new fields.
func TestIdempotencyOffAndJournalJSON(t *testing.T) {
	t.Parallel()
	sess := llmtest.NewServer(t).NewSession(t, session.WithIdempotency(0, 0))
	sess.Chat("seq").Responds("first").Then("second")
	client := e2e.ClientFor(sess, "k")
	params := e2e.UserTurn(e2e.ReplyModel, "Hello")
	_, err := client.Chat.Completions.New(t.Context(), params, withKey("x"))
	require.NoError(t, err)
	got, err := client.Chat.Completions.New(t.Context(), params, withKey("x"))
	require.NoError(t, err)
	assert.Equal(t, "second", got.Choices[0].Message.Content)

	e := journal.Entry{IdempotencyKey: "x", Replay: true}
	b, err := e.MarshalJSON()
	require.NoError(t, err)
	assert.Contains(t, string(b), `"idempotency_key":"x"`)
	assert.Contains(t, string(b), `"replay":true`)
	var back journal.Entry
	require.NoError(t, back.UnmarshalJSON(b))
	assert.True(t, back.Replay)
	assert.Equal(t, "x", back.IdempotencyKey)
}
