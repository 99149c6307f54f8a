package scenario_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/llmtestserver/llmtestserver/scenario"
)

func explainRequest() *scenario.Request {
	return &scenario.Request{
		Endpoint: scenario.EndpointChatCompletions, Model: "gpt-4.1-mini", System: "You are terse.", Turn: 1,
		Tools:    []scenario.Tool{{Name: "get_weather"}},
		Messages: []scenario.Message{{Role: "user", Content: "Bonjour"}},
	}
}

// Explain names each failed condition with what the request had, counts
// the ones that hold, and flattens All into its parent's conditions.
func TestExplainNamesFailedConditions(t *testing.T) {
	req := explainRequest()
	m := scenario.All(scenario.Model("gpt-4.1-mini"), scenario.UserContains("Hello"),
		scenario.Match{ToolOffered: "search", Turn: 2})
	got := m.Explain(req)
	assert.Equal(t, scenario.Explanation{Held: 1, Failed: []string{
		`user message containing "Hello" (got "Bonjour")`,
		`tool "search" offered (got tools "get_weather")`,
		`turn 2 (got turn 1)`,
	}}, got)
	assert.False(t, got.Matched())

	none := scenario.Match{SystemContains: "weather", ToolResult: "get_weather", Any: []scenario.Match{{Model: "a"}, {Model: "b"}},
		Not: &scenario.Match{UserEquals: "Bonjour"}, Func: func(*scenario.Request) bool { return false }}
	assert.Equal(t, []string{
		`system prompt containing "weather" (got "You are terse.")`,
		`a tool result for "get_weather" (got no tool results)`,
		`any of (model "a" | model "b") (got none of them)`,
		`not (user message "Bonjour") (got a request that matches it)`,
		`a Go predicate (got false)`,
	}, none.Explain(req).Failed)
}

// Explain agrees with Matches, the embeddings endpoint rule included.
func TestExplainAgreesWithMatches(t *testing.T) {
	chat := explainRequest()
	emb := &scenario.Request{Endpoint: scenario.EndpointEmbeddings, Model: "text-embedding-3-small",
		Messages: []scenario.Message{{Role: "user", Content: "Bonjour"}}}
	matches := []scenario.Match{
		{},
		scenario.UserEquals("Bonjour"),
		scenario.UserRegex("^Bon"),
		scenario.Model("other"),
		{Endpoint: scenario.EndpointEmbeddings},
		{Endpoint: scenario.EndpointChatCompletions},
		scenario.Any(scenario.All(scenario.Match{Endpoint: scenario.EndpointEmbeddings}, scenario.UserContains("x")), scenario.UserContains("Bon")),
		scenario.Not(scenario.Model("gpt-4.1-mini")),
		scenario.ToolOffered("get_weather"),
	}
	for i, m := range matches {
		for _, req := range []*scenario.Request{chat, emb} {
			e := m.Explain(req)
			assert.Equal(t, m.Matches(req), e.Matched(), "match %d (%s) on %s: %+v", i, m.Describe(), req.Endpoint, e)
		}
	}
	bon := scenario.UserContains("Bon")
	e := bon.Explain(emb)
	assert.Equal(t, 1, e.Held)
	assert.Equal(t, []string{"endpoint embeddings named (a match that names no endpoint answers conversational requests only)"}, e.Failed)
}

// Long texts are quoted clipped, on a rune boundary.
func TestExplainClipsLongText(t *testing.T) {
	req := explainRequest()
	req.Messages[0].Content = "a" + strings.Repeat("é", 40) // byte 60 is inside an é
	m := scenario.UserEquals("x")
	got := m.Explain(req).Failed[0]
	assert.Equal(t, `user message "x" (got "a`+strings.Repeat("é", 29)+`"…)`, got)
}
