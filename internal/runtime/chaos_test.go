package runtime

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/scenario"
)

func chaosRuntime(c Chaos) *Runtime {
	return New(Settings{JournalCapacity: 10, JournalMaxBytes: 1 << 20, Chaos: c})
}

// outcomes tries n requests and returns which rule answered each ("" for
// none).
func outcomes(rt *Runtime, n int, req scenario.Request) []string {
	out := make([]string, n)
	for i := range out {
		r := req
		if res := rt.FireChaos(&r); res != nil {
			out[i] = res.Scenario
		}
	}
	return out
}

var fail500 = scenario.Reply{Error: &scenario.Error{Status: http.StatusInternalServerError}}

func TestChaosEveryNth(t *testing.T) {
	rt := chaosRuntime(Chaos{Rules: []ChaosRule{{Name: "flaky", Every: 3, Reply: fail500}}})
	got := outcomes(rt, 7, scenario.Request{Endpoint: scenario.EndpointChatCompletions})
	assert.Equal(t, []string{"", "", "chaos:flaky", "", "", "chaos:flaky", ""}, got)

	res := rt.FireChaos(&scenario.Request{})
	require.Nil(t, res)
	res = rt.FireChaos(&scenario.Request{})
	require.NotNil(t, res, "the 9th request")
	assert.Equal(t, 500, res.Reply.Error.Status)
	before := rt.Pending()
	res.Rollback()
	assert.Equal(t, before, rt.Pending(), "a fault rolled back returns nothing to any queue")

	rt.Reset()
	assert.Equal(t, []string{"", "", "chaos:flaky"}, outcomes(rt, 3, scenario.Request{}), "Reset restarts the counters")
}

func TestChaosProbabilityIsSeeded(t *testing.T) {
	rules := []ChaosRule{{Probability: 0.3, Reply: fail500}}
	run := func(seed uint64) []string {
		return outcomes(chaosRuntime(Chaos{Seed: seed, Rules: rules}), 200, scenario.Request{})
	}
	first := run(42)
	assert.Equal(t, first, run(42), "the same seed gives the same outcomes")
	assert.NotEqual(t, first, run(43), "another seed gives others")
	fired := 0
	for _, o := range first {
		if o != "" {
			assert.Equal(t, "chaos:rules[0]", o, "an unnamed rule is named by its index")
			fired++
		}
	}
	assert.InDelta(t, 60, fired, 25, "about 30%% of 200 requests")

	rt := chaosRuntime(Chaos{Seed: 42, Rules: rules})
	outcomes(rt, 50, scenario.Request{})
	rt.Reset()
	assert.Equal(t, first[:50], outcomes(rt, 50, scenario.Request{}), "Reset restarts the generator from the seed")
}

// Rules apply only to their endpoints, models and (optionally) streams; the
// first that fires wins, and later ones count only the requests they are
// tried on.
func TestChaosScopingAndOrder(t *testing.T) {
	rt := chaosRuntime(Chaos{Rules: []ChaosRule{
		{Name: "streams", Every: 1, StreamsOnly: true, Endpoints: []scenario.Endpoint{scenario.EndpointMessages}, Models: []string{"claude"}, Reply: fail500},
		{Name: "second", Every: 2, Reply: fail500},
	}})
	fault := func(req scenario.Request) string {
		if res := rt.FireChaos(&req); res != nil {
			return res.Scenario
		}
		return ""
	}
	stream := scenario.Request{Endpoint: scenario.EndpointMessages, Model: "claude", Stream: true}
	assert.Equal(t, "chaos:streams", fault(stream))
	assert.Equal(t, "chaos:streams", fault(stream), "the first rule wins and the second is not tried")
	assert.Equal(t, "", fault(scenario.Request{Endpoint: scenario.EndpointMessages, Model: "claude"}), "not a stream: the second rule's first")
	assert.Equal(t, "chaos:second", fault(scenario.Request{Endpoint: scenario.EndpointChatCompletions, Model: "claude", Stream: true}), "another endpoint: the second rule's second")
	assert.Equal(t, "", fault(scenario.Request{Endpoint: scenario.EndpointMessages, Model: "gpt", Stream: true}), "another model")

	rt.Retire()
	assert.Equal(t, "", fault(stream), "a retired runtime faults nothing")
}
