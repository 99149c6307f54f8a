package scenario_test

import (
	"testing"

	"github.com/llmtestserver/llmtestserver/scenario"
)

func TestTargetsLooksIntoAnyButNotNot(t *testing.T) {
	emb := scenario.Match{Endpoint: scenario.EndpointEmbeddings}
	for _, tt := range []struct {
		name  string
		match scenario.Match
		want  bool
	}{
		{"itself", emb, true},
		{"in all", scenario.All(scenario.Model("m"), emb), true},
		{"in an any alternative", scenario.Any(scenario.UserContains("x"), emb), true},
		{"deep in any and all", scenario.All(scenario.Any(scenario.Turn(2), scenario.All(emb))), true},
		{"in not", scenario.Not(emb), false},
		{"not of another endpoint", scenario.Not(scenario.Match{Endpoint: scenario.EndpointChatCompletions}), false},
		{"no endpoint", scenario.UserContains("x"), false},
	} {
		if got := tt.match.Targets(scenario.EndpointEmbeddings); got != tt.want {
			t.Errorf("%s: Targets(embeddings) of %s = %v, want %v", tt.name, tt.match.Describe(), got, tt.want)
		}
	}
}

func TestEmbeddingsMatchOnlyThroughANamingPath(t *testing.T) {
	emb := scenario.Match{Endpoint: scenario.EndpointEmbeddings}
	req := func(input string) *scenario.Request {
		return &scenario.Request{Endpoint: scenario.EndpointEmbeddings, Model: "text-embedding-3-small",
			Messages: []scenario.Message{{Role: "user", Content: input}}}
	}
	either := scenario.Any(scenario.All(emb, scenario.UserContains("a")), scenario.UserContains("b"))
	for _, tt := range []struct {
		match scenario.Match
		input string
		want  bool
	}{
		{scenario.Any(emb, scenario.UserContains("x")), "y", true},
		{either, "a", true},
		{either, "b", false}, // only the alternative that names no endpoint holds
		{scenario.Not(scenario.Match{Endpoint: scenario.EndpointChatCompletions}), "a", false},
	} {
		if got := tt.match.Matches(req(tt.input)); got != tt.want {
			t.Errorf("%s matching embeddings of %q = %v, want %v", tt.match.Describe(), tt.input, got, tt.want)
		}
	}
	r := req("b")
	if allocs := testing.AllocsPerRun(100, func() { either.Matches(r) }); allocs != 0 {
		t.Errorf("matching embeddings through Any allocates %v times", allocs)
	}
}
