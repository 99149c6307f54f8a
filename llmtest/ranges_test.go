package llmtest_test

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// withReply is a configuration document with one scenario answering reply,
// a JSON object.
func withReply(reply string) string {
	return `{"scenarios":[{"name":"s","match":{},"replies":[` + reply + `]}]}`
}

// Every numeric field has a range; a value out of it is refused with 400
// invalid_configuration naming the field, and the session stays as it was.
// Scripted error headers may not frame the response.
func TestOutOfRangeValuesAreRefusedNamingTheField(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("kept").Responds("still here")
	const at = "scenarios[0].replies[0]."
	tests := []struct{ name, body, param string }{
		{"delay that wraps a Duration", withReply(`{"text":"a","delay_ms":18446744073710}`), at + "delay_ms"},
		{"delay of 31 years", withReply(`{"text":"a","delay_ms":1000000000000}`), at + "delay_ms"},
		{"negative delay", withReply(`{"text":"a","delay_ms":-1}`), at + "delay_ms"},
		{"negative input tokens", withReply(`{"text":"a","usage":{"input_tokens":-1,"output_tokens":1}}`), at + "usage.input_tokens"},
		{"negative output tokens", withReply(`{"text":"a","usage":{"input_tokens":1,"output_tokens":-5}}`), at + "usage.output_tokens"},
		{"negative tokens under a former name", withReply(`{"text":"a","usage":{"prompt_tokens":1,"completion_tokens":-5}}`), at + "usage.output_tokens"},
		{"too many tokens", withReply(`{"text":"a","usage":{"input_tokens":1000000001,"output_tokens":1}}`), at + "usage.input_tokens"},
		{"error status 600", withReply(`{"error":{"status":600}}`), at + "error.status"},
		{"tokens per second 1e-9", `{"stream":{"tokens_per_chunk":1,"tokens_per_second":1e-9}}`, "stream.tokens_per_second"},
		{"tokens per second 1e300", `{"stream":{"tokens_per_chunk":1,"tokens_per_second":1e300}}`, "stream.tokens_per_second"},
		{"negative tokens per second", `{"stream":{"tokens_per_chunk":1,"tokens_per_second":-1}}`, "stream.tokens_per_second"},
		{"ttft of a day", `{"stream":{"tokens_per_chunk":1,"ttft_ms":86400000}}`, "stream.ttft_ms"},
		{"no tokens per chunk", `{"stream":{"tokens_per_chunk":0}}`, "stream.tokens_per_chunk"},
		{"journal of 2^31 bytes", `{"journal":{"capacity":10,"max_bytes":2147483648}}`, "journal.max_bytes"},
		{"ten million journal entries", `{"journal":{"capacity":10000000,"max_bytes":1000}}`, "journal.capacity"},
		{"negative videos", `{"videos":{"capacity":-1}}`, "videos.capacity"},
		{"Content-Length header", withReply(`{"error":{"status":429,"headers":{"Content-Length":"3"}}}`), at + "error.headers.Content-Length"},
		{"Transfer-Encoding header", withReply(`{"error":{"status":500,"headers":{"transfer-encoding":"chunked"}}}`), at + "error.headers.transfer-encoding"},
		{"Content-Type header", withReply(`{"error":{"status":500,"headers":{"Content-Type":"text/plain"}}}`), at + "error.headers.Content-Type"},
		{"Connection header", withReply(`{"error":{"status":503,"headers":{"Connection":"close"}}}`), at + "error.headers.Connection"},
		{"header name with a space", withReply(`{"error":{"status":503,"headers":{"Retry After":"1"}}}`), at + "error.headers"},
		{"header value with a newline", withReply(`{"error":{"status":503,"headers":{"Retry-After":"1\r\nX-Evil: 1"}}}`), at + "error.headers.Retry-After"},
	}
	sel := e2e.Join(e2e.SelectorOf(sess), e2e.Bearer("k"))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, path := range []string{"/admin-api/config", "/admin-api/sessions", "/admin-api/scenarios"} {
				var r e2e.Reply
				switch path {
				case "/admin-api/config":
					r = e2e.Call(t, srv.Client(), http.MethodPut, srv.URL()+path, tt.body, sel...)
				case "/admin-api/sessions":
					r = e2e.Call(t, srv.Client(), http.MethodPost, srv.URL()+path, tt.body, e2e.Bearer(srv.ManagementKey())...)
				default:
					if !strings.HasPrefix(tt.body, `{"scenarios"`) {
						continue
					}
					r = e2e.Call(t, srv.Client(), http.MethodPost, srv.URL()+path, tt.body, sel...)
				}
				r.WantError(t, http.StatusBadRequest, "invalid_configuration")
				if _, _, param, msg := r.APIError(t); !strings.HasPrefix(param, tt.param) || !strings.Contains(msg, param) {
					t.Errorf("%s: param %q, message %q; want param %s… named in the message", path, param, msg, tt.param)
				}
			}
			if got := sess.Pending(); got != 1 {
				t.Errorf("the session has %d pending replies, want its 1", got)
			}
		})
	}
}

// The same ranges hold in Go: Config.Validate names the field in a
// *ConfigError, and a builder panics at the call that scripts a bad reply.
func TestOutOfRangeValuesAreRefusedInGo(t *testing.T) {
	t.Parallel()
	configs := map[string]struct {
		opt   session.Option
		field string
	}{
		"NaN tokens per second":      {session.WithStream(1, 0, math.NaN()), "stream.tokens_per_second"},
		"infinite tokens per second": {session.WithStream(1, 0, math.Inf(1)), "stream.tokens_per_second"},
		"tiny tokens per second":     {session.WithStream(1, 0, 1e-9), "stream.tokens_per_second"},
		"ttft over ten minutes":      {session.WithStream(1, time.Hour, 0), "stream.ttft_ms"},
		"delay over a day": {session.WithScenario(scenario.Scenario{Name: "s",
			Replies: []scenario.Reply{{Text: "a", Delay: 25 * time.Hour}}}), "scenarios[0].replies[0].delay_ms"},
		"negative usage": {session.WithScenario(scenario.Scenario{Name: "s",
			Replies: []scenario.Reply{{Text: "a", Usage: &scenario.Usage{Input: -1}}}}), "scenarios[0].replies[0].usage.input_tokens"},
		"NaN in a vector": {session.WithScenario(scenario.Scenario{Name: "s", Match: scenario.Match{Endpoint: scenario.EndpointEmbeddings},
			Replies: []scenario.Reply{scenario.Vectors([]float32{1, float32(math.NaN())})}}), "scenarios[0].replies[0].vectors[0][1]"},
		"framing header": {session.WithScenario(scenario.Scenario{Name: "s",
			Replies: []scenario.Reply{{Error: &scenario.Error{Status: 429, Headers: map[string]string{"Content-Length": "3"}}}}}),
			"scenarios[0].replies[0].error.headers.Content-Length"},
	}
	for name, tt := range configs {
		t.Run(name, func(t *testing.T) {
			_, err := session.NewConfig(tt.opt)
			var cfgErr *session.ConfigError
			if !errors.As(err, &cfgErr) || cfgErr.Field != tt.field {
				t.Errorf("NewConfig: err = %v, want a *ConfigError naming %s", err, tt.field)
			}
		})
	}

	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	replies := map[string]scenario.Reply{
		"delay over a day":    {Text: "a", Delay: 25 * time.Hour},
		"negative delay":      {Text: "a", Delay: -time.Second},
		"negative usage":      {Text: "a", Usage: &scenario.Usage{Output: -1}},
		"Content-Length":      {Error: &scenario.Error{Status: 429, Headers: map[string]string{"Content-Length": "3"}}},
		"Transfer-Encoding":   {Error: &scenario.Error{Status: 500, Headers: map[string]string{"Transfer-Encoding": "chunked"}}},
		"infinite vector":     scenario.Vectors([]float32{float32(math.Inf(-1))}),
		"newline in a header": {Error: &scenario.Error{Status: 500, Headers: map[string]string{"X-Note": "a\nb"}}},
	}
	for name, r := range replies {
		t.Run("builder "+name, func(t *testing.T) {
			defer func() {
				if p := recover(); p == nil || !strings.Contains(fmt.Sprint(p), "reply") {
					t.Errorf("Reply(%+v): panic %v, want one naming the bad field", r, p)
				}
			}()
			sess.Chat("bad").Reply(r)
		})
	}
	if n := sess.Pending(); n != 0 {
		t.Errorf("%d replies were scripted, want none", n)
	}
}

// A scripted error with an allowed header still answers with it, and its
// envelope keeps its own framing.
func TestScriptedErrorHeadersKeepTheFraming(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("limited").Reply(scenario.Reply{Error: &scenario.Error{Status: 429, Code: "rate_limit_exceeded",
		Headers: map[string]string{"Retry-After": "7", "X-Request-Id": "req_1"}}})
	r := e2e.Call(t, srv.Client(), http.MethodPost, sess.BaseURL()+"/chat/completions", e2e.ChatBody("gpt-4.1-mini", "hi"), e2e.SelectorOf(sess)...)
	r.WantError(t, http.StatusTooManyRequests, "rate_limit_exceeded")
	if r.Header.Get("Retry-After") != "7" || r.Header.Get("X-Request-Id") != "req_1" {
		t.Errorf("headers = %v, want the scripted Retry-After and X-Request-Id", r.Header)
	}
}
