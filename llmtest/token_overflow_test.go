package llmtest_test

import (
	"net/http"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

// An output limit as large as an int64 holds, added to the prompt, does
// not wrap: the request asks more than any token limit holds and is
// refused as too large (429, not to be retried), and more than any
// context window holds (400). It used to wrap negative, count as nothing
// and pass both.
func TestHugeOutputLimitsDoNotWrap(t *testing.T) {
	t.Parallel()
	const huge = "9223372036854775807"
	bodies := map[string][2]string{
		"chat":      {"/v1/chat/completions", `{"model":"my-model","max_completion_tokens":` + huge + `,"messages":[{"role":"user","content":"hi"}]}`},
		"responses": {"/v1/responses", `{"model":"my-model","max_output_tokens":` + huge + `,"input":"hi"}`},
		"messages":  {"/v1/messages", `{"model":"my-model","max_tokens":` + huge + `,"messages":[{"role":"user","content":"hi"}]}`},
	}
	srv := llmtest.NewServer(t)
	limited := srv.NewSession(t, session.OnlyModels("my-model"), session.WithRateLimits(0, 1000), session.IgnoreContextWindow())
	limited.Chat("any").Repeat().Responds("ok")
	for name, b := range bodies {
		r := e2e.Call(t, srv.Client(), http.MethodPost, srv.URL()+b[0], b[1],
			e2e.Join(e2e.SelectorOf(limited), []string{"Anthropic-Version", "2023-06-01"})...)
		if r.Status != http.StatusTooManyRequests || r.Header.Get("X-Should-Retry") != "false" {
			t.Errorf("%s under a token limit: %d (X-Should-Retry %q) %s; want a 429 not to be retried", name, r.Status, r.Header.Get("X-Should-Retry"), r.Body)
		}
	}
	windowed := srv.NewSession(t)
	windowed.Chat("any").Repeat().Responds("ok")
	for name, b := range map[string][2]string{
		"chat":      {"/v1/chat/completions", `{"model":"gpt-4.1-mini","max_completion_tokens":` + huge + `,"messages":[{"role":"user","content":"hi"}]}`},
		"responses": {"/v1/responses", `{"model":"gpt-4.1-mini","max_output_tokens":` + huge + `,"input":"hi"}`},
	} {
		r := e2e.Call(t, srv.Client(), http.MethodPost, srv.URL()+b[0], b[1], e2e.SelectorOf(windowed)...)
		if r.Status != http.StatusBadRequest {
			t.Errorf("%s within a context window: %d %s; want 400", name, r.Status, r.Body)
		}
	}
}
