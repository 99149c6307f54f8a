package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A client that sends 9 of the 1,000 bytes it declared is answered 408 in
// the error envelope once the read timeout passes, and its connection is
// closed; the server then shuts down at once.
func TestHalfSentBodyTimesOut(t *testing.T) {
	in := start(t, []string{"-management-key", "mk", "-read-timeout", "200ms"}, nil, false)
	conn, err := net.Dial("tcp", strings.TrimPrefix(in.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /admin-api/sessions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer mk\r\n"+
		"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"scenari")
	// A generous bound: the point is that the server answers at all.
	conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to a half-sent body: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	r := reply{status: resp.StatusCode, body: body}
	if r.status != http.StatusRequestTimeout || r.errorCode() != "request_timeout" || !resp.Close {
		t.Errorf("answer %d %s (close %v), want 408 request_timeout and the connection closed", r.status, body, resp.Close)
	}
	in.stop(t)
}

// A client that stops reading a long stream is cut off once a write has
// waited the write timeout: the stream stops short of [DONE] and the server
// closes the connection instead of holding its handler.
func TestNeverReadStreamTimesOut(t *testing.T) {
	in := start(t, []string{"-management-key", "mk", "-write-timeout", "200ms"}, nil, false)
	// Some 75,000 chunks of one token, megabytes more than the sockets hold.
	sess := createSession(t, in.url, "mk", `{"stream":{"tokens_per_chunk":1},"scenarios":[{"name":"long","match":{},"replies":[{"text":"`+
		strings.Repeat("Nobody reads this. ", 16<<10)+`"}]}]}`)
	conn, err := net.Dial("tcp", strings.TrimPrefix(in.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"model":"gpt-4.1-mini","stream":true,"messages":[{"role":"user","content":"Hi"}]}`
	fmt.Fprintf(conn, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n%s: %s\r\n%s: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
		headerSession, sess.ID, headerSessionKey, sess.Key, len(body), body)
	// Not reading, so that the server's writes stall, until the server has
	// given up on the request: it journals it then. However slow the
	// machine, the stream cannot finish meanwhile, as nobody reads it.
	deadline := time.Now().Add(60 * time.Second)
	for {
		r := do(t, http.MethodGet, in.url+"/admin-api/journal", sess.header(), "")
		var list struct {
			Data []struct {
				Status int `json:"status"`
			} `json:"data"`
		}
		if err := json.Unmarshal(r.body, &list); err != nil {
			t.Fatalf("journal %s: %v", r.body, err)
		}
		if len(list.Data) > 0 {
			if got := list.Data[0].Status; got != 499 {
				t.Errorf("the unread stream is journaled with status %d, want 499 (cut off)", got)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the server never gave up on a stream nobody reads")
		}
		time.Sleep(50 * time.Millisecond)
	}
	// Had the server not cut the connection, reading would get the whole
	// stream and then wait for the deadline on the idle connection.
	conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	got, err := io.ReadAll(conn)
	if err != nil && !errors.Is(err, syscall.ECONNRESET) {
		t.Fatalf("reading after the stall: %v (after %d bytes), want the server to close the connection", err, len(got))
	}
	if strings.Contains(string(got), "data: [DONE]") {
		t.Errorf("the stream was delivered whole (%d bytes), want it cut off by the write timeout", len(got))
	}
	in.stop(t)
}
