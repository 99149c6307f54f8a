package session_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/session"
)

// managementKey is the management key of the servers these tests start.
const managementKey = "mk-admin-tests"

// adminServer is a manager's handler on a real HTTP server, with a
// transport of its own that the cleanup closes.
type adminServer struct {
	t   *testing.T
	m   *session.Manager
	url string
	tr  *http.Transport
}

// newAdminServer serves a manager configured by cfg (its management key
// set to managementKey) over HTTP until the test ends.
func newAdminServer(t *testing.T, cfg session.ManagerConfig) *adminServer {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	tr := &http.Transport{}
	cfg.Endpoint, cfg.ManagementKey, cfg.Transport = "http://"+srv.Listener.Addr().String(), managementKey, tr
	m, err := session.NewManager(cfg)
	require.NoError(t, err)
	srv.Config.Handler = m.Handler()
	srv.Start()
	t.Cleanup(func() {
		m.Close()
		srv.Close()
		tr.CloseIdleConnections()
	})
	return &adminServer{t: t, m: m, url: srv.URL, tr: tr}
}

// answer is what the server answered.
type answer struct {
	status int
	body   []byte
	header http.Header
}

// do sends one request; headers are name, value pairs.
func (a *adminServer) do(method, path, body string, headers ...string) answer {
	a.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(a.t.Context(), method, a.url+path, rd)
	require.NoError(a.t, err)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Add(headers[i], headers[i+1])
	}
	resp, err := (&http.Client{Transport: a.tr}).Do(req)
	require.NoError(a.t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(a.t, err)
	return answer{resp.StatusCode, b, resp.Header}
}

// mgmt is the management key as bearer token.
func mgmt() []string { return []string{"Authorization", "Bearer " + managementKey} }

// of returns the two session headers of sess.
func of(sess *session.Session) []string {
	return []string{session.HeaderSession, sess.ID(), session.HeaderSessionKey, sess.Key()}
}

// create makes a session over HTTP from body and returns its Go handle.
func (a *adminServer) create(body string) *session.Session {
	a.t.Helper()
	r := a.do(http.MethodPost, "/admin-api/sessions", body, mgmt()...)
	require.Equal(a.t, http.StatusCreated, r.status, "%s", r.body)
	var c struct{ ID, Key string }
	require.NoError(a.t, json.Unmarshal(r.body, &c))
	sess, ok := a.m.Lookup(c.ID, c.Key)
	require.True(a.t, ok)
	return sess
}

// client is openai-go on sess, with the SDK's default retries unless
// opts say otherwise.
func client(sess *session.Session, opts ...option.RequestOption) openai.Client {
	return openai.NewClient(append([]option.RequestOption{option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("k"),
		option.WithHTTPClient(sess.HTTPClient())}, opts...)...)
}

// chat sends one user message through c.
func chat(t *testing.T, c openai.Client, text string) (string, error) {
	t.Helper()
	resp, err := c.Chat.Completions.New(t.Context(), openai.ChatCompletionNewParams{Model: "gpt-4.1-mini",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(text)}})
	if err != nil {
		return "", err
	}
	return resp.Choices[0].Message.Content, nil
}

// errorParam returns the code and param of an admin error body.
func errorParam(t *testing.T, body []byte) (code, param string) {
	t.Helper()
	var env struct {
		Error struct {
			Code  *string `json:"code"`
			Param *string `json:"param"`
		} `json:"error"`
	}
	require.NoError(t, json.Unmarshal(body, &env), "%s", body)
	if env.Error.Code != nil {
		code = *env.Error.Code
	}
	if env.Error.Param != nil {
		param = *env.Error.Param
	}
	return code, param
}
