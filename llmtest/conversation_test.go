package llmtest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// conversationClient returns an openai-go client whose requests are filed
// under the declared conversation c.
func conversationClient(sess *session.Session, c *session.Conversation) openai.Client {
	return openai.NewClient(
		option.WithBaseURL(sess.BaseURL()),
		option.WithAPIKey("k"),
		option.WithHTTPClient(c.HTTPClient()),
		option.WithMaxRetries(0))
}

// chatTurns sends users one turn at a time, each with the whole history so
// far, and returns the assistant's answers.
func chatTurns(ctx context.Context, t *testing.T, client openai.Client, params openai.ChatCompletionNewParams, users ...string) []string {
	t.Helper()
	var answers []string
	for _, u := range users {
		params.Messages = append(params.Messages, openai.UserMessage(u))
		resp, err := client.Chat.Completions.New(ctx, params)
		if err != nil {
			t.Fatalf("turn %d (%q): %v", len(answers)+1, u, err)
		}
		answer := resp.Choices[0].Message.Content
		answers = append(answers, answer)
		params.Messages = append(params.Messages, openai.AssistantMessage(answer))
	}
	return answers
}

// Two declared conversations with the same opening run at the same time in
// one session; a per-conversation scenario gives each the whole sequence, in
// order, and the journal files every request under its conversation.
func TestConversationsInParallelGetTheirOwnSequence(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.WithStrict())
	sess := srv.NewSession(t, session.OnlyModels(e2e.ConversationModel))
	sess.Chat("plan").
		Responds("step one").
		Then("step two").
		Then("step three").
		Then("step four").
		PerConversation()
	users := []string{"Plan my day.", "And then?", "And after that?", "Last one?"}
	want := []string{"step one", "step two", "step three", "step four"}
	names := []string{"alice", "bob"}

	start := make(chan struct{})
	t.Run("conversations", func(t *testing.T) {
		for _, name := range names {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				client := conversationClient(sess, sess.Conversation(name))
				params := openai.ChatCompletionNewParams{Model: e2e.ConversationModel,
					Messages: []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(e2e.ConversationSystem)}}
				<-start
				got := chatTurns(t.Context(), t, client, params, users...)
				if strings.Join(got, "|") != strings.Join(want, "|") {
					t.Errorf("%s got %q, want %q", name, got, want)
				}
			})
		}
		close(start) // runs before the paused subtests resume
	})

	byConv := map[string][]journal.Entry{}
	for _, e := range e2e.JournalOf(t, sess, len(names)*len(users)) {
		byConv[e.Conversation] = append(byConv[e.Conversation], e)
	}
	if len(byConv) != len(names) {
		t.Fatalf("journal groups into conversations %v, want %v:\n%s", keys(byConv), names, llmtest.Transcript(sess))
	}
	for _, name := range names {
		entries := byConv[name]
		if len(entries) != len(users) {
			t.Errorf("conversation %s has %d entries, want %d", name, len(entries), len(users))
			continue
		}
		for i, e := range entries {
			if e.Turn != i+1 || e.Generation != 1 || e.UserText != users[i] || e.ReplyText != want[i] || e.Scenario != "plan" {
				t.Errorf("%s entry %d: turn %d generation %d user %q reply %q scenario %q; want turn %d generation 1 user %q reply %q from plan",
					name, i+1, e.Turn, e.Generation, e.UserText, e.ReplyText, e.Scenario, i+1, users[i], want[i])
			}
		}
	}
	// Each started conversation used its whole queue; a new one would get
	// all of it.
	st := sess.Scenarios()
	if len(st) != 1 || st[0].Remaining != len(want) || len(st[0].RemainingByConversation) != len(names) {
		t.Fatalf("scenario status = %+v, want %d remaining for a new conversation and %d started", st, len(want), len(names))
	}
	for conv, n := range st[0].RemainingByConversation {
		if n != 0 || !strings.HasPrefix(conv, "alice") && !strings.HasPrefix(conv, "bob") {
			t.Errorf("conversation %q has %d replies left, want alice or bob with 0", conv, n)
		}
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// The prompt_cache_key a client sends is journaled per request, so a test
// can assert that every turn of a conversation carried the same one.
func TestConversationPromptCacheKeyIsJournaled(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.OnlyModels(e2e.ConversationModel))
	sess.Chat("any").Responds("noted").Repeat()
	client := e2e.ClientFor(sess, "k")
	ctx := t.Context()
	for _, key := range []string{"trip-42", "trip-43"} {
		params := openai.ChatCompletionNewParams{Model: e2e.ConversationModel, PromptCacheKey: openai.String(key),
			Messages: []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(e2e.ConversationSystem)}}
		chatTurns(ctx, t, client, params, "Plan a trip for "+key, "Cheaper?", "Shorter?")
	}
	chatTurns(ctx, t, client, openai.ChatCompletionNewParams{Model: e2e.ConversationModel}, "No key here")

	entries := e2e.JournalOf(t, sess, 7)
	if len(entries) != 7 {
		t.Fatalf("journal holds %d entries, want 7", len(entries))
	}
	for i, e := range entries {
		want := ""
		switch {
		case i < 3:
			want = "trip-42"
		case i < 6:
			want = "trip-43"
		}
		if e.PromptCacheKey != want {
			t.Errorf("entry %d: prompt_cache_key %q, want %q", i+1, e.PromptCacheKey, want)
		}
		if wantTurn := i%3 + 1; i < 6 && e.Turn != wantTurn {
			t.Errorf("entry %d: turn %d, want %d", i+1, e.Turn, wantTurn)
		}
	}
	if entries[0].Conversation != entries[2].Conversation || entries[0].Conversation == entries[3].Conversation {
		t.Errorf("conversations %q %q %q: want the first three together and the next apart",
			entries[0].Conversation, entries[2].Conversation, entries[3].Conversation)
	}
}

// A per-conversation scenario exhausted in one conversation still answers
// another, and the miss names the conversation's exhausted queue.
func TestConversationExhaustedQueueIsPerConversation(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.OnlyModels(e2e.ConversationModel))
	sess.Chat("once").Responds("only answer").PerConversation()
	ctx := t.Context()
	alice := conversationClient(sess, sess.Conversation("alice"))
	if got := chatTurns(ctx, t, alice, openai.ChatCompletionNewParams{Model: e2e.ConversationModel}, "Hi"); got[0] != "only answer" {
		t.Fatalf("alice got %q", got)
	}
	_, err := alice.Chat.Completions.New(ctx, e2e.UserTurn(e2e.ConversationModel, "Hi again"))
	apiErr := e2e.OpenAIError(t, err)
	if apiErr.StatusCode != 400 || apiErr.Code != journal.NoScenarioCode || !strings.Contains(apiErr.Message, "used in this conversation") {
		t.Errorf("alice's second request: %d %s %q, want 400 %s naming the conversation's used replies",
			apiErr.StatusCode, apiErr.Code, apiErr.Message, journal.NoScenarioCode)
	}
	bob := conversationClient(sess, sess.Conversation("bob"))
	if got := chatTurns(ctx, t, bob, openai.ChatCompletionNewParams{Model: e2e.ConversationModel}, "Hi"); got[0] != "only answer" {
		t.Errorf("bob got %q, want the whole queue of a new conversation", got)
	}
	if r := sess.Assertions(); r.UnmatchedTotal != 1 {
		t.Errorf("UnmatchedTotal = %d, want 1", r.UnmatchedTotal)
	}
}
