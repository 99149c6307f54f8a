package llmtest_test

import (
	"testing"

	"github.com/openai/openai-go/v3"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// embedOne embeds text with openai-go and returns its vector.
func embedOne(t *testing.T, client openai.Client, text string) []float64 {
	t.Helper()
	resp, err := client.Embeddings.New(t.Context(), openai.EmbeddingNewParams{Model: e2e.EmbeddingModel,
		Input: openai.EmbeddingNewParamsInputUnion{OfString: openai.String(text)}})
	if err != nil {
		t.Fatalf("embeddings %q: %v", text, err)
	}
	return resp.Data[0].Embedding
}

// A match answers embeddings when it names the endpoint on a path the
// request satisfies: in an Any alternative as well as in All. A Not of an
// endpoint names none, and an alternative that does not name embeddings does
// not let a chat condition answer them.
func TestAnyAlternativeTargetsEmbeddings(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	embeddings := scenario.Match{Endpoint: scenario.EndpointEmbeddings}
	vectors := scenario.Vectors([]float32{1, 0})

	for _, tt := range []struct {
		name  string
		match scenario.Match
		input string
		want  bool
	}{
		{"any alternative names embeddings", scenario.Any(embeddings, scenario.UserContains("chat only")), "some text", true},
		{"the naming alternative matches", scenario.Any(scenario.All(embeddings, scenario.UserContains("a")), scenario.UserContains("b")), "a", true},
		{"only a chat alternative matches", scenario.Any(scenario.All(embeddings, scenario.UserContains("a")), scenario.UserContains("b")), "b", false},
		{"nested in all and any", scenario.All(scenario.Model(e2e.EmbeddingModel), scenario.Any(scenario.Turn(9), embeddings)), "x", true},
		{"not of another endpoint", scenario.Not(scenario.Match{Endpoint: scenario.EndpointChatCompletions}), "x", false},
		{"not of embeddings", scenario.Not(embeddings), "x", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sess := srv.NewSession(t)
			sess.Scenario("vectors", tt.match).Reply(vectors).Repeat()
			client := e2e.ClientFor(sess, "")
			if got := e2e.ScriptedVector(embedOne(t, client, tt.input)); got != tt.want {
				t.Errorf("%s answered embeddings of %q: %v, want %v", tt.match.Describe(), tt.input, got, tt.want)
			}
		})
	}
}
