package session_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

var evictStart = time.Date(2026, 5, 20, 1, 0, 0, 0, time.UTC)

// sayHi sends one chat completion over HTTP with openai-go.
func sayHi(client openai.Client) (string, error) {
	resp, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
		Model:    "gpt-4.1-mini",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Hi")},
	})
	if err != nil {
		return "", err
	}
	return resp.Choices[0].Message.Content, nil
}

func listed(m *session.Manager) []string {
	var ids []string
	for _, info := range m.Sessions() {
		ids = append(ids, info.ID)
	}
	return ids
}

// A session idle for longer than the limit is evicted, its journal handed
// to the export while it is still listed; one used recently and one
// created recently stay, and one idle exactly as long as the limit stays too.
func TestEvictIdleDeletesIdleSessionsOnly(t *testing.T) {
	t.Parallel()
	fake := clock.NewFake(evictStart)
	srv := llmtest.NewServer(t, llmtest.WithClock(fake))
	m := srv.Manager()
	newSession := func() (*session.Session, openai.Client) {
		s, err := srv.OpenSession()
		require.NoError(t, err)
		t.Cleanup(s.Close)
		s.Chat("any").Responds("hello").Repeat()
		return s, llmtest.OpenAIClient(s, option.WithMaxRetries(0))
	}
	idle, idleClient := newSession()
	_, err := sayHi(idleClient)
	require.NoError(t, err)
	used, usedClient := newSession()
	reservedBefore := m.Reserved()

	fake.Advance(10 * time.Minute)
	_, err = sayHi(usedClient)
	require.NoError(t, err)
	fresh, _ := newSession()

	var exported []session.Evicted
	evicted := m.EvictIdle(10*time.Minute, func(e session.Evicted) error {
		exported = append(exported, e)
		return nil
	})
	assert.Empty(t, evicted, "idle exactly as long as the limit, not longer")

	fake.Advance(time.Second)
	evicted = m.EvictIdle(10*time.Minute, func(e session.Evicted) error {
		assert.Contains(t, listed(m), e.ID, "exported before it leaves the working set")
		exported = append(exported, e)
		return nil
	})
	require.Len(t, evicted, 1)
	assert.Equal(t, idle.ID(), evicted[0].ID)
	assert.Equal(t, evictStart, evicted[0].Created)
	assert.Equal(t, evictStart, evicted[0].IdleSince)
	assert.NoError(t, evicted[0].ExportErr)
	require.Len(t, exported, 1)
	entries := exported[0].Journal.Entries()
	require.Len(t, entries, 1)
	assert.Equal(t, "hello", entries[0].ReplyText)

	assert.ElementsMatch(t, []string{used.ID(), fresh.ID()}, listed(m))
	assert.Less(t, m.Reserved(), reservedBefore+fresh.Reservation(), "the evicted session's capacity is released")
	_, err = sayHi(idleClient)
	var apiErr *openai.Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusNotFound, apiErr.StatusCode)
	assert.Equal(t, "session_not_found", apiErr.Code)
	assert.Equal(t, 1, idle.Journal().Len(), "nothing is journaled in an evicted session")
}

// A session with a delayed reply in flight is not evicted however long it
// waits, and its request completes; once it has ended, the session is idle
// from then on.
func TestEvictIdleSkipsBusySessions(t *testing.T) {
	t.Parallel()
	fake := clock.NewFake(evictStart)
	srv := llmtest.NewServer(t, llmtest.WithClock(fake))
	m := srv.Manager()
	busy, err := srv.OpenSession()
	require.NoError(t, err)
	t.Cleanup(busy.Close)
	busy.Chat("slow").RespondsAfter(time.Hour, "worth the wait")
	client := llmtest.OpenAIClient(busy, option.WithMaxRetries(0))

	type result struct {
		text string
		err  error
	}
	done := make(chan result, 1)
	go func() {
		text, err := sayHi(client)
		done <- result{text, err}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, fake.WaitForTimers(ctx, 1), "the delayed reply never started waiting")

	fake.Advance(30 * time.Minute)
	assert.Empty(t, m.EvictIdle(time.Minute, nil))
	assert.Equal(t, []string{busy.ID()}, listed(m))

	fake.Advance(30 * time.Minute) // the reply is due
	res := <-done
	require.NoError(t, res.err)
	assert.Equal(t, "worth the wait", res.text)

	fake.Advance(time.Minute)
	assert.Empty(t, m.EvictIdle(time.Minute, nil), "idle since its request ended, a minute ago")
	fake.Advance(time.Second)
	evicted := m.EvictIdle(time.Minute, nil)
	require.Len(t, evicted, 1)
	assert.Equal(t, busy.ID(), evicted[0].ID)
	assert.Equal(t, evictStart.Add(time.Hour), evicted[0].IdleSince)
}

// A failed export is reported with the session, which is deleted all the
// same; sessions come the longest idle first.
func TestEvictIdleReportsExportErrors(t *testing.T) {
	t.Parallel()
	fake := clock.NewFake(evictStart)
	m, err := session.NewManager(session.ManagerConfig{Clock: fake})
	require.NoError(t, err)
	defer m.Close()
	first, err := m.Create()
	require.NoError(t, err)
	fake.Advance(time.Minute)
	second, err := m.Create()
	require.NoError(t, err)
	fake.Advance(time.Hour)

	full := errors.New("disk full")
	evicted := m.EvictIdle(time.Minute, func(e session.Evicted) error {
		if e.ID == second.ID() {
			return full
		}
		return nil
	})
	require.Len(t, evicted, 2)
	assert.Equal(t, first.ID(), evicted[0].ID)
	assert.NoError(t, evicted[0].ExportErr)
	assert.Equal(t, second.ID(), evicted[1].ID)
	assert.ErrorIs(t, evicted[1].ExportErr, full)
	assert.Zero(t, m.Len())
	startup := m.Startup()
	assert.Equal(t, startup.Reservation(), m.Reserved(), "the default runtime's share is all that is left")
	assert.Empty(t, m.EvictIdle(0, nil), "0 evicts nothing")
}
