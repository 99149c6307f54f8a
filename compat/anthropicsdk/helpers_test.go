package anthropicsdk_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/ssestream"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/stretchr/testify/require"
)

// model is the model the tests talk to: its prompt cache starts at 1024
// tokens and its output limit is 128000.
const model = anthropic.ModelClaudeSonnet5_5

// summarized is adaptive thinking shown summarized, the thinking the
// model of the tests takes ("enabled" is refused on the 5-series, and
// their display defaults to "omitted").
var summarized = anthropic.ThinkingConfigParamUnion{OfAdaptive: &anthropic.ThinkingConfigAdaptiveParam{
	Display: anthropic.ThinkingConfigAdaptiveDisplaySummarized}}

// requestOverhead is the input tokens the server counts for every prompt
// beyond its content, as the API does (about 8 for a one-word prompt).
const requestOverhead int64 = 7

// newSession starts a server and opens one session on it, both closed when
// t ends.
func newSession(t *testing.T, opts ...session.Option) *session.Session {
	t.Helper()
	return llmtest.NewServer(t).NewSession(t, opts...)
}

// clientFor returns an SDK client that talks to sess with apiKey and
// retries at most retries times, so that a test with 0 sees one request
// per call.
func clientFor(sess *session.Session, apiKey string, retries int) anthropic.Client {
	return anthropic.NewClient(
		option.WithBaseURL(sess.AnthropicBaseURL()),
		option.WithAPIKey(apiKey),
		option.WithHTTPClient(sess.HTTPClient()),
		option.WithMaxRetries(retries))
}

// userTurn is a request with one user message.
func userTurn(text string) anthropic.MessageNewParams {
	return anthropic.MessageNewParams{
		Model:     model,
		MaxTokens: 1024,
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(text))},
	}
}

// accumulate drains a stream into one message with the SDK's Accumulate,
// failing t on any error.
func accumulate(t *testing.T, stream *ssestream.Stream[anthropic.MessageStreamEventUnion]) anthropic.Message {
	t.Helper()
	defer stream.Close()
	var msg anthropic.Message
	for stream.Next() {
		require.NoError(t, msg.Accumulate(stream.Current()))
	}
	require.NoError(t, stream.Err())
	return msg
}

// apiError requires err to be an *anthropic.Error and returns it.
func apiError(t *testing.T, err error) *anthropic.Error {
	t.Helper()
	require.Error(t, err)
	var apiErr *anthropic.Error
	require.True(t, errors.As(err, &apiErr), "error %v (%T) is not an *anthropic.Error", err, err)
	return apiErr
}

// rawReply is a raw HTTP answer.
type rawReply struct {
	status int
	header http.Header
	body   []byte
}

// errorEnvelope is the body of an Anthropic error.
type errorEnvelope struct {
	Type  string `json:"type"`
	Error struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
	RequestID string `json:"request_id"`
}

// envelope decodes r's body as the error envelope.
func (r rawReply) envelope(t *testing.T) errorEnvelope {
	t.Helper()
	var env errorEnvelope
	require.NoError(t, json.Unmarshal(r.body, &env), "body %s", r.body)
	require.Equal(t, "error", env.Type, "body %s", r.body)
	return env
}

// rawPost sends body to path on sess with no SDK involved, through the
// session's HTTP client (which adds only the session headers), with the
// anthropic-version every SDK sends and the given headers as pairs of name
// and value: a pair whose value is "" removes that header.
func rawPost(t *testing.T, sess *session.Session, path, body string, headers ...string) rawReply {
	t.Helper()
	return rawDo(t, sess, http.MethodPost, path, body, headers...)
}

// sdkVersion is the anthropic-version anthropic-sdk-go v2 sends.
const sdkVersion = "2026-10-21"

// rawDo is rawPost with any method.
func rawDo(t *testing.T, sess *session.Session, method, path, body string, headers ...string) rawReply {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = bytes.NewReader([]byte(body))
	}
	req, err := http.NewRequestWithContext(t.Context(), method, sess.AnthropicBaseURL()+path, rd)
	require.NoError(t, err)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("anthropic-version", sdkVersion)
	set := map[string]bool{}
	for i := 0; i+1 < len(headers); i += 2 {
		name := http.CanonicalHeaderKey(headers[i])
		if !set[name] {
			req.Header.Del(name)
			set[name] = true
		}
		if headers[i+1] != "" {
			req.Header.Add(name, headers[i+1])
		}
	}
	resp, err := sess.HTTPClient().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return rawReply{status: resp.StatusCode, header: resp.Header, body: b}
}

// newServer starts a server that t's cleanup closes.
func newServer(t *testing.T) *llmtest.Server {
	t.Helper()
	return llmtest.NewServer(t)
}

// optionMiddleware is an SDK option that calls seen with every attempt's
// response.
func optionMiddleware(seen func(*http.Response)) option.RequestOption {
	return option.WithMiddleware(func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		resp, err := next(req)
		if err == nil {
			seen(resp)
		}
		return resp, err
	})
}
