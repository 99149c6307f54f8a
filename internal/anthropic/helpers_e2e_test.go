package anthropic_test

// Helpers of the codec's raw-HTTP tests through llmtest, copied from
// llmtest's tests (helpers_test.go and providers_test.go), whence these
// tests came.

import (
	"bytes"
	"io"
	"net/http"
	"testing"

	"github.com/llmtestserver/llmtestserver/session"
)

// reply is a raw HTTP answer.
type reply struct {
	status int
	header http.Header
	body   []byte
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

const messagesBody = `{"model":"claude-sonnet-4-5","max_tokens":64,"messages":[{"role":"user","content":"Hi"}]}`
