package genaisdk_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/stretchr/testify/require"
	"google.golang.org/genai"
)

// Every scripted status reaches the caller as genai.APIError, by value,
// with the API's canonical status and, for 429, its RetryInfo.
func TestErrorStatuses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		status int
		want   string
	}{
		{400, "INVALID_ARGUMENT"}, {403, "PERMISSION_DENIED"}, {404, "NOT_FOUND"}, {429, "RESOURCE_EXHAUSTED"},
		{500, "INTERNAL"}, {503, "UNAVAILABLE"}, {504, "DEADLINE_EXCEEDED"},
	} {
		sess := newSession(t)
		sess.Chat("e").Reply(scenario.Fail(tc.status, "", "scripted failure"))
		_, err := client(t, sess).Models.GenerateContent(context.Background(), model, genai.Text("x"), nil)
		e := apiError(t, err)
		require.Equal(t, tc.status, e.Code, tc.want)
		require.Equal(t, tc.want, e.Status)
		require.Equal(t, "scripted failure", e.Message)
	}
	sess := newSession(t)
	sess.Chat("rl").Reply(scenario.RateLimited())
	_, err := client(t, sess).Models.GenerateContent(context.Background(), model, genai.Text("x"), nil)
	e := apiError(t, err)
	require.Equal(t, "RESOURCE_EXHAUSTED", e.Status)
	require.Equal(t, "type.googleapis.com/google.rpc.RetryInfo", e.Details[len(e.Details)-1]["@type"])
}

// A wrong key is 400 INVALID_ARGUMENT with API_KEY_INVALID, as the API
// answers; the session's requests without a key are 403.
func TestAuthentication(t *testing.T) {
	t.Parallel()
	sess := newSession(t, session.RequireAPIKey("right-key"))
	sess.Chat("a").Responds("ok").Repeat()
	_, err := clientFor(t, sess, "wrong-key").Models.GenerateContent(context.Background(), model, genai.Text("x"), nil)
	e := apiError(t, err)
	require.Equal(t, 400, e.Code)
	require.Equal(t, "INVALID_ARGUMENT", e.Status)
	require.Equal(t, "API key not valid. Please pass a valid API key.", e.Message)
	require.Equal(t, "API_KEY_INVALID", e.Details[0]["reason"])

	resp, err := clientFor(t, sess, "right-key").Models.GenerateContent(context.Background(), model, genai.Text("x"), nil)
	require.NoError(t, err)
	require.Equal(t, "ok", resp.Text())

	// The REST API's ?key= works too, and a request with no key is 403.
	body := strings.NewReader(`{"contents":[{"parts":[{"text":"x"}]}]}`)
	req, _ := http.NewRequest(http.MethodPost, sess.GeminiBaseURL()+"/v1beta/models/"+model+":generateContent", body)
	res, err := sess.HTTPClient().Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusForbidden, res.StatusCode)
	req, _ = http.NewRequest(http.MethodPost, sess.GeminiBaseURL()+"/v1beta/models/"+model+":generateContent?key=right-key",
		strings.NewReader(`{"contents":[{"parts":[{"text":"x"}]}]}`))
	req.Header.Set("Content-Type", "application/json")
	res, err = sess.HTTPClient().Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)

	// No key, from the header or the query, is journaled.
	raw, err := json.Marshal(sess.Journal().Entries())
	require.NoError(t, err)
	require.NotContains(t, string(raw), "right-key")
	require.NotContains(t, string(raw), "wrong-key")
}

// An unknown model is 404 NOT_FOUND naming the nearest served models.
func TestModelNotFound(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	_, err := client(t, sess).Models.GenerateContent(context.Background(), "gemini-2.5-flsh", genai.Text("x"), nil)
	e := apiError(t, err)
	require.Equal(t, 404, e.Code)
	require.Equal(t, "NOT_FOUND", e.Status)
	require.Contains(t, e.Message, "models/gemini-2.5-flsh is not found for API version v1,")
	require.Contains(t, e.Message, ": gemini-2.5-flash, ")
}

// Retries are the caller's: off by default, one request; with
// RetryOptions (zero delays) a 429 is retried and the next reply answers.
func TestRetryOptions(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("r").Reply(scenario.RateLimited()).Then("after the retry")
	_, err := client(t, sess).Models.GenerateContent(context.Background(), model, genai.Text("x"), nil)
	require.Equal(t, 429, apiError(t, err).Code)
	require.Len(t, sess.Journal().Entries(), 1)

	sess = newSession(t)
	sess.Chat("r").Reply(scenario.RateLimited()).Then("after the retry")
	zero := 0.0
	c, err := genai.NewClient(context.Background(), &genai.ClientConfig{APIKey: "k", Backend: genai.BackendGeminiAPI,
		HTTPClient: sess.HTTPClient(), HTTPOptions: genai.HTTPOptions{BaseURL: sess.GeminiBaseURL(),
			RetryOptions: &genai.HTTPRetryOptions{InitialDelay: new(float64), MaxDelay: &zero, Jitter: &zero}}})
	require.NoError(t, err)
	resp, err := c.Models.GenerateContent(context.Background(), model, genai.Text("x"), nil)
	require.NoError(t, err)
	require.Equal(t, "after the retry", resp.Text())
	require.Len(t, sess.Journal().Entries(), 2)
}

// A stream scripted to fail after its first chunks delivers them, then
// the error as genai's APIError; a malformed chunk is a decode error.
func TestStreamFaults(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("f").Reply(scenario.Text("one two three four five six").FailsAfter(2, "UNAVAILABLE", "overloaded mid-stream"))
	var got []string
	var failure error
	for resp, err := range client(t, sess).Models.GenerateContentStream(context.Background(), model, genai.Text("x"), nil) {
		if err != nil {
			failure = err
			break
		}
		got = append(got, resp.Text())
	}
	require.Len(t, got, 2)
	e := apiError(t, failure)
	require.Equal(t, "UNAVAILABLE", e.Status)
	require.Equal(t, "overloaded mid-stream", e.Message)

	sess.Chat("f").Clear()
	sess.Chat("m").Reply(scenario.Text("one two three").MalformedAfter(1))
	failure = nil
	for _, err := range client(t, sess).Models.GenerateContentStream(context.Background(), model, genai.Text("x"), nil) {
		if err != nil {
			failure = err
			break
		}
	}
	require.Error(t, failure)
}

// The API's refusals of malformed requests, in its words.
func TestValidation(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("v").Responds("ok").Repeat()
	for body, want := range map[string]string{
		`{}`: "contents is not specified",
		``:   "contents is not specified",
		`{"contents":[{"role":"system","parts":[{"text":"x"}]}]}`:                     "Please use a valid role: user, model.",
		`{"contents":[{"parts":[]}]}`:                                                 "contents.parts must not be empty.",
		`{"contents":[{"parts":[{"text":"x"}]}],"bogus":1}`:                           `Unknown name "bogus": Cannot find field.`,
		`{"contents":[{"parts":[{"text":"x"}]}],"generationConfig":{"temprature":1}}`: `Unknown name "temprature" at 'generation_config'`,
		`{"contents":[{"parts":[{"functionResponse":{"name":"f","response":{}}}]}]}`:  "function response turn comes immediately after a function call turn",
		`{"contents":[{"parts":[{"text":1}]}]}`:                                       "Invalid value at 'contents[0].parts[0].text' (TYPE_STRING), 1",
		`not json`:                                                                    "Invalid JSON payload received.",
	} {
		req, _ := http.NewRequest(http.MethodPost, sess.GeminiBaseURL()+"/v1beta/models/"+model+":generateContent?key=k", strings.NewReader(body))
		res, err := sess.HTTPClient().Do(req)
		require.NoError(t, err)
		var b bytes.Buffer
		_, _ = b.ReadFrom(res.Body)
		res.Body.Close()
		require.Equal(t, 400, res.StatusCode, body)
		require.Contains(t, b.String(), `"status":"INVALID_ARGUMENT"`, body)
		require.Contains(t, b.String(), strings.ReplaceAll(want, `"`, `\"`), body)
	}
	// snake_case is the same request, as the API's proto JSON reads it.
	req, _ := http.NewRequest(http.MethodPost, sess.GeminiBaseURL()+"/v1beta/models/"+model+":generateContent?key=k",
		strings.NewReader(`{"contents":[{"parts":[{"text":"x"}]}],"system_instruction":{"parts":[{"text":"sys"}]},"generation_config":{"max_output_tokens":"50"}}`))
	res, err := sess.HTTPClient().Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, 200, res.StatusCode)
}
