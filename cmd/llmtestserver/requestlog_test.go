package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// logRecord is one line of the JSON request log.
type logRecord struct {
	Level    string  `json:"level"`
	Msg      string  `json:"msg"`
	Method   string  `json:"method"`
	Path     string  `json:"path"`
	Status   int     `json:"status"`
	Bytes    int64   `json:"bytes"`
	Duration float64 `json:"duration"`
	Session  string  `json:"session"`
}

func logRecords(t *testing.T, logs string) []logRecord {
	t.Helper()
	var out []logRecord
	for _, line := range strings.Split(strings.TrimSpace(logs), "\n") {
		var rec logRecord
		require.NoError(t, json.Unmarshal([]byte(line), &rec), line)
		out = append(out, rec)
	}
	return out
}

// The JSON log has one record per request with its method, path, status,
// bytes and duration, and the session it selects; it never prints a key,
// however the requests carry them: the management key (bearer and Basic),
// the provider key (Authorization, x-api-key, api-key, the query), the
// session key, even in the session ID's header.
func TestRunRequestLogNeverPrintsKeys(t *testing.T) {
	t.Parallel()
	const (
		managementKey = "mk-secret-0001"
		providerKey   = "provider-secret-0002"
		azureKey      = "azure-secret-0003"
		queryKey      = "query-secret-0004"
	)
	in := start(t, []string{"-log", "json", "-management-key", managementKey}, nil, false)
	sess := createSession(t, in.url, managementKey, `{"api_key":"`+providerKey+`","scenarios":[
		{"name":"any","match":{},"replies":[{"text":"Hello"}],"repeat":true}]}`)
	secrets := []string{managementKey, providerKey, azureKey, queryKey, sess.Key}

	client := openai.NewClient(option.WithBaseURL(in.url+"/v1"), option.WithAPIKey(providerKey), option.WithMaxRetries(0),
		option.WithHeader(headerSession, sess.ID), option.WithHeader(headerSessionKey, sess.Key),
		option.WithHeader("x-api-key", providerKey), option.WithHeader("api-key", azureKey),
		option.WithQuery("api-key", queryKey), option.WithQuery("key", queryKey))
	params := openai.ChatCompletionNewParams{Model: "gpt-4.1-mini",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Hi " + providerKey)}}
	_, err := client.Chat.Completions.New(context.Background(), params)
	require.NoError(t, err)
	stream := client.Chat.Completions.NewStreaming(context.Background(), params)
	for stream.Next() {
	}
	require.NoError(t, stream.Err())
	require.NoError(t, stream.Close())

	anthropic := sess.header()
	anthropic.Set("x-api-key", providerKey)
	anthropic.Set("anthropic-version", "2023-06-01")
	r := do(t, http.MethodPost, in.url+"/v1/messages?key="+queryKey, anthropic,
		`{"model":"claude-sonnet-5-5","max_tokens":10,"messages":[{"role":"user","content":"Hi"}]}`)
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	basic := http.Header{"Authorization": {"Basic " + base64.StdEncoding.EncodeToString([]byte("admin:"+managementKey))}}
	do(t, http.MethodGet, in.url+"/admin-api/sessions", basic, "")
	// A client that mixes up the headers sends the key as the ID.
	mixed := http.Header{headerSession: {sess.Key}, headerSessionKey: {sess.ID}, "Authorization": {"Bearer " + providerKey}}
	r = do(t, http.MethodGet, in.url+"/admin-api/journal", mixed, "")
	require.Equal(t, http.StatusNotFound, r.status)
	do(t, http.MethodGet, in.url+"/healthz", nil, "")
	in.stop(t) // every handler has returned, so every record is written

	logs := in.logs.String()
	for _, secret := range secrets {
		assert.NotContains(t, logs, secret)
	}
	records := logRecords(t, logs)
	var paths []string
	for _, rec := range records {
		assert.Equal(t, "INFO", rec.Level)
		assert.Equal(t, "request", rec.Msg)
		assert.Positive(t, rec.Duration, rec.Path)
		paths = append(paths, rec.Method+" "+rec.Path)
	}
	assert.Equal(t, []string{"POST /admin-api/sessions", "POST /v1/chat/completions", "POST /v1/chat/completions",
		"POST /v1/messages", "GET /admin-api/sessions", "GET /admin-api/journal"}, paths,
		"one record per request, the probe below the default level")
	assert.Equal(t, http.StatusCreated, records[0].Status)
	assert.Empty(t, records[0].Session)
	for _, rec := range records[1:4] {
		assert.Equal(t, http.StatusOK, rec.Status, rec.Path)
		assert.Positive(t, rec.Bytes, rec.Path)
		assert.Equal(t, sess.ID, rec.Session, rec.Path)
	}
	assert.Equal(t, http.StatusNotFound, records[5].Status)
	assert.Empty(t, records[5].Session, "a key in the ID's header is not printed")
}

// The text format has the same fields, as key=value pairs.
func TestRunRequestLogText(t *testing.T) {
	t.Parallel()
	in := start(t, []string{"-log", "text"}, nil, true)
	sess := createSession(t, in.url, in.key, greetingConfig)
	do(t, http.MethodPost, in.url+"/v1/chat/completions?api-key=query-secret", sess.header(), chatBody)
	in.stop(t)
	logs := in.logs.String()
	lines := strings.Split(strings.TrimSpace(logs), "\n")
	require.Len(t, lines, 2, logs)
	for _, want := range []string{"level=INFO", "msg=request", "method=POST", "path=/v1/chat/completions",
		"status=200", "bytes=", "duration=", "session=" + sess.ID} {
		assert.Contains(t, lines[1], want)
	}
	assert.NotContains(t, logs, "query-secret")
	assert.NotContains(t, logs, in.key)
}

// Without -log, nothing is written to stderr.
func TestRunRequestLogOffByDefault(t *testing.T) {
	t.Parallel()
	in := start(t, nil, nil, true)
	sess := createSession(t, in.url, in.key, greetingConfig)
	do(t, http.MethodPost, in.url+"/v1/chat/completions", sess.header(), chatBody)
	in.stop(t)
	assert.Empty(t, in.logs.String())
}
