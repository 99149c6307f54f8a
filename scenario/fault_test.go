package scenario_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Faults and a reply's pacing survive a JSON round trip, under the field
// names the admin API documents.
func TestFaultJSONRoundTrip(t *testing.T) {
	replies := []scenario.Reply{
		scenario.Drop(),
		scenario.Hang(),
		scenario.Text("partial").CutAfter(3),
		scenario.Text("partial").MalformedAfter(0),
		scenario.Text("partial").FailsAfter(4, "server_error", "boom"),
		scenario.Text("slow").Paced(1500*time.Millisecond, 20),
		{Text: "chunky", Stream: &scenario.Pacing{TokensPerChunk: 3}},
	}
	for _, r := range replies {
		require.NoError(t, r.Validate())
		b, err := json.Marshal(r)
		require.NoError(t, err)
		var back scenario.Reply
		require.NoError(t, json.Unmarshal(b, &back), "%s", b)
		assert.Equal(t, r, back, "%s", b)
	}
	b, _ := json.Marshal(scenario.Text("x").CutAfter(3).Paced(time.Second, 5))
	assert.JSONEq(t, `{"text":"x","fault":{"kind":"cut","after_events":3},"stream":{"ttft_ms":1000,"tokens_per_second":5}}`, string(b))
	b, _ = json.Marshal(scenario.FailStreamAfter(2, "c", "m"))
	assert.JSONEq(t, `{"error":{"status":500,"code":"c","message":"m","in_stream":true,"after_events":2}}`, string(b))
}

// Unknown fields inside a fault or a pacing are refused, like anywhere in
// a reply.
func TestFaultJSONRefusesUnknownFields(t *testing.T) {
	for _, doc := range []string{
		`{"fault":{"kind":"cut","after":3}}`,
		`{"text":"x","stream":{"ttft":5}}`,
	} {
		var r scenario.Reply
		assert.Error(t, json.Unmarshal([]byte(doc), &r), doc)
	}
}

// Validate names the field at fault.
func TestFaultValidate(t *testing.T) {
	cases := map[string]struct {
		reply scenario.Reply
		field string
	}{
		"unknown kind":         {scenario.Reply{Fault: &scenario.Fault{Kind: "explode"}}, "fault.kind"},
		"drop after events":    {scenario.Reply{Fault: &scenario.Fault{Kind: scenario.FaultDrop, AfterEvents: 2}}, "fault.after_events"},
		"hang with text":       {scenario.Reply{Text: "x", Fault: &scenario.Fault{Kind: scenario.FaultHang}}, "fault:"},
		"drop with stream":     {scenario.Drop().Paced(time.Second, 0), "fault:"},
		"cut negative":         {scenario.Text("x").CutAfter(-1), "fault.after_events"},
		"cut too far":          {scenario.Text("x").CutAfter(scenario.MaxFaultEvents + 1), "fault.after_events"},
		"cut with error":       {scenario.Text("x").FailsAfter(2, "c", "m").CutAfter(1), "fault:"},
		"after without stream": {scenario.Reply{Error: &scenario.Error{Status: 500, AfterEvents: 2}}, "error.after_events"},
		"after too far":        {scenario.FailStreamAfter(scenario.MaxFaultEvents+1, "c", "m"), "error.after_events"},
		"text with http error": {scenario.Reply{Text: "x", Error: &scenario.Error{Status: 500}}, "kind:"},
		"ttft negative":        {scenario.Text("x").Paced(-time.Millisecond, 0), "stream.ttft_ms"},
		"rate too low":         {scenario.Text("x").Paced(0, 0.01), "stream.tokens_per_second"},
		"rate too high":        {scenario.Text("x").Paced(0, 2e6), "stream.tokens_per_second"},
		"chunk too big":        {scenario.Reply{Text: "x", Stream: &scenario.Pacing{TokensPerChunk: scenario.MaxTokensPerChunk + 1}}, "stream.tokens_per_chunk"},
	}
	for name, c := range cases {
		err := c.reply.Validate()
		if assert.Error(t, err, name) {
			assert.True(t, strings.HasPrefix(err.Error(), c.field), "%s: %v", name, err)
		}
	}
	// A JSON NaN cannot be written, but an out-of-range delay in JSON
	// saturates and is refused.
	var r scenario.Reply
	require.NoError(t, json.Unmarshal([]byte(`{"text":"x","stream":{"ttft_ms":999999999999999}}`), &r))
	assert.ErrorContains(t, r.Validate(), "stream.ttft_ms")
}

// "Fail twice, then answer" is one scenario.
func TestBuilderDropsThenResponds(t *testing.T) {
	var log callLog
	newBuilder(&log, "flaky", scenario.Match{}).Drops().Hangs().Responds("ok")
	replies := log.get("flaky", scenario.Match{}).Replies
	require.Len(t, replies, 3)
	assert.Equal(t, scenario.FaultDrop, replies[0].Fault.Kind)
	assert.Equal(t, scenario.FaultHang, replies[1].Fault.Kind)
	assert.Equal(t, "ok", replies[2].Text)
}

func TestRateLimitedFor(t *testing.T) {
	for _, c := range []struct {
		d           time.Duration
		after, inMS string
	}{
		{0, "0", "0"},
		{-time.Second, "0", "0"},
		{1500 * time.Millisecond, "2", "1500"},
		{20 * time.Second, "20", "20000"},
		{time.Microsecond, "1", "1"},
	} {
		r := scenario.RateLimitedFor(c.d)
		require.NoError(t, r.Validate())
		assert.Equal(t, 429, r.Error.Status)
		assert.Equal(t, "rate_limit_exceeded", r.Error.Code)
		assert.Equal(t, map[string]string{"Retry-After": c.after, "Retry-After-Ms": c.inMS}, r.Error.Headers, "%v", c.d)
	}
	assert.Equal(t, scenario.RateLimitedFor(0), scenario.RateLimited())
}
