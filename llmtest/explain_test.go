package llmtest_test

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// outputTB is an llmtest.TB that records what a test would print: every
// Errorf and Logf, and the functions that called Helper; it runs its
// cleanups on demand.
type outputTB struct {
	mu       sync.Mutex
	errors   []string
	logs     []string
	helpers  []string
	cleanups []func()
}

func (o *outputTB) Helper() {
	pc, _, _, _ := runtime.Caller(1)
	o.mu.Lock()
	defer o.mu.Unlock()
	o.helpers = append(o.helpers, runtime.FuncForPC(pc).Name())
}

func (o *outputTB) Cleanup(f func()) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.cleanups = append(o.cleanups, f)
}

func (o *outputTB) Errorf(format string, args ...any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.errors = append(o.errors, fmt.Sprintf(format, args...))
}

func (o *outputTB) Fatalf(format string, args ...any) { panic(fmt.Sprintf(format, args...)) }

func (o *outputTB) FailNow() { panic("FailNow") }

// Name is the name artifacts would be filed under; an outputTB writes none,
// as no test here sets an artifacts directory.
func (o *outputTB) Name() string { return "outputTB" }

func (o *outputTB) Logf(format string, args ...any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.logs = append(o.logs, fmt.Sprintf(format, args...))
}

func (o *outputTB) Failed() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.errors) > 0
}

func (o *outputTB) runCleanups() {
	for i := len(o.cleanups) - 1; i >= 0; i-- {
		o.cleanups[i]()
	}
}

// lineAbove returns "file:line" of the line above its caller's, as the
// builder records call sites.
func lineAbove() string {
	_, file, line, _ := runtime.Caller(1)
	return filepath.Base(file) + ":" + strconv.Itoa(line-1)
}

// missScript is a session that has dropped one request, answered one and
// missed the third, with three scenarios scripted in an order that is not
// the nearest-first order, two of them with a reply left.
type missScript struct {
	sess               *session.Session
	weatherAt, toolsAt string // where the unused replies were scripted
	tried              []journal.Tried
	errors             []string // what CheckAssertions reports
	faultsLog          string
}

func runMissScript(t *testing.T, sess *session.Session) missScript {
	t.Helper()
	ms := missScript{sess: sess}
	sess.Chat("weather-bot").When(scenario.UserContains("weather")).Responds("Sunny.")
	ms.weatherAt = lineAbove()
	sess.Chat("tools").When(scenario.All(scenario.Model(e2e.ReplyModel), scenario.ToolOffered("search"))).Responds("Searching.")
	ms.toolsAt = lineAbove()
	sess.Chat("greeting").When(scenario.UserContains("Bonjour")).Drops().Responds("Salut !")

	client := e2e.ClientFor(sess, "k")
	_, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Bonjour"))
	require.Error(t, err, "the first reply drops the connection")
	resp, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Bonjour"))
	require.NoError(t, err)
	require.Equal(t, "Salut !", resp.Choices[0].Message.Content)
	_, err = client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Bonjour"))
	apiErr := e2e.OpenAIError(t, err)
	require.Equal(t, journal.NoScenarioCode, apiErr.Code)

	ms.tried = []journal.Tried{
		{Scenario: "greeting", Why: "all 2 replies used"},
		{Scenario: "tools", Why: `does not match tool "search" offered (got no tools), 1 of 2 conditions hold`},
		{Scenario: "weather-bot", Why: `does not match user message containing "weather" (got "Bonjour")`},
	}
	id := sess.ID()
	ms.errors = []string{
		"llmtest: session " + id + ": 1 request(s) matched no scenario, want 0\n" +
			"\t#3 POST /v1/chat/completions model \"gpt-4.1-mini\" user \"Bonjour\"\n" +
			"\t\ttried \"greeting\": all 2 replies used\n" +
			"\t\ttried \"tools\": does not match tool \"search\" offered (got no tools), 1 of 2 conditions hold\n" +
			"\t\ttried \"weather-bot\": does not match user message containing \"weather\" (got \"Bonjour\")",
		"llmtest: session " + id + ": 2 scripted reply(ies) never used (\"tools\": 1, \"weather-bot\": 1), want all used\n" +
			"\t\"weather-bot\" replies[0] scripted at " + ms.weatherAt + "\n" +
			"\t\"tools\" replies[0] scripted at " + ms.toolsAt,
	}
	ms.faultsLog = "llmtest: session " + id + ": scripted faults fired: drop 1"
	return ms
}

// CheckAssertions prints, for a request nothing answered, every scenario
// tried and why, nearest first; for each unused reply the test line that
// scripted it; and the faults fired, as a log line. The miss's journal
// entry, reached through openai-go, carries the same explanation.
func TestCheckAssertionsExplainsAMiss(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	ms := runMissScript(t, srv.NewSession(t))

	entries := e2e.JournalOf(t, ms.sess, 3)
	assert.Equal(t, ms.tried, entries[2].Tried, "the miss's entry explains it, nearest first")
	for _, e := range entries[:2] {
		assert.Empty(t, e.Tried, "an answered request has no explanation")
	}
	r := ms.sess.Assertions()
	assert.Equal(t, []journal.UnusedReply{
		{Scenario: "weather-bot", Index: 0, ScriptedAt: ms.weatherAt},
		{Scenario: "tools", Index: 0, ScriptedAt: ms.toolsAt},
	}, r.Unused)
	assert.True(t, strings.HasPrefix(ms.weatherAt, "explain_test.go:"), ms.weatherAt)

	fake := &outputTB{}
	assert.False(t, llmtest.CheckAssertions(fake, ms.sess))
	assert.Equal(t, ms.errors, fake.errors)
	assert.Equal(t, []string{ms.faultsLog}, fake.logs)
	assert.Contains(t, fake.helpers, "github.com/llmtestserver/llmtestserver/llmtest.CheckAssertions")
}

// Strict mode prints the same at cleanup, then the transcript, which
// explains the miss too.
func TestStrictCleanupExplainsAMiss(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.WithStrict())
	fake := &outputTB{}
	ms := runMissScript(t, srv.NewSession(fake, session.WithIDSeed(7)))
	transcript := llmtest.Transcript(ms.sess)
	fake.runCleanups()
	assert.Equal(t, ms.errors, fake.errors)
	assert.Equal(t, []string{ms.faultsLog, "llmtest: session " + ms.sess.ID() + " transcript:\n" + transcript}, fake.logs)
	assert.Contains(t, fake.helpers, "github.com/llmtestserver/llmtestserver/llmtest.CheckAssertions")
}

// The transcript explains a miss under its entry, lists the unused replies
// with their call sites and the faults fired, and is the same for two runs
// of a script under the same ID seed.
func TestTranscriptExplainsAMiss(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	var transcripts []string
	for range 2 {
		ms := runMissScript(t, srv.NewSession(t, session.WithIDSeed(7)))
		transcripts = append(transcripts, llmtest.Transcript(ms.sess))
		// A dropped request has no status: the client got none.
		want := "#1 POST /v1/chat/completions -> 0 model=gpt-4.1-mini conversation=conv_22947bb26448d14a/1 turn=1 user=\"Bonjour\" scenario=greeting fault=drop\n" +
			"#2 POST /v1/chat/completions -> 200 model=gpt-4.1-mini conversation=conv_22947bb26448d14a/1 turn=1 user=\"Bonjour\" scenario=greeting reply=\"Salut !\"\n" +
			"#3 POST /v1/chat/completions -> 400 model=gpt-4.1-mini conversation=conv_22947bb26448d14a/1 turn=1 user=\"Bonjour\" error=llm_test_server_no_scenario\n" +
			"\ttried \"greeting\": all 2 replies used\n" +
			"\ttried \"tools\": does not match tool \"search\" offered (got no tools), 1 of 2 conditions hold\n" +
			"\ttried \"weather-bot\": does not match user message containing \"weather\" (got \"Bonjour\")\n" +
			"unused: 2 scripted reply(ies) never used\n" +
			"\t\"weather-bot\" replies[0] scripted at " + ms.weatherAt + "\n" +
			"\t\"tools\" replies[0] scripted at " + ms.toolsAt + "\n" +
			"faults fired: drop 1\n"
		assert.Equal(t, want, transcripts[len(transcripts)-1])
	}
	assert.Equal(t, transcripts[0], transcripts[1], "the transcript is stable under the ID seed")
}

// CheckAssertions and the transcript print each schema mismatch and each
// contradiction under a header line, with the scenario and reply that
// answered and, when the journal knows it, where the reply was scripted.
func TestCheckAssertionsExplainsSchemaMismatchesAndContradictions(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("weather").When(scenario.UserContains("Paris")).RespondsJSON(map[string]any{"city": "Paris", "temp": "warm"})
	weatherAt := lineAbove()
	sess.Chat("caller").When(scenario.UserContains("Weather?")).Reply(scenario.CallTools(weatherCall))
	callerAt := lineAbove()
	client := e2e.ClientFor(sess, "k")
	_, err := client.Chat.Completions.New(t.Context(), e2e.StructuredParams("Weather in Paris?"))
	require.NoError(t, err)
	_, err = client.Chat.Completions.New(t.Context(), chatWith(chatTools(), choiceMode("none"), nil))
	require.NoError(t, err)

	entries := e2e.JournalOf(t, sess, 2)
	// The entry's call site is the answer side's to record; where it is
	// recorded, it must be the test's line.
	answered := func(e journal.Entry, at string) string {
		s := fmt.Sprintf(" scenario %q replies[0]", e.Scenario)
		if e.ScriptedAt != "" {
			assert.Equal(t, at, e.ScriptedAt)
			s += " scripted at " + at
		}
		return s
	}
	schemaErrors := entries[0].SchemaErrors
	require.Equal(t, []string{`/sunny: required property is missing`, `/temp: expected number, got string`}, schemaErrors)
	contradiction := `the reply calls get_weather, but the request's tool_choice is "none": it allows no tool call`
	fake := &outputTB{}
	assert.False(t, llmtest.CheckAssertions(fake, sess))
	assert.Equal(t, []string{
		"llmtest: session " + sess.ID() + ": 1 structured output(s) failed the request's schema, want 0\n" +
			"\t#1 POST /v1/chat/completions" + answered(entries[0], weatherAt) + "\n" +
			"\t\t" + schemaErrors[0] + "\n" +
			"\t\t" + schemaErrors[1],
		"llmtest: session " + sess.ID() + ": 1 reply(ies) contradict their request, which the real model could not answer so, want 0\n" +
			"\t#2 POST /v1/chat/completions" + answered(entries[1], callerAt) + "\n" +
			"\t\t" + contradiction,
	}, fake.errors)
	assert.Empty(t, fake.logs, "no fault fired")

	assert.Equal(t, "#1 POST /v1/chat/completions -> 200 model=gpt-4.1-mini conversation=conv_a2d2df18f490246d/1 turn=1 user=\"Weather in Paris?\" scenario=weather reply=\"{\\\"city\\\":\\\"Paris\\\",\\\"temp\\\":\\\"warm\\\"}\"\n"+
		"\tschema: "+schemaErrors[0]+"\n"+
		"\tschema: "+schemaErrors[1]+"\n"+
		"#2 POST /v1/chat/completions -> 200 model=gpt-4o-mini conversation=conv_670819bdb02879b2/1 turn=1 user=\"Weather?\" scenario=caller call=get_weather({\"city\":\"Paris\"})\n"+
		"\tcontradiction: "+contradiction+"\n",
		llmtest.Transcript(sess), "nothing unused, no fault: the transcript ends with the entries")
}
