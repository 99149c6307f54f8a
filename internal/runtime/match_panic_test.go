package runtime

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/scenario"
)

// panicsOn is a match function that panics with value on requests whose
// last user message is text, and matches no other request.
func panicsOn(text, value string) scenario.Match {
	return scenario.Func(func(r *scenario.Request) bool {
		if r.LastUserText() == text {
			panic(value)
		}
		return false
	})
}

// A match function that panics while a reply is picked is recovered: the
// request gets the 500 a failed responder gets, naming the scenario and
// the panic, no reply is taken, and the runtime, its lock released, goes
// on answering.
func TestPanickingMatchFunctionFailsTheRequest(t *testing.T) {
	rt := newTestRuntime()
	rt.AddReplies("picky", panicsOn("boom", "picky broke"), scenario.Reply{Text: "never"})
	rt.AddReplies("fine", scenario.UserEquals("Hi"), scenario.Reply{Text: "still serving"})

	res, err := rt.reserveWhole(chatTurn("boom"), "")
	assert.Nil(t, res)
	require.NotNil(t, err)
	assert.Equal(t, http.StatusInternalServerError, err.Status)
	assert.Equal(t, scenario.ErrorServer, err.Kind)
	assert.Equal(t, "llm_test_server_responder_failed", err.Code)
	assert.Equal(t, `The match function of scenario "picky" panicked: picky broke`, err.Message)
	assert.Equal(t, 2, rt.Pending(), "no reply was taken")

	res, err = rt.reserveWhole(chatTurn("Hi"), "")
	require.Nil(t, err)
	assert.Equal(t, "still serving", res.Reply.Text)
}

// A match function that panics only while a miss is explained (another
// condition of its match failed first, so picking a reply never ran it)
// fails the request the same way.
func TestPanickingMatchFunctionFailsTheMissExplanation(t *testing.T) {
	rt := newTestRuntime()
	rt.AddReplies("explained", scenario.All(scenario.Model("other"), panicsOn("Hello?", "explained broke")),
		scenario.Reply{Text: "never"})

	res, err := rt.reserveWhole(chatTurn("Hello?"), "")
	assert.Nil(t, res)
	require.NotNil(t, err)
	assert.Equal(t, http.StatusInternalServerError, err.Status)
	assert.Equal(t, "llm_test_server_responder_failed", err.Code)
	assert.Equal(t, `The match function of scenario "explained" panicked: explained broke`, err.Message)
	assert.Empty(t, err.Tried, "the miss is not explained")
	assert.Equal(t, 1, rt.Pending())
}

// For requests that have an answer of their own, such as embeddings, the
// panic comes back as the error that answers the request, with nothing
// taken from any queue.
func TestPanickingMatchFunctionFailsAScriptedOnlyRequest(t *testing.T) {
	rt := newTestRuntime()
	rt.AddReplies("vectors", scenario.All(scenario.Match{Endpoint: scenario.EndpointEmbeddings}, panicsOn("boom", "vectors broke")),
		scenario.Reply{Vectors: [][]float32{{1}}})
	req := &scenario.Request{Endpoint: scenario.EndpointEmbeddings, Model: "m",
		Messages: []scenario.Message{{Role: "user", Content: "boom"}}}

	res, err := rt.ReserveScripted(req, "")
	assert.Nil(t, res)
	require.NotNil(t, err)
	assert.Equal(t, http.StatusInternalServerError, err.Status)
	assert.Equal(t, "llm_test_server_responder_failed", err.Code)
	assert.Equal(t, `The match function of scenario "vectors" panicked: vectors broke`, err.Message)
	assert.Equal(t, 1, rt.Pending(), "no reply was taken")
}
