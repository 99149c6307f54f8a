package openai_test

// Helpers of the codec's fidelity tests through openai-go and raw HTTP,
// copied from llmtest's tests (helpers_test.go and others), whence these
// tests came: each test builds its own llmtest.Server and sessions, as the
// tests of llmtest do.

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"runtime"
	"testing"
	"time"

	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// reply is a raw HTTP answer.
type reply struct {
	status int
	header http.Header
	body   []byte
}

// apiError decodes the body as OpenAI's error envelope.
func (r reply) apiError(t *testing.T) (code, typ, param, message string) {
	t.Helper()
	var env struct {
		Error struct {
			Message string  `json:"message"`
			Type    string  `json:"type"`
			Param   *string `json:"param"`
			Code    *string `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal(r.body, &env); err != nil {
		t.Fatalf("body %q is not an error envelope: %v", r.body, err)
	}
	if env.Error.Message == "" || env.Error.Type == "" {
		t.Fatalf("error envelope %s lacks message or type", r.body)
	}
	if env.Error.Code != nil {
		code = *env.Error.Code
	}
	if env.Error.Param != nil {
		param = *env.Error.Param
	}
	return code, env.Error.Type, param, env.Error.Message
}

// call sends one raw request with the given headers (pairs of name, value)
// through c: the server's Client (no session headers of its own), so that it
// reaches the server in either transport mode.
func call(t *testing.T, c *http.Client, method, url string, body string, headers ...string) reply {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = bytes.NewReader([]byte(body))
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Add(headers[i], headers[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return reply{status: resp.StatusCode, header: resp.Header, body: b}
}

// selectorOf returns the header pairs that select sess.
func selectorOf(sess *session.Session) []string {
	return []string{session.HeaderSession, sess.ID(), session.HeaderSessionKey, sess.Key()}
}

func bearer(token string) []string { return []string{"Authorization", "Bearer " + token} }

func join(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// clientFor returns an openai-go client that talks to sess with apiKey and
// never retries, so every call is one request.
func clientFor(sess *session.Session, apiKey string) openai.Client {
	return openai.NewClient(
		option.WithBaseURL(sess.BaseURL()),
		option.WithAPIKey(apiKey),
		option.WithHTTPClient(sess.HTTPClient()),
		option.WithMaxRetries(0))
}

// userTurn builds chat parameters with one user message.
func userTurn(model, text string) openai.ChatCompletionNewParams {
	return openai.ChatCompletionNewParams{
		Model:    model,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(text)},
	}
}

// eventually polls cond until it holds, failing the test after 10 seconds.
// It observes server state that has no event to wait on, such as a reply
// being taken by a request that is still in flight.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// liveHeap returns the bytes of live heap objects, after collecting twice
// so that objects freed by finalizers of the first collection are gone too.
func liveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}
