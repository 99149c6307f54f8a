package openai_test

// Helpers of the codec's fidelity tests through openai-go and raw HTTP,
// copied from llmtest's tests (helpers_test.go and others), whence these
// tests came: each test builds its own llmtest.Server and sessions, as the
// tests of llmtest do.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
)

const replyModel = "gpt-4.1-mini"

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

// wantError checks status and error code of r.
func (r reply) wantError(t *testing.T, status int, code string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status = %d, want %d; body %s", r.status, status, r.body)
	}
	if got, _, _, _ := r.apiError(t); got != code {
		t.Fatalf("error code = %q, want %q; body %s", got, code, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q, want application/json", ct)
	}
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

// rawCall is call; some tests name it so to stress that no SDK is involved.
func rawCall(t *testing.T, c *http.Client, method, url, body string, headers ...string) reply {
	t.Helper()
	return call(t, c, method, url, body, headers...)
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

// created is the body of a 201 from POST /admin-api/sessions.
type created struct {
	ID               string `json:"id"`
	Key              string `json:"key"`
	ReservationBytes int64  `json:"reservation_bytes"`
}

// createOverHTTP creates a session through the admin API and deletes it at
// cleanup.
func createOverHTTP(t *testing.T, srv *llmtest.Server, body string) created {
	t.Helper()
	return createOverHTTPAs(t, srv, srv.ManagementKey(), body)
}

func createOverHTTPAs(t *testing.T, srv *llmtest.Server, key, body string) created {
	t.Helper()
	r := call(t, srv.Client(), http.MethodPost, srv.URL()+"/admin-api/sessions", body, bearer(key)...)
	if r.status != http.StatusCreated {
		t.Fatalf("create: status %d, body %s", r.status, r.body)
	}
	var c created
	if err := json.Unmarshal(r.body, &c); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		call(t, srv.Client(), http.MethodDelete, srv.URL()+"/admin-api/sessions/"+c.ID, "",
			session.HeaderSession, c.ID, session.HeaderSessionKey, c.Key)
	})
	return c
}

// chatBody is a minimal chat completion request.
func chatBody(model, user string) string {
	b, _ := json.Marshal(map[string]any{"model": model, "messages": []map[string]string{{"role": "user", "content": user}}})
	return string(b)
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

// journalOf returns the session's journal once it holds n entries. A
// streamed request is journaled after its last event is written, so a
// client that stops reading at [DONE] can get ahead of its entry.
func journalOf(t *testing.T, sess *session.Session, n int) []journal.Entry {
	t.Helper()
	eventually(t, fmt.Sprintf("the journal holds %d entries", n), func() bool { return sess.Journal().Len() >= n })
	return sess.Journal().Entries()
}

// openaiAPI is one of openai-go's two conversational APIs, called once,
// streamed or not: it returns the text received and the call's error.
type openaiAPI struct {
	name string
	call func(ctx context.Context, c openai.Client, stream bool) (string, error)
}

var openaiAPIs = []openaiAPI{
	{"chat", func(ctx context.Context, c openai.Client, stream bool) (string, error) {
		params := userTurn("gpt-4o-mini", "Hi")
		if !stream {
			out, err := c.Chat.Completions.New(ctx, params)
			if err != nil {
				return "", err
			}
			return out.Choices[0].Message.Content, nil
		}
		s := c.Chat.Completions.NewStreaming(ctx, params)
		defer s.Close()
		var text strings.Builder
		for s.Next() {
			if ch := s.Current(); len(ch.Choices) > 0 {
				text.WriteString(ch.Choices[0].Delta.Content)
			}
		}
		return text.String(), s.Err()
	}},
	{"responses", func(ctx context.Context, c openai.Client, stream bool) (string, error) {
		params := responses.ResponseNewParams{Model: "gpt-4.1-mini",
			Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("Hi")}}
		if !stream {
			out, err := c.Responses.New(ctx, params)
			if err != nil {
				return "", err
			}
			return out.OutputText(), nil
		}
		s := c.Responses.NewStreaming(ctx, params)
		defer s.Close()
		var text strings.Builder
		for s.Next() {
			ev := s.Current()
			switch ev.Type {
			case "response.output_text.delta":
				text.WriteString(ev.Delta)
			case "response.failed":
				f := ev.AsResponseFailed().Response.Error
				return text.String(), errors.New("response.failed: " + string(f.Code) + ": " + f.Message)
			}
		}
		return text.String(), s.Err()
	}},
}

// streamText reads a whole openai-go stream into an accumulator and returns
// it with the chunks' content deltas.
func streamText(t *testing.T, s interface {
	Next() bool
	Current() openai.ChatCompletionChunk
	Err() error
	Close() error
}) (openai.ChatCompletionAccumulator, []string) {
	t.Helper()
	defer s.Close()
	var acc openai.ChatCompletionAccumulator
	var deltas []string
	for s.Next() {
		chunk := s.Current()
		if !acc.AddChunk(chunk) {
			t.Fatalf("the accumulator refused chunk %s", chunk.RawJSON())
		}
		if len(chunk.Choices) > 0 && chunk.Choices[0].Delta.Content != "" {
			deltas = append(deltas, chunk.Choices[0].Delta.Content)
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return acc, deltas
}
