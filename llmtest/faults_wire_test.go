package llmtest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rawFaulted sends a chat request without an SDK and reads its whole body:
// the response, the body read and the error that ended the read.
func rawFaulted(t *testing.T, client *http.Client, url string, selector []string, stream bool) (*http.Response, []byte, error) {
	t.Helper()
	body := `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Hi"}]}`
	if stream {
		body = `{"model":"gpt-4o-mini","stream":true,"messages":[{"role":"user","content":"Hi"}]}`
	}
	req, err := http.NewRequest(http.MethodPost, url+"/chat/completions", strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(selector); i += 2 {
		req.Header.Set(selector[i], selector[i+1])
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, b, err
}

// On the wire, a cut ends the body with an unexpected EOF, where a
// malformed answer ends cleanly with data that is not JSON, and a drop
// sends no response at all.
func TestFaultsOnTheWire(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("wire").Reply(
		scenario.Text("one two three").CutAfter(2), scenario.Text("one two three").CutAfter(2),
		scenario.Text("one two three").MalformedAfter(2), scenario.Text("one two three").MalformedAfter(2),
		scenario.Drop())
	sel := e2e.SelectorOf(sess)

	resp, body, err := rawFaulted(t, srv.Client(), sess.BaseURL(), sel, false)
	require.ErrorIs(t, err, io.ErrUnexpectedEOF, "cut JSON")
	assert.Equal(t, 200, resp.StatusCode)
	assert.True(t, bytes.HasPrefix(body, []byte(`{"id":"chatcmpl-`)), "%s", body)

	resp, body, err = rawFaulted(t, srv.Client(), sess.BaseURL(), sel, true)
	require.ErrorIs(t, err, io.ErrUnexpectedEOF, "cut stream")
	assert.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, 2, bytes.Count(body, []byte("data: ")), "%s", body)
	assert.NotContains(t, string(body), "[DONE]")

	_, body, err = rawFaulted(t, srv.Client(), sess.BaseURL(), sel, false)
	require.NoError(t, err, "malformed JSON ends cleanly")
	assert.False(t, json.Valid(body), "%s", body)

	_, body, err = rawFaulted(t, srv.Client(), sess.BaseURL(), sel, true)
	require.NoError(t, err, "malformed stream ends cleanly")
	events := strings.Split(strings.TrimSuffix(string(body), "\n\n"), "\n\n")
	require.Len(t, events, 3, "%s", body)
	for _, ev := range events[:2] {
		assert.True(t, json.Valid([]byte(strings.TrimPrefix(ev, "data: "))), ev)
	}
	assert.True(t, strings.HasPrefix(events[2], "data: {"), events[2])
	assert.False(t, json.Valid([]byte(strings.TrimPrefix(events[2], "data: "))), events[2])

	_, _, err = rawFaulted(t, srv.Client(), sess.BaseURL(), sel, false)
	require.ErrorIs(t, err, io.EOF, "drop")
	assert.Zero(t, sess.Pending())
}
