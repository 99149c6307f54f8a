package session_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/conversations"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// GET /admin-api/config answers Session.Config's JSON, which PUT takes
// back as it is; a refused PUT leaves it as it was.
func TestAdminConfigReadsWhatPutTakes(t *testing.T) {
	a := newAdminServer(t, session.ManagerConfig{})
	sess := a.create(`{"models":["gpt-4.1-mini"],"api_key":"pk","chaos":{"seed":7,"rules":[{"name":"x","every":5,"reply":{"error":{"status":503}}}]},
		"scenarios":[{"name":"a","match":{},"replies":[{"text":"one"},{"text":"two"}]}]}`)
	auth := append(of(sess), "Authorization", "Bearer pk")

	r := a.do(http.MethodGet, "/admin-api/config", "", auth...)
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	cfg, err := sess.Config()
	require.NoError(t, err)
	want, err := json.Marshal(cfg)
	require.NoError(t, err)
	assert.JSONEq(t, string(want), string(r.body))
	assert.Equal(t, "no-store", r.header.Get("Cache-Control"))

	assert.Equal(t, http.StatusUnauthorized, a.do(http.MethodGet, "/admin-api/config", "", of(sess)...).status)
	bad := a.do(http.MethodPut, "/admin-api/config", `{"journal":{"capacity":0}}`, auth...)
	require.Equal(t, http.StatusBadRequest, bad.status)
	_, param := errorParam(t, bad.body)
	assert.Equal(t, "journal.capacity", param)
	assert.JSONEq(t, string(want), string(a.do(http.MethodGet, "/admin-api/config", "", auth...).body), "a refused PUT changes nothing")

	require.Equal(t, http.StatusNoContent, a.do(http.MethodPut, "/admin-api/config", string(r.body), auth...).status)
	assert.JSONEq(t, string(want), string(a.do(http.MethodGet, "/admin-api/config", "", auth...).body), "what GET answers applies as it is")

	// The default runtime answers its own, its API key the management key.
	d := a.do(http.MethodGet, "/admin-api/config", "", mgmt()...)
	require.Equal(t, http.StatusOK, d.status)
	assert.Contains(t, string(d.body), `"api_key":"`+managementKey+`"`)
}

// A session created with bearer_token, api_key's former name, requires
// that key, and its configuration reads back with api_key alone.
func TestAdminTakesBearerTokenAsAPIKey(t *testing.T) {
	a := newAdminServer(t, session.ManagerConfig{})
	sess := a.create(`{"bearer_token":"old-name-key","scenarios":[{"name":"a","match":{},"replies":[{"text":"one"}]}]}`)
	r := a.do(http.MethodGet, "/admin-api/config", "", append(of(sess), "Authorization", "Bearer old-name-key")...)
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	assert.Contains(t, string(r.body), `"api_key":"old-name-key"`)
	assert.NotContains(t, string(r.body), "bearer_token")
	assert.Equal(t, http.StatusUnauthorized, a.do(http.MethodGet, "/admin-api/config", "", append(of(sess), "Authorization", "Bearer other")...).status)

	both := a.do(http.MethodPut, "/admin-api/config", `{"api_key":"a","bearer_token":"b"}`, append(of(sess), "Authorization", "Bearer old-name-key")...)
	require.Equal(t, http.StatusBadRequest, both.status, "%s", both.body)
	_, param := errorParam(t, both.body)
	assert.Equal(t, "bearer_token", param)
}

// DELETE /admin-api/scenarios drops the replies left, of one scenario
// with ?name= or of all; bad parameters are refused and clear nothing.
func TestAdminClearScenarios(t *testing.T) {
	a := newAdminServer(t, session.ManagerConfig{})
	sess := a.create(`{"scenarios":[{"name":"a","match":{"user_contains":"a"},"replies":[{"text":"a1"},{"text":"a2"}]},
		{"name":"b","match":{"user_contains":"b"},"replies":[{"text":"b1"}]}]}`)
	c := client(sess, option.WithMaxRetries(0))
	got, err := chat(t, c, "a")
	require.NoError(t, err)
	require.Equal(t, "a1", got)
	reserved := sess.Reservation()

	for _, q := range []string{"?name=zzz", "?other=1", "?name=", "?name=a&name=b"} {
		r := a.do(http.MethodDelete, "/admin-api/scenarios"+q, "", of(sess)...)
		require.Equal(t, http.StatusBadRequest, r.status, q)
		code, param := errorParam(t, r.body)
		assert.Equal(t, "invalid_query_parameter", code, q)
		assert.NotEmpty(t, param, q)
	}
	assert.Equal(t, 2, sess.Pending(), "refused clears change nothing")

	require.Equal(t, http.StatusNoContent, a.do(http.MethodDelete, "/admin-api/scenarios?name=a", "", of(sess)...).status)
	left := map[string]int{}
	for _, s := range sess.Scenarios() {
		left[s.Scenario.Name] = s.Remaining
	}
	assert.Equal(t, map[string]int{"a": 0, "b": 1}, left)
	assert.Less(t, sess.Reservation(), reserved, "the cleared replies are priced out")
	got, err = chat(t, c, "b")
	require.NoError(t, err)
	assert.Equal(t, "b1", got)

	require.Equal(t, http.StatusNoContent, a.do(http.MethodDelete, "/admin-api/scenarios", "", of(sess)...).status)
	assert.Equal(t, 0, sess.Pending())

	// The default runtime clears its own.
	require.Equal(t, http.StatusNoContent, a.do(http.MethodPost, "/admin-api/scenarios",
		`{"scenarios":[{"name":"d","match":{},"replies":[{"text":"x"}]}]}`, mgmt()...).status)
	require.Equal(t, http.StatusNoContent, a.do(http.MethodDelete, "/admin-api/scenarios?name=d", "", mgmt()...).status)
	listed := string(a.do(http.MethodGet, "/admin-api/scenarios", "", mgmt()...).body)
	assert.Contains(t, listed, `"name":"d"`)
	assert.Contains(t, listed, `"remaining":0`)
}

// PUT /admin-api/chaos and /admin-api/rate-limits replace only their part
// of the configuration, checked like it; GET answers it, null when unset.
// The scenario queues keep their place.
func TestAdminChaosAndRateLimits(t *testing.T) {
	a := newAdminServer(t, session.ManagerConfig{})
	sess := a.create(`{"scenarios":[{"name":"a","match":{},"replies":[{"text":"one"},{"text":"two"},{"text":"three"},{"text":"four"}]}]}`)
	c := client(sess, option.WithMaxRetries(0))
	got, err := chat(t, c, "hi")
	require.NoError(t, err)
	require.Equal(t, "one", got)

	assert.Equal(t, "null", string(a.do(http.MethodGet, "/admin-api/chaos", "", of(sess)...).body))
	rules := `{"seed":3,"rules":[{"name":"boom","every":1,"reply":{"error":{"status":500,"message":"chaos!"}}}]}`
	for body, field := range map[string]string{
		`{"seed":3,"rules":[{"every":-1,"reply":{"text":"x"}}]}`: "chaos.rules[0].every",
		`{"rules":[]} , "api_key":"x"`:                           "chaos",
		`[1]`:                                                    "chaos",
	} {
		r := a.do(http.MethodPut, "/admin-api/chaos", body, of(sess)...)
		require.Equal(t, http.StatusBadRequest, r.status, "%s: %s", body, r.body)
		_, param := errorParam(t, r.body)
		assert.Equal(t, field, param, body)
	}
	cfg, err := sess.Config()
	require.NoError(t, err)
	assert.Nil(t, cfg.Chaos, "refused PUTs change nothing")
	assert.Empty(t, cfg.APIKey)

	require.Equal(t, http.StatusNoContent, a.do(http.MethodPut, "/admin-api/chaos", rules, of(sess)...).status)
	assert.JSONEq(t, rules, string(a.do(http.MethodGet, "/admin-api/chaos", "", of(sess)...).body))
	_, err = chat(t, c, "hi")
	var apiErr *openai.Error
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusInternalServerError, apiErr.StatusCode)
	entries := sess.Journal().Entries()
	assert.Equal(t, "chaos:boom", entries[len(entries)-1].Scenario)
	require.Equal(t, http.StatusNoContent, a.do(http.MethodPut, "/admin-api/chaos", "null", of(sess)...).status)
	assert.Equal(t, "null", string(a.do(http.MethodGet, "/admin-api/chaos", "", of(sess)...).body))
	got, err = chat(t, c, "hi")
	require.NoError(t, err)
	assert.Equal(t, "two", got, "the queue kept its place")

	limits := `{"requests_per_minute":1,"models":{"gpt-4o":{"tokens_per_minute":1000}}}`
	r := a.do(http.MethodPut, "/admin-api/rate-limits", `{"requests_per_minute":-5}`, of(sess)...)
	require.Equal(t, http.StatusBadRequest, r.status)
	_, param := errorParam(t, r.body)
	assert.Equal(t, "rate_limits.requests_per_minute", param)
	require.Equal(t, http.StatusNoContent, a.do(http.MethodPut, "/admin-api/rate-limits", limits, of(sess)...).status)
	assert.JSONEq(t, limits, string(a.do(http.MethodGet, "/admin-api/rate-limits", "", of(sess)...).body))
	got, err = chat(t, c, "hi")
	require.NoError(t, err)
	assert.Equal(t, "three", got)
	_, err = chat(t, c, "hi")
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusTooManyRequests, apiErr.StatusCode)
	require.Equal(t, http.StatusNoContent, a.do(http.MethodPut, "/admin-api/rate-limits", "null", of(sess)...).status)
	got, err = chat(t, c, "hi")
	require.NoError(t, err)
	assert.Equal(t, "four", got)
	cfg, err = sess.Config()
	require.NoError(t, err)
	assert.Nil(t, cfg.RateLimits)
	assert.Equal(t, cfg.Reservation(), sess.Reservation(), "the reservation follows the configuration")
}

// A drop, then a 429, then success, scripted over HTTP: openai-go retries
// through both faults and gets the answer.
func TestAdminScriptedFaultsFireThroughOpenAIGo(t *testing.T) {
	a := newAdminServer(t, session.ManagerConfig{})
	sess := a.create("")
	require.Equal(t, http.StatusNoContent, a.do(http.MethodPost, "/admin-api/scenarios", `{"scenarios":[{"name":"flaky","match":{},"replies":[
		{"fault":{"kind":"drop"}},
		{"error":{"status":429,"code":"rate_limit_exceeded","headers":{"Retry-After":"0"}}},
		{"text":"made it"}]}]}`, of(sess)...).status)
	got, err := chat(t, client(sess, option.WithMaxRetries(2)), "hi")
	require.NoError(t, err)
	assert.Equal(t, "made it", got)
	entries := sess.Journal().Entries()
	require.Len(t, entries, 3)
	assert.Equal(t, "drop", entries[0].Fault)
	assert.Equal(t, http.StatusTooManyRequests, entries[1].Status)
	assert.Equal(t, http.StatusOK, entries[2].Status)
	assert.Equal(t, map[string]int{"drop": 1, "http_error": 1}, sess.Assertions().Faults)
}

// POST /admin-api/sessions/{id}/fork makes a fork as Session.Fork does,
// authorized by the parent's headers and admitted within the bounds.
func TestAdminForkOverHTTP(t *testing.T) {
	a := newAdminServer(t, session.ManagerConfig{Bounds: session.Bounds{MaxSessions: 2}})
	parent := a.create(`{"id_seed":42,"scenarios":[{"name":"a","match":{},"replies":[{"text":"one"},{"text":"two"}]}]}`)
	got, err := chat(t, client(parent, option.WithMaxRetries(0)), "hi")
	require.NoError(t, err)
	require.Equal(t, "one", got)
	path := "/admin-api/sessions/" + parent.ID() + "/fork"

	for _, tc := range []struct {
		body, param string
	}{{`{"name":""}`, "name"}, {`{"nme":"x"}`, "nme"}, {`{"name":3}`, "name"}, {`{"name":"x"} {}`, ""}} {
		r := a.do(http.MethodPost, path, tc.body, of(parent)...)
		require.Equal(t, http.StatusBadRequest, r.status, "%s: %s", tc.body, r.body)
		code, param := errorParam(t, r.body)
		assert.Equal(t, "invalid_request_body", code)
		assert.Equal(t, tc.param, param, tc.body)
	}
	wrong := []string{session.HeaderSession, parent.ID(), session.HeaderSessionKey, "sk_wrong"}
	assert.Equal(t, http.StatusNotFound, a.do(http.MethodPost, path, "", wrong...).status)
	assert.Equal(t, http.StatusNotFound, a.do(http.MethodPost, path, "", mgmt()...).status)
	assert.Equal(t, 1, a.m.Len(), "refused forks admit nothing")

	r := a.do(http.MethodPost, path, `{"name":"sub"}`, of(parent)...)
	require.Equal(t, http.StatusCreated, r.status, "%s", r.body)
	var created struct {
		ID               string `json:"id"`
		Key              string `json:"key"`
		ReservationBytes int64  `json:"reservation_bytes"`
	}
	require.NoError(t, json.Unmarshal(r.body, &created))
	assert.Equal(t, "/admin-api/sessions/"+created.ID, r.header.Get("Location"))
	fork, ok := a.m.Lookup(created.ID, created.Key)
	require.True(t, ok)
	assert.Equal(t, parent.Reservation(), created.ReservationBytes)
	got, err = chat(t, client(fork, option.WithMaxRetries(0)), "hi")
	require.NoError(t, err)
	assert.Equal(t, "two", got, "the fork goes on from the parent's place")
	assert.Equal(t, 1, parent.Pending(), "the parent is left as it was")

	// The same name from the same seeded parent gives the same seed, as
	// session.ForkName says.
	inGo, err := parent.Fork(session.ForkName("sub"))
	require.Error(t, err, "the bounds are full")
	full := a.do(http.MethodPost, path, "", of(parent)...)
	require.Equal(t, http.StatusConflict, full.status)
	code, _ := errorParam(t, full.body)
	assert.Equal(t, "session_capacity_exceeded", code)
	assert.Nil(t, inGo)
	fork.Close()
	inGo, err = parent.Fork(session.ForkName("sub"))
	require.NoError(t, err)
	defer inGo.Close()
	goCfg, err := inGo.Config()
	require.NoError(t, err)
	require.NotNil(t, goCfg.IDSeed)
	_ = a.do(http.MethodDelete, "/admin-api/sessions/"+inGo.ID(), "", of(inGo)...)
	r = a.do(http.MethodPost, path, `{"name":"sub"}`, of(parent)...)
	require.Equal(t, http.StatusCreated, r.status)
	require.NoError(t, json.Unmarshal(r.body, &created))
	again, _ := a.m.Lookup(created.ID, created.Key)
	againCfg, err := again.Config()
	require.NoError(t, err)
	assert.Equal(t, *goCfg.IDSeed, *againCfg.IDSeed)
}

// The clock routes read the server's clock and move a fake one; the real
// clock is 409 clock_not_fake. Both need the management key.
func TestAdminClock(t *testing.T) {
	start := time.Date(2030, 1, 2, 3, 4, 5, 6, time.UTC)
	fake := clock.NewFake(start)
	a := newAdminServer(t, session.ManagerConfig{Clock: fake})
	type state struct {
		Now  time.Time `json:"now"`
		Fake bool      `json:"fake"`
	}
	read := func(r answer) state {
		t.Helper()
		require.Equal(t, http.StatusOK, r.status, "%s", r.body)
		var s state
		require.NoError(t, json.Unmarshal(r.body, &s))
		return s
	}
	assert.Equal(t, state{start, true}, read(a.do(http.MethodGet, "/admin-api/clock", "", mgmt()...)))
	assert.Contains(t, string(a.do(http.MethodGet, "/admin-api/clock", "", mgmt()...).body), `"now":"2030-01-02T03:04:05.000000006Z"`)

	for _, body := range []string{``, `{}`, `{"duration":"soon"}`, `{"duration":"-1s"}`, `{"duration":20}`, `{"by":"1s"}`} {
		r := a.do(http.MethodPost, "/admin-api/clock/advance", body, mgmt()...)
		require.Equal(t, http.StatusBadRequest, r.status, "%s: %s", body, r.body)
		_, param := errorParam(t, r.body)
		assert.NotEmpty(t, param, body)
	}
	sess := a.create("")
	assert.Equal(t, http.StatusBadRequest, a.do(http.MethodPost, "/admin-api/clock/advance", `{"duration":"1s"}`, append(of(sess), mgmt()...)...).status)
	assert.Equal(t, http.StatusUnauthorized, a.do(http.MethodPost, "/admin-api/clock/advance", `{"duration":"1s"}`).status)
	assert.Equal(t, start, fake.Now(), "refused advances move nothing")

	assert.Equal(t, state{start.Add(20 * time.Second), true},
		read(a.do(http.MethodPost, "/admin-api/clock/advance", `{"duration":"20s"}`, mgmt()...)))
	assert.Equal(t, start.Add(20*time.Second), fake.Now())

	real := newAdminServer(t, session.ManagerConfig{})
	assert.False(t, read(real.do(http.MethodGet, "/admin-api/clock", "", mgmt()...)).Fake)
	r := real.do(http.MethodPost, "/admin-api/clock/advance", `{"duration":"20s"}`, mgmt()...)
	require.Equal(t, http.StatusConflict, r.status)
	code, _ := errorParam(t, r.body)
	assert.Equal(t, "clock_not_fake", code)
}

// GET /admin-api/history lists the stored responses, chat completions and
// conversations, with the bounds in use, as Session.History does.
func TestAdminHistoryListsStoredRecords(t *testing.T) {
	start := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	a := newAdminServer(t, session.ManagerConfig{Clock: clock.NewFake(start)})
	sess := a.create(`{"history":{"capacity":10,"max_bytes":1000000},"scenarios":[{"name":"a","match":{},"repeat":true,"replies":[{"text":"ok"}]}]}`)
	c := client(sess, option.WithMaxRetries(0))
	ctx := t.Context()
	r1, err := c.Responses.New(ctx, responses.ResponseNewParams{Model: "gpt-4.1-mini", Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("one")}})
	require.NoError(t, err)
	r2, err := c.Responses.New(ctx, responses.ResponseNewParams{Model: "gpt-4.1-mini", PreviousResponseID: openai.String(r1.ID),
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("two")}})
	require.NoError(t, err)
	cc, err := c.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: "gpt-4.1-mini", Store: openai.Bool(true),
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("three")}})
	require.NoError(t, err)
	conv, err := c.Conversations.New(ctx, conversations.ConversationNewParams{})
	require.NoError(t, err)

	r := a.do(http.MethodGet, "/admin-api/history", "", of(sess)...)
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	var list struct {
		Object string `json:"object"`
		Data   []struct {
			ID                 string    `json:"id"`
			Kind               string    `json:"kind"`
			CreatedAt          time.Time `json:"created_at"`
			SizeBytes          int64     `json:"size_bytes"`
			PreviousResponseID string    `json:"previous_response_id"`
		} `json:"data"`
		Bytes   int64 `json:"bytes"`
		History struct {
			Capacity int   `json:"capacity"`
			MaxBytes int64 `json:"max_bytes"`
		} `json:"history"`
	}
	dec := json.NewDecoder(strings.NewReader(string(r.body)))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&list))
	assert.Equal(t, "list", list.Object)
	require.Len(t, list.Data, 4)
	var ids, kinds []string
	var sum int64
	for _, d := range list.Data {
		ids, kinds = append(ids, d.ID), append(kinds, d.Kind)
		sum += d.SizeBytes
		assert.Equal(t, start, d.CreatedAt, d.ID)
		assert.Positive(t, d.SizeBytes)
	}
	assert.Equal(t, []string{r1.ID, r2.ID, cc.ID, conv.ID}, ids)
	assert.Equal(t, []string{"response", "response", "chat.completion", "conversation"}, kinds)
	assert.Equal(t, r1.ID, list.Data[1].PreviousResponseID)
	assert.Equal(t, sum, list.Bytes)
	assert.Equal(t, 10, list.History.Capacity)
	assert.Equal(t, int64(1000000), list.History.MaxBytes)

	h := sess.History()
	require.Len(t, h.Records, 4)
	assert.Equal(t, session.StoredRecord{ID: r2.ID, Kind: "response", Created: start, Size: list.Data[1].SizeBytes, PreviousID: r1.ID}, h.Records[1])
	assert.Equal(t, list.Bytes, h.Bytes)
	assert.Equal(t, session.HistoryConfig{Capacity: 10, MaxBytes: 1000000}, h.Bounds)
}

// A scenario that holds a Go function cannot be sent as JSON, so GET
// /admin-api/config refuses it with 409 configuration_in_process_only;
// the chaos rules and the rate limits are read all the same.
func TestAdminMembersReadPastGoFunctions(t *testing.T) {
	a := newAdminServer(t, session.ManagerConfig{})
	sess, err := a.m.Create(session.WithRateLimits(60, 0),
		session.WithScenario(scenario.Scenario{Name: "go", Match: scenario.Func(func(*scenario.Request) bool { return true }),
			Replies: []scenario.Reply{scenario.Text("from Go")}}))
	require.NoError(t, err)
	t.Cleanup(sess.Close)

	r := a.do(http.MethodGet, "/admin-api/config", "", of(sess)...)
	assert.Equal(t, http.StatusConflict, r.status, "%s", r.body)
	code, _ := errorParam(t, r.body)
	assert.Equal(t, "configuration_in_process_only", code)

	r = a.do(http.MethodGet, "/admin-api/rate-limits", "", of(sess)...)
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	assert.JSONEq(t, `{"requests_per_minute":60}`, string(r.body))
	r = a.do(http.MethodGet, "/admin-api/chaos", "", of(sess)...)
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	assert.Equal(t, "null", string(r.body))
}

// A fake clock cannot be moved past the year 9999, after which no time
// the admin API answers could be written (they answered 500, and the
// dashboard stopped loading): such an advance is a 400 that says why and
// moves nothing, and the API goes on answering.
func TestAdminClockStopsAtTheLastWritableTime(t *testing.T) {
	start := time.Date(9999, 12, 31, 23, 0, 0, 0, time.UTC)
	fake := clock.NewFake(start)
	a := newAdminServer(t, session.ManagerConfig{Clock: fake})
	sess := a.create("")
	for _, d := range []string{"1h", "2h", "2562047h"} {
		r := a.do(http.MethodPost, "/admin-api/clock/advance", `{"duration":"`+d+`"}`, mgmt()...)
		require.Equal(t, http.StatusBadRequest, r.status, "%s: %s", d, r.body)
		code, param := errorParam(t, r.body)
		assert.Equal(t, "invalid_request_body", code)
		assert.Equal(t, "duration", param)
		assert.Contains(t, string(r.body), "9999-12-31T23:59:59.999999999Z")
	}
	assert.Equal(t, start, fake.Now(), "refused advances move nothing")
	r := a.do(http.MethodPost, "/admin-api/clock/advance", `{"duration":"59m59s"}`, mgmt()...)
	require.Equal(t, http.StatusOK, r.status, "%s", r.body)
	for _, path := range []string{"/admin-api/clock", "/admin-api/sessions", "/admin-api/sessions/" + sess.ID()} {
		r := a.do(http.MethodGet, path, "", mgmt()...)
		assert.Equal(t, http.StatusOK, r.status, "%s: %s", path, r.body)
	}
	for _, path := range []string{"/admin-api/journal", "/admin-api/history"} {
		r := a.do(http.MethodGet, path, "", of(sess)...)
		assert.Equal(t, http.StatusOK, r.status, "%s: %s", path, r.body)
	}
}

// The default runtime takes its share of the budget like a session: a
// configuration or fault settings that would take it past what is free
// are refused with 409 and change nothing (a 5.4 GiB configuration was
// accepted on a 64 MiB budget, and the heap grew with it), and what it
// reserves is not free for sessions.
func TestAdminPricesTheDefaultRuntime(t *testing.T) {
	def := session.DefaultConfig()
	a := newAdminServer(t, session.ManagerConfig{Bounds: session.Bounds{MaxSessions: 4,
		MaxReservedBytes: def.Reservation() + 128<<10, MaxConfigBytes: 1 << 20}})
	read := func() string {
		r := a.do(http.MethodGet, "/admin-api/config", "", mgmt()...)
		require.Equal(t, http.StatusOK, r.status, "%s", r.body)
		return string(r.body)
	}
	was := read()
	for path, body := range map[string]string{
		"/admin-api/config":      `{"api_key":"` + managementKey + `","journal":{"capacity":1000,"max_bytes":1073741824}}`,
		"/admin-api/rate-limits": `{"requests_per_minute":1,"models":{` + manyModels(100) + `}}`,
	} {
		r := a.do(http.MethodPut, path, body, mgmt()...)
		require.Equal(t, http.StatusConflict, r.status, "%s: %s", path, r.body)
		code, _ := errorParam(t, r.body)
		assert.Equal(t, "session_capacity_exceeded", code, path)
		assert.Equal(t, was, read(), "%s: a refused change changes nothing", path)
	}
	r := a.do(http.MethodPost, "/admin-api/sessions", "{}", mgmt()...)
	require.Equal(t, http.StatusConflict, r.status, "the default runtime's share is not free for a session: %s", r.body)
	// What fits is taken.
	r = a.do(http.MethodPut, "/admin-api/config", `{"api_key":"`+managementKey+`","journal":{"capacity":1000,"max_bytes":8454144}}`, mgmt()...)
	require.Equal(t, http.StatusNoContent, r.status, "%s", r.body)
}

// manyModels is JSON members naming n models, each with its own limits.
func manyModels(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"model-%d":{"requests_per_minute":1}`, i)
	}
	return b.String()
}
