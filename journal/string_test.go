package journal_test

import (
	"fmt"
	"go/parser"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/llmtestserver/llmtestserver/journal"
)

// String shows one entry on one line, without anything that changes from
// run to run.
func TestEntryString(t *testing.T) {
	at := time.Date(2026, 12, 1, 15, 0, 0, 0, time.UTC)
	for name, tt := range map[string]struct {
		e    journal.Entry
		want string
	}{
		"answered turn": {journal.Entry{Seq: 3, Time: at, Duration: time.Second, FirstByte: time.Millisecond,
			ResponseID: "chatcmpl-random", Method: "POST", Path: "/v1/chat/completions", Status: 200, Model: "gpt-4.1-mini",
			Conversation: "conv_0123", Generation: 1, Turn: 2, UserText: "And then?", Scenario: "plan", ReplyText: "step two"},
			`#3 POST /v1/chat/completions -> 200 model=gpt-4.1-mini conversation=conv_0123/1 turn=2 user="And then?" scenario=plan reply="step two"`},
		"miss": {journal.Entry{Seq: 1, Method: "POST", Path: "/v1/chat/completions", Status: 400, Model: "gpt-4.1-mini",
			UserText: "Bonjour", ErrorCode: journal.NoScenarioCode, ErrorMessage: "no scenario matched"},
			`#1 POST /v1/chat/completions -> 400 model=gpt-4.1-mini user="Bonjour" error=llm_test_server_no_scenario`},
		"tool calls, refusal, fault, replay, contradiction": {journal.Entry{Seq: 9, Method: "POST", Path: "/v1/messages", Status: 200,
			ToolCalls: []journal.ToolCall{{ID: "toolu_1", Name: "get_weather", Arguments: "{\"city\":\n\"Paris\"}"}},
			Refusal:   "I can't", Fault: "cut", Replay: true, Contradictions: []string{`tool_choice is "none"`}},
			`#9 POST /v1/messages -> 200 call=get_weather({"city":\n"Paris"}) refusal="I can't" fault=cut replay contradiction="tool_choice is \"none\""`},
		"names that are not one word": {journal.Entry{Seq: 2, Method: "POST", Path: "/v1/chat/completions", Status: 200,
			Scenario: "two words", Conversation: "line\nbreak", Generation: 1, Turn: 1},
			`#2 POST /v1/chat/completions -> 200 conversation="line\nbreak"/1 turn=1 scenario="two words"`},
		"a job polled": {journal.Entry{Seq: 5, Method: "GET", Path: "/v1/videos/video_1", Status: 200, Job: "video_1", JobState: "in_progress"},
			`#5 GET /v1/videos/video_1 -> 200 job=video_1 state=in_progress`},
		"a batch's line": {journal.Entry{Seq: 6, Method: "POST", Path: "/v1/chat/completions", Status: 200, Job: "batch_1", CustomID: "req-7",
			Scenario: "a", ReplyText: "hi"},
			`#6 POST /v1/chat/completions -> 200 job=batch_1 custom_id=req-7 scenario=a reply="hi"`},
		"a dropped request": {journal.Entry{Seq: 4, Method: "POST", Path: "/v1/responses", Fault: "drop"},
			`#4 POST /v1/responses -> 0 fault=drop`},
	} {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.e.String())
		})
	}
}

// Long texts and names are cut at 80 runes, the cut marked, on rune
// boundaries.
func TestEntryStringShortensLongTexts(t *testing.T) {
	long := strings.Repeat("é", 200)
	s := journal.Entry{Seq: 1, Method: "POST", Path: "/v1/chat/completions", UserText: long, ReplyText: long,
		Scenario: strings.Repeat("s", 100), ToolCalls: []journal.ToolCall{{Name: "f", Arguments: long}}}.String()
	cut := strings.Repeat("é", 79) + "…"
	assert.Equal(t, `#1 POST /v1/chat/completions -> 0 user="`+cut+`" scenario=`+strings.Repeat("s", 79)+`… call=f(`+cut+`) reply="`+cut+`"`, s)
	assert.NotContains(t, s, "\n")
	exact := strings.Repeat("x", 80)
	assert.Contains(t, journal.Entry{UserText: exact}.String(), `user="`+exact+`"`, "a text of 80 runes is shown whole")
}

// WithoutTimes zeroes what differs from run to run and keeps the rest.
func TestWithoutTimes(t *testing.T) {
	e := journal.Entry{Seq: 5, Time: time.Now(), Duration: time.Second, FirstByte: time.Millisecond, Model: "m", Chunks: 4}
	assert.Equal(t, journal.Entry{Seq: 5, Model: "m", Chunks: 4}, e.WithoutTimes())
	assert.Equal(t, time.Second, e.Duration, "the receiver is unchanged")
	assert.Equal(t, []journal.Entry{{Seq: 5, Model: "m", Chunks: 4}}, journal.WithoutTimes([]journal.Entry{e}))
	assert.Nil(t, journal.WithoutTimes(nil))
}

// errorfRecorder is the part of testify's TestingT a failed assertion
// reports through.
type errorfRecorder struct{ errors []string }

func (r *errorfRecorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// What testify prints when a length check on entries fails: their String
// lines, not their structs, so no time and no field names.
func TestTestifyLenPrintsEntryLines(t *testing.T) {
	entries := []journal.Entry{
		{Seq: 1, Time: time.Now(), Method: "POST", Path: "/v1/chat/completions", Status: 200, UserText: "Hi", Scenario: "greeting", ReplyText: "Hello"},
		{Seq: 2, Time: time.Now(), Method: "POST", Path: "/v1/chat/completions", Status: 400, UserText: "Bonjour", ErrorCode: journal.NoScenarioCode},
	}
	rec := &errorfRecorder{}
	assert.False(t, assert.Len(rec, entries, 1))
	if assert.Len(t, rec.errors, 1) {
		out := rec.errors[0]
		assert.Contains(t, out, `#1 POST /v1/chat/completions -> 200 user=\"Hi\" scenario=greeting reply=\"Hello\" #2 POST`)
		assert.Contains(t, out, "should have 1 item(s), but has 2")
		assert.NotContains(t, out, "Time", "the failure shows structs")
	}
}

// %#v, which testify's assert.Equal prints above its diff, shows an
// entry's set fields as Go syntax, and nothing of the rest.
func TestEntryGoString(t *testing.T) {
	temp := 0.5
	e := journal.Entry{Seq: 2, Time: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC), Duration: time.Second,
		Method: "POST", Status: 200, Request: journal.Request{System: "Be terse.", Temperature: &temp,
			Messages: []journal.Message{{Role: "user", Text: "Hi"}}},
		Headers:   map[string]string{"user-agent": "OpenAI/Go"},
		ToolCalls: []journal.ToolCall{{ID: "call_1", Name: "f", Arguments: "{}"}}}
	want := `journal.Entry{Seq: 2, Time: time.Date(2026, time.December, 1, 12, 0, 0, 0, time.UTC), Duration: time.Duration(1000000000), ` +
		`Method: "POST", Status: 200, Request: journal.Request{System: "Be terse.", Messages: []journal.Message{journal.Message{Role: "user", Text: "Hi"}}, ` +
		`Temperature: new(float64(0.5))}, Headers: map[string]string{"user-agent":"OpenAI/Go"}, ` +
		`ToolCalls: []journal.ToolCall{journal.ToolCall{ID: "call_1", Name: "f", Arguments: "{}"}}}`
	assert.Equal(t, want, fmt.Sprintf("%#v", e))
	_, err := parser.ParseExpr(fmt.Sprintf("%#v", e))
	assert.NoError(t, err, "%#v is a Go expression")
	assert.Equal(t, "[]journal.Entry{journal.Entry{Seq: 1}}", fmt.Sprintf("%#v", []journal.Entry{{Seq: 1}}))
	assert.Equal(t, "journal.Entry{}", fmt.Sprintf("%#v", journal.Entry{}))

	rec := &errorfRecorder{}
	assert.Equal(rec, journal.Entry{Seq: 1, Model: "a"}, journal.Entry{Seq: 1, Model: "b"})
	if assert.Len(t, rec.errors, 1) {
		assert.Contains(t, rec.errors[0], `expected: journal.Entry{Seq: 1, Model: "a"}`)
		assert.Contains(t, rec.errors[0], `actual  : journal.Entry{Seq: 1, Model: "b"}`)
		assert.Contains(t, rec.errors[0], `- Model: (string) (len=1) "a"`, "testify's diff of the fields")
	}
}
