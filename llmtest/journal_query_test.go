package llmtest_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// querySession runs one agent session through openai-go and returns it
// with its server:
//
//	#1 alice turn 1 "Plan my day."        plan    step one
//	#2 bob   turn 1 "Plan my week."       plan    step one
//	#3 bob   turn 2 "What's the weather?" weather sunny
//	#4 alice turn 2 "And then?"           plan    step two
//	#5 gpt-4o "Bonjour"                   no scenario: 400
//	#6 embeddings
//	#7 alice again from turn 1: generation 2, plan step one
//	#8 carol turn 2 "What's the weather?" weather, sent while #9 waited
//	#9 carol turn 1 "Think slowly."       slow, a second's delay, so recorded after #8
func querySession(t *testing.T) (*llmtest.Server, *session.Session) {
	t.Helper()
	fake := clock.NewFake(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	srv := llmtest.NewServer(t, llmtest.WithClock(fake))
	sess := srv.NewSession(t)
	sess.Chat("weather").When(scenario.UserContains("weather")).Responds("sunny").Repeat()
	sess.Chat("slow").When(scenario.UserContains("slowly")).RespondsAfter(time.Second, "done slowly").Repeat()
	sess.Chat("plan").When(scenario.Model(e2e.ConversationModel)).Responds("step one").Then("step two").PerConversation()
	ctx := t.Context()

	alice := conversationClient(sess, sess.Conversation("alice"))
	bob := conversationClient(sess, sess.Conversation("bob"))
	carol := conversationClient(sess, sess.Conversation("carol"))
	opening := openai.ChatCompletionNewParams{Model: e2e.ConversationModel,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(e2e.ConversationSystem)}}
	turn := func(c openai.Client, params openai.ChatCompletionNewParams, user string) openai.ChatCompletionNewParams {
		t.Helper()
		params.Messages = append(params.Messages, openai.UserMessage(user))
		resp, err := c.Chat.Completions.New(ctx, params)
		require.NoError(t, err, "turn %q", user)
		params.Messages = append(params.Messages, openai.AssistantMessage(resp.Choices[0].Message.Content))
		return params
	}
	aliceParams := turn(alice, opening, "Plan my day.")
	bobParams := turn(bob, opening, "Plan my week.")
	turn(bob, bobParams, "What's the weather?")
	turn(alice, aliceParams, "And then?")

	plain := e2e.ClientFor(sess, "k")
	_, err := plain.Chat.Completions.New(ctx, e2e.UserTurn("gpt-4o", "Bonjour"))
	require.Error(t, err, "a request no scenario answers")
	_, err = plain.Embeddings.New(ctx, openai.EmbeddingNewParams{Model: "text-embedding-3-small",
		Input: openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: []string{"hello"}}})
	require.NoError(t, err)
	turn(alice, opening, "Plan my day.")

	// carol's first turn waits out its delay while her second is answered:
	// the journal records the second first.
	slow := make(chan error, 1)
	first := opening
	first.Messages = append(first.Messages[:len(first.Messages):len(first.Messages)], openai.UserMessage("Think slowly."))
	go func() {
		_, err := carol.Chat.Completions.New(ctx, first)
		slow <- err
	}()
	require.NoError(t, fake.WaitForTimers(ctx, 1), "the slow reply's delay never began")
	second := first
	second.Messages = append(first.Messages[:len(first.Messages):len(first.Messages)], openai.AssistantMessage("thinking"))
	turn(carol, second, "What's the weather?")
	fake.Advance(time.Second)
	require.NoError(t, <-slow)
	require.Equal(t, 9, sess.Journal().Len())
	return srv, sess
}

func seqsOf(entries []journal.Entry) []uint64 {
	out := make([]uint64, len(entries))
	for i, e := range entries {
		out[i] = e.Seq
	}
	return out
}

// Each filter of a journal query keeps what it names, through a session
// driven by openai-go: two conversations and more, several scenarios, a
// miss and an embedding.
func TestJournalQueriesOverHTTP(t *testing.T) {
	t.Parallel()
	_, sess := querySession(t)
	j := sess.Journal()
	for name, tt := range map[string]struct {
		q    journal.Query
		want []uint64
	}{
		"everything":          {journal.Query{}, []uint64{1, 2, 3, 4, 5, 6, 7, 8, 9}},
		"provider":            {journal.Query{Provider: "openai"}, []uint64{1, 2, 3, 4, 5, 6, 7, 8, 9}},
		"another provider":    {journal.Query{Provider: "anthropic"}, nil},
		"model":               {journal.Query{Model: "gpt-4o"}, []uint64{5}},
		"scenario":            {journal.Query{Scenario: "plan"}, []uint64{1, 2, 4, 7}},
		"another scenario":    {journal.Query{Scenario: "weather"}, []uint64{3, 8}},
		"conversation":        {journal.Query{Conversation: "bob"}, []uint64{2, 3}},
		"generation":          {journal.Query{Conversation: "alice", Generation: 2}, []uint64{7}},
		"status":              {journal.Query{Status: http.StatusBadRequest}, []uint64{5}},
		"status class":        {journal.Query{StatusClass: 2, Model: e2e.ConversationModel}, []uint64{1, 2, 3, 4, 7, 8, 9}},
		"unmatched":           {journal.Query{ErrorCode: journal.NoScenarioCode}, []uint64{5}},
		"scenario and model":  {journal.Query{Scenario: "plan", Model: e2e.ConversationModel, Conversation: "alice"}, []uint64{1, 4, 7}},
		"carol, arrival kept": {journal.Query{Conversation: "carol"}, []uint64{8, 9}},
	} {
		t.Run(name, func(t *testing.T) {
			got := j.Find(tt.q)
			if tt.want == nil {
				assert.Empty(t, got)
			} else {
				assert.Equal(t, tt.want, seqsOf(got))
			}
			assert.Equal(t, len(tt.want), j.Count(tt.q))
		})
	}

	c := j.Counts(journal.Query{})
	assert.Equal(t, map[string]int{"plan": 4, "weather": 2, "slow": 1, "": 2}, c.ByScenario)
	assert.Equal(t, map[string]int{e2e.ConversationModel: 7, "gpt-4o": 1, "text-embedding-3-small": 1}, c.ByModel)
	assert.Equal(t, map[int]int{200: 8, 400: 1}, c.ByStatus)
	assert.Equal(t, 3, c.ByConversation["alice"])
}

// The conversation view gives a conversation's entries in turn order,
// generation by generation, even where they were recorded in another.
func TestJournalConversationViewOverHTTP(t *testing.T) {
	t.Parallel()
	_, sess := querySession(t)
	j := sess.Journal()

	type step struct {
		Seq              uint64
		Generation, Turn int
		User, Reply      string
	}
	steps := func(entries []journal.Entry) []step {
		out := make([]step, len(entries))
		for i, e := range entries {
			out[i] = step{e.Seq, e.Generation, e.Turn, e.UserText, e.ReplyText}
		}
		return out
	}
	assert.Equal(t, []step{
		{1, 1, 1, "Plan my day.", "step one"},
		{4, 1, 2, "And then?", "step two"},
		{7, 2, 1, "Plan my day.", "step one"},
	}, steps(j.Conversation("alice")))
	assert.Equal(t, []step{
		{9, 1, 1, "Think slowly.", "done slowly"},
		{8, 1, 2, "What's the weather?", "sunny"},
	}, steps(j.Conversation("carol")), "turn order, not recording order")
	assert.Empty(t, j.Conversation("dave"))
}

// Entries compare cleanly once their times are set apart: two sessions
// that ran the same script with the same ID seed journal the same entries.
func TestJournalEntriesCompareWithoutTimes(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	run := func() []journal.Entry {
		sess := srv.NewSession(t, session.WithIDSeed(7))
		sess.Chat("greeting").Responds("Hello").Then("Hello again")
		client := e2e.ClientFor(sess, "k")
		for _, user := range []string{"Hi", "Hi again", "Bonjour"} {
			_, _ = client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ConversationModel, user))
		}
		return sess.Journal().Entries()
	}
	a, b := run(), run()
	require.Len(t, a, 3)
	assert.Equal(t, journal.WithoutTimes(a), journal.WithoutTimes(b))
	assert.False(t, a[0].Time.IsZero(), "the journal keeps its times")
	assert.Equal(t, `#3 POST /v1/chat/completions -> 400 model=gpt-4.1-mini conversation=`+a[2].Conversation+
		`/1 turn=1 user="Bonjour" error=llm_test_server_no_scenario`, a[2].String())
}

// adminJournal reads GET /admin-api/journal with the query parameters
// given, decoding the entries with journal.Entry's UnmarshalJSON.
func adminJournal(t *testing.T, srv *llmtest.Server, sess *session.Session, query string) (e2e.Reply, []journal.Entry) {
	t.Helper()
	r := e2e.Call(t, srv.Client(), http.MethodGet, srv.URL()+"/admin-api/journal"+query, "", e2e.Join(e2e.SelectorOf(sess), e2e.Bearer("k"))...)
	if r.Status != http.StatusOK {
		return r, nil
	}
	var list struct {
		Object string          `json:"object"`
		Data   []journal.Entry `json:"data"`
	}
	require.NoError(t, json.Unmarshal(r.Body, &list), "body %s", r.Body)
	require.Equal(t, "list", list.Object)
	require.NotNil(t, list.Data, "data is a list, [] when empty: %s", r.Body)
	return r, list.Data
}

// The admin journal takes the same filters as query parameters, and a
// conversation's entries come in turn order.
func TestAdminJournalFilters(t *testing.T) {
	t.Parallel()
	srv, sess := querySession(t)
	j := sess.Journal()
	for query, want := range map[string][]uint64{
		"": {1, 2, 3, 4, 5, 6, 7, 8, 9},
		"?provider=openai&model=text-embedding-3-small": {6},
		"?model=gpt-4o":                           {5},
		"?scenario=plan":                          {1, 2, 4, 7},
		"?conversation=bob":                       {2, 3},
		"?conversation=carol":                     {9, 8},
		"?conversation=alice&generation=2":        {7},
		"?conversation=alice&scenario=plan":       {1, 4, 7},
		"?status=400":                             {5},
		"?status=4xx":                             {5},
		"?status=2XX&scenario=weather":            {3, 8},
		"?error_code=llm_test_server_no_scenario": {5},
		"?fault=drop":                             {},
		"?model=" + url.QueryEscape("gpt-4.1-mini") + "&conversation=nobody": {},
	} {
		t.Run(query, func(t *testing.T) {
			_, got := adminJournal(t, srv, sess, query)
			require.Equal(t, want, seqsOf(got))
			for _, e := range got {
				byGo := j.Find(journal.Query{})[e.Seq-1]
				assert.Equal(t, byGo.WithoutTimes(), e.WithoutTimes(), "entry #%d through the admin API", e.Seq)
				assert.True(t, byGo.Time.Equal(e.Time), "entry #%d's time", e.Seq)
			}
		})
	}
}

// A filter the admin journal does not know, or a bad value, is a 400 in
// the admin API's envelope naming the parameter, never everything.
func TestAdminJournalRefusesBadFilters(t *testing.T) {
	t.Parallel()
	srv, sess := querySession(t)
	for query, param := range map[string]string{
		"?sceanrio=plan":          "sceanrio",
		"?status=abc":             "status",
		"?status=4xy":             "status",
		"?status=600":             "status",
		"?status=6xx":             "status",
		"?status=+200":            "status",
		"?status=":                "status",
		"?model=":                 "model",
		"?model=a&model=b":        "model",
		"?generation=0":           "generation",
		"?generation=two":         "generation",
		"?scenario=plan&limit=10": "limit",
		"?conversation=alice&x=":  "x",
	} {
		t.Run(query, func(t *testing.T) {
			r, _ := adminJournal(t, srv, sess, query)
			r.WantError(t, http.StatusBadRequest, "invalid_query_parameter")
			_, typ, gotParam, message := r.APIError(t)
			assert.Equal(t, "invalid_request_error", typ)
			assert.Equal(t, param, gotParam)
			assert.Contains(t, message, param)
		})
	}
	_, all := adminJournal(t, srv, sess, "")
	assert.Len(t, all, 9, "a refused query changes nothing")
}
