package genaisdk_test

import (
	"context"
	"testing"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/stretchr/testify/require"
	"google.golang.org/genai"
)

// model is the model the tests talk to.
const model = "gemini-2.5-flash"

// newSession starts a server and opens one session on it, both closed
// when t ends.
func newSession(t *testing.T, opts ...session.Option) *session.Session {
	t.Helper()
	return llmtest.NewServer(t).NewSession(t, opts...)
}

// clientFor is a Gemini API client of sess, as the README sets one up.
func clientFor(t *testing.T, sess *session.Session, apiKey string) *genai.Client {
	t.Helper()
	c, err := genai.NewClient(context.Background(), &genai.ClientConfig{
		APIKey:      apiKey,
		Backend:     genai.BackendGeminiAPI,
		HTTPClient:  sess.HTTPClient(),
		HTTPOptions: genai.HTTPOptions{BaseURL: sess.GeminiBaseURL()},
	})
	require.NoError(t, err)
	return c
}

// betaClient is a client of sess on v1beta, the version genai called by
// default before v1.78.0 and the only one that serves context caching.
func betaClient(t *testing.T, sess *session.Session) *genai.Client {
	t.Helper()
	c, err := genai.NewClient(context.Background(), &genai.ClientConfig{
		APIKey:      "test-key",
		Backend:     genai.BackendGeminiAPI,
		HTTPClient:  sess.HTTPClient(),
		HTTPOptions: genai.HTTPOptions{BaseURL: sess.GeminiBaseURL(), APIVersion: "v1beta"},
	})
	require.NoError(t, err)
	return c
}

// client is clientFor with any key, which a session without one accepts.
func client(t *testing.T, sess *session.Session) *genai.Client { return clientFor(t, sess, "test-key") }
