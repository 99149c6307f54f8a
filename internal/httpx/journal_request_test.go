package httpx

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The journaled headers join repeated values, leave out the connection's
// own headers (those Connection names included) and Content-Length, and
// redact credentials and the session's names whatever their case; the
// client identity reads the redacted form.
func TestJournalHeaders(t *testing.T) {
	h := http.Header{}
	h.Add("X-Multi", "a")
	h.Add("X-Multi", "b")
	h.Set("Connection", "keep-alive, X-Hop")
	h.Set("X-Hop", "1")
	h.Set("Keep-Alive", "timeout=5")
	h.Set("Transfer-Encoding", "chunked")
	h.Set("Content-Length", "12")
	h.Set("Api-Key", "azure-secret")
	h.Set("X-Goog-Api-Key", "gemini-secret")
	h.Set("Cookie", "session=secret")
	h.Set("Proxy-Authorization", "Basic secret")
	h.Set("User-Agent", "agent/1")
	h.Set("X-Stainless-Lang", "go")
	h.Set("X-Stainless-Retry-Count", "not a number")
	got := journalHeaders(h, []string{"USER-AGENT"})
	assert.Equal(t, map[string]string{
		"x-multi": "a, b", "api-key": journal.Redacted, "x-goog-api-key": journal.Redacted, "cookie": journal.Redacted,
		"proxy-authorization": journal.Redacted, "user-agent": journal.Redacted,
		"x-stainless-lang": "go", "x-stainless-retry-count": "not a number",
	}, got)
	assert.Equal(t, journal.Client{UserAgent: journal.Redacted, Stainless: map[string]string{"lang": "go"}}, journalClient(got))
}

// The body capture keeps the first bytes within its bound as the route
// reads the body, and counts the whole; a body the route never reads
// counts its Content-Length.
func TestJournalBodyCapture(t *testing.T) {
	rt := runtime.New(runtime.Settings{JournalCapacity: 1, JournalMaxBytes: 1 << 10})
	for _, tc := range []struct {
		name  string
		read  bool
		limit int64
		body  string
		want  string
	}{
		{"within", true, 64, `{"a":1}`, `{"a":1}`},
		{"cut", true, 4, `{"a":1}`, `{"a"`},
		{"cut in a character", true, 7, `{"x":"éé"}`, `{"x":"`},
		{"cut in the second character", true, 9, `{"x":"éé"}`, `{"x":"é`},
		{"cut after a character", true, 8, `{"x":"éé"}`, `{"x":"é`},
		{"none", true, 0, `{"a":1}`, ""},
		{"unread", false, 64, `{"a":1}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/v1/chat/completions", strings.NewReader(tc.body))
			x := &provider.Exchange{Runtime: rt, Request: r}
			done := journalRequest(x, &runtime.Settings{JournalBodyBytes: tc.limit})
			if tc.read {
				b, err := io.ReadAll(r.Body)
				require.NoError(t, err)
				require.Equal(t, tc.body, string(b), "the route reads the body unchanged")
			}
			done()
			assert.Equal(t, tc.want, x.Entry.Body)
			assert.Equal(t, int64(len(tc.body)), x.Entry.BodyBytes)
		})
	}
}
