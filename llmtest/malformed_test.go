package llmtest_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/llmtestserver/llmtestserver/llmtest"
)

// rawExchange sends raw bytes on a fresh connection and reads one answer.
func rawExchange(t *testing.T, srv *llmtest.Server, request string) (*http.Response, []byte) {
	t.Helper()
	skipInMemory(t, srv, "raw bytes on a connection, parsed by net/http's server")
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL(), "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	// A server that refuses the request may stop reading it; its answer
	// is still there to read.
	io.WriteString(conn, request)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, body
}

// Oversized headers get 431 in OpenAI's error envelope. Only what net/http
// refuses before any handler runs (headers past its own limit of 2 MiB, a bare
// CR or a NUL in a header) keeps its plain-text answer.
func TestMalformedHeaders(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	big := strings.Repeat("x", 3<<19) // 1.5 MiB
	resp, body := rawExchange(t, srv, "GET /v1/models HTTP/1.1\r\nHost: x\r\nX-Big: "+big+"\r\n\r\n")
	var env struct {
		Error struct {
			Type string  `json:"type"`
			Code *string `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &env); err != nil || resp.StatusCode != http.StatusRequestHeaderFieldsTooLarge ||
		resp.Header.Get("Content-Type") != "application/json" || env.Error.Code == nil || *env.Error.Code != "request_header_fields_too_large" {
		t.Errorf("1.5 MiB header: %d %s %q, want 431 request_header_fields_too_large in the envelope", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}

	for name, request := range map[string]string{
		"past net/http's limit": "GET /v1/models HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("x", 3<<20) + "\r\n\r\n",
		"bare CR":               "GET /v1/models HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n",
		"NUL":                   "GET /v1/models HTTP/1.1\r\nHost: x\r\nX-A: a\x00b\r\n\r\n",
	} {
		resp, body := rawExchange(t, srv, request)
		if resp.StatusCode < 400 || resp.StatusCode >= 500 {
			t.Errorf("%s: %d %q, want net/http's 4xx", name, resp.StatusCode, body)
		}
	}
}
