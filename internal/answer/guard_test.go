package answer_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/internal/answer"
	"github.com/llmtestserver/llmtestserver/internal/openai"
	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/internal/tokens"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// plainCodec is a codec that words no rate-limit error of its own.
type plainCodec struct{ provider.Codec }

func guarded(t *testing.T, s runtime.Settings, codec provider.Codec) *provider.Exchange {
	s.JournalCapacity, s.JournalMaxBytes = 10, 1<<20
	s.Clock = clock.NewFake(time.Unix(1e9, 0))
	rt := runtime.New(s)
	rt.AddReplies("s", scenario.Match{}, scenario.Text("scripted"), scenario.Text("scripted"))
	return &provider.Exchange{Ctx: t.Context(), Runtime: rt, Request: httptest.NewRequest("POST", "/v1/x", nil), Codec: codec}
}

// A token limit counts the request's text and its max output tokens; a
// codec without words of its own gets a neutral 429 with Retry-After.
func TestFindRateLimitsCountInputAndMaxOutput(t *testing.T) {
	req := scenario.Request{Endpoint: scenario.EndpointChatCompletions, Model: "gpt-4o", System: "Be brief.",
		Messages: []scenario.Message{{Role: "user", Content: "What is the capital of France?"}}, MaxOutputTokens: 50}
	want := tokens.Count("gpt-4o", req.System) + tokens.Count("gpt-4o", req.Messages[0].Content) + 50

	x := guarded(t, runtime.Settings{RateLimits: runtime.RateLimits{Default: runtime.RateLimit{TokensPerMinute: 100}}}, plainCodec{openai.Codec{}})
	r := req
	_, _, out := answer.Find(x, &r)
	require.Nil(t, out)
	require.NotNil(t, x.RateLimit)
	assert.Equal(t, want, x.RateLimit.RequestedTokens)
	assert.Equal(t, 100-want, x.RateLimit.Tokens.Remaining)

	x2 := guarded(t, runtime.Settings{}, plainCodec{openai.Codec{}})
	x2.Runtime = x.Runtime
	r = req
	_, _, out = answer.Find(x2, &r)
	require.NotNil(t, out)
	require.NotNil(t, out.Err)
	assert.Equal(t, http.StatusTooManyRequests, out.Err.Status)
	assert.Equal(t, scenario.ErrorRateLimit, out.Err.Kind)
	assert.Equal(t, "rate_limit_exceeded", out.Err.Code)
	assert.NotEmpty(t, out.Err.Header.Get("Retry-After"))
	assert.NotEmpty(t, out.Err.Header.Get("Retry-After-Ms"))
	assert.Nil(t, out.Reservation, "a refused request reserves nothing")
	assert.Equal(t, 1, x.Runtime.Pending(), "only the admitted request took a reply")
}

// A chaos rule that fires answers with its reply, named in the journal,
// and takes no scripted reply; the others reach the scenarios.
func TestFindChaosFaultReplacesTheScript(t *testing.T) {
	x := guarded(t, runtime.Settings{Chaos: runtime.Chaos{Rules: []runtime.ChaosRule{
		{Name: "odd", Every: 2, Reply: scenario.Fail(http.StatusBadGateway, "", "")}}}}, openai.Codec{})
	req := scenario.Request{Endpoint: scenario.EndpointChatCompletions, Model: "gpt-4o",
		Messages: []scenario.Message{{Role: "user", Content: "hi"}}}
	r := req
	_, reply, out := answer.Find(x, &r)
	require.Nil(t, out)
	assert.Equal(t, "scripted", reply.Text)

	r = req
	_, _, out = answer.Find(x, &r)
	require.NotNil(t, out)
	assert.Equal(t, http.StatusBadGateway, out.Err.Status)
	assert.Equal(t, "chaos:odd", x.Entry.Scenario)
	assert.Equal(t, 1, x.Runtime.Pending(), "the fault took no scripted reply")
}
