package openai_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// apiErrorOf is err as openai-go's *openai.Error.
func apiErrorOf(t *testing.T, err error) *openai.Error {
	t.Helper()
	var apiErr *openai.Error
	require.ErrorAs(t, err, &apiErr)
	return apiErr
}

// A wrong key is answered in the real API's words: a key of up to 12
// bytes shown whole, a longer one masked to its first 8 and last 4 bytes
// with an asterisk for each byte between, and the sentence that points to
// the API keys page.
func TestWrongKeyIsMaskedAsTheRealAPIMasksIt(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.RequireAPIKey("provider-key"))
	const tail = ". You can find your API key at https://platform.openai.com/account/api-keys."
	for key, shown := range map[string]string{
		"sk-invalid":        "sk-invalid",
		"YOUR_API_KEY":      "YOUR_API_KEY",
		"sk-not-a-real-key": "sk-not-a*****-key",
		"sk-proj-" + strings.Repeat("a", 40) + "abcd": "sk-proj-" + strings.Repeat("*", 40) + "abcd",
	} {
		client := e2e.ClientFor(sess, key)
		_, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4o-mini", "Hi"))
		apiErr := apiErrorOf(t, err)
		assert.Equal(t, http.StatusUnauthorized, apiErr.StatusCode, key)
		assert.Equal(t, "invalid_request_error", apiErr.Type, key)
		assert.Equal(t, "invalid_api_key", apiErr.Code, key)
		assert.Empty(t, apiErr.Param, key)
		assert.Equal(t, "Incorrect API key provided: "+shown+tail, apiErr.Message, key)
	}
}

// A chat request without a model gets the real API's own message, with
// null param and code, not the usual missing_required_parameter.
func TestChatWithoutModelIsWordedAsTheRealAPI(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	client := e2e.ClientFor(sess, "k")
	_, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("", "Hi"))
	apiErr := apiErrorOf(t, err)
	assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
	assert.Equal(t, "invalid_request_error", apiErr.Type)
	assert.Equal(t, "you must provide a model parameter", apiErr.Message)
	assert.Empty(t, apiErr.Param)
	assert.Empty(t, apiErr.Code)
	assert.JSONEq(t, `{"message":"you must provide a model parameter","type":"invalid_request_error","param":null,"code":null}`, apiErr.RawJSON())
}

// The 429 of scenario.RateLimited says "tokens" in its type and in its
// message alike, and its wait is the one its headers ask for; a scripted
// "requests" 429 speaks of requests.
func TestScriptedRateLimitTypeAndMessageAgree(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	requests := scenario.Reply{Error: &scenario.Error{Status: http.StatusTooManyRequests, Code: "rate_limit_exceeded", Type: "requests"}}
	sess.Chat("limited").Reply(scenario.RateLimitedFor(1500*time.Millisecond), requests)
	client := e2e.ClientFor(sess, "k")

	_, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4o-mini", "Hi"))
	apiErr := apiErrorOf(t, err)
	assert.Equal(t, http.StatusTooManyRequests, apiErr.StatusCode)
	assert.Equal(t, "rate_limit_exceeded", apiErr.Code)
	assert.Equal(t, "tokens", apiErr.Type)
	assert.Equal(t, "Rate limit reached in organization org-llmtestserver on tokens per min (TPM). Please try again in 1.5s. "+
		"Visit https://platform.openai.com/account/rate-limits to learn more.", apiErr.Message)
	assert.NotContains(t, apiErr.Message, "requests")

	_, err = client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4o-mini", "Hi"))
	apiErr = apiErrorOf(t, err)
	assert.Equal(t, "requests", apiErr.Type)
	assert.Contains(t, apiErr.Message, "on requests per min (RPM)")
	assert.NotContains(t, apiErr.Message, "tokens")
}

// scenario.RateLimited itself is a "tokens" 429 whose message agrees.
func TestRateLimitedSpeaksOfTokens(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("limited").Reply(scenario.RateLimited())
	client := e2e.ClientFor(sess, "k")
	_, err := client.Responses.New(t.Context(), responses.ResponseNewParams{Model: "gpt-4o-mini",
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("Hi")}})
	apiErr := apiErrorOf(t, err)
	assert.Equal(t, "tokens", apiErr.Type)
	assert.Contains(t, apiErr.Message, "on tokens per min (TPM). Please try again in 0s.")
}

// An unserved model is 404 model_not_found without param on Chat
// Completions, and 400 model_not_found with param "model" and the
// Responses API's own message on the Responses API; neither takes a reply.
func TestUnknownModelInEachAPIsWords(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.OnlyModels("gpt-4o-mini"))
	sess.Chat("unused").Responds("never")
	client := e2e.ClientFor(sess, "k")

	_, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-nope", "Hi"))
	apiErr := apiErrorOf(t, err)
	assert.Equal(t, http.StatusNotFound, apiErr.StatusCode)
	assert.Equal(t, "model_not_found", apiErr.Code)
	assert.Empty(t, apiErr.Param)
	assert.Equal(t, "The model `gpt-nope` does not exist or you do not have access to it. This session serves only: gpt-4o-mini.", apiErr.Message)

	for _, stream := range []bool{false, true} {
		params := responses.ResponseNewParams{Model: "gpt-nope", Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("Hi")}}
		if stream {
			s := client.Responses.NewStreaming(t.Context(), params)
			for s.Next() {
			}
			err = s.Err()
			s.Close()
		} else {
			_, err = client.Responses.New(t.Context(), params)
		}
		apiErr = apiErrorOf(t, err)
		assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
		assert.Equal(t, "invalid_request_error", apiErr.Type)
		assert.Equal(t, "model_not_found", apiErr.Code)
		assert.Equal(t, "model", apiErr.Param)
		assert.Equal(t, "The requested model 'gpt-nope' does not exist. This session serves only: gpt-4o-mini.", apiErr.Message)
	}
	entries := e2e.JournalOf(t, sess, 3)
	for _, e := range entries {
		assert.Equal(t, "model_not_found", e.ErrorCode)
		assert.Equal(t, "gpt-nope", e.Model)
	}
	assert.Equal(t, 1, sess.Pending())
}
