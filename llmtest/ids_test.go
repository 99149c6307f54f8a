package llmtest_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The shapes of the real API's IDs.
var (
	chatIDPattern      = regexp.MustCompile(`^chatcmpl-[A-Za-z0-9]{29}$`)
	callIDPattern      = regexp.MustCompile(`^call_[A-Za-z0-9]{24}$`)
	requestIDPattern   = regexp.MustCompile(`^req_[0-9a-f]{32}$`)
	fingerprintPattern = regexp.MustCompile(`^fp_[0-9a-f]{10}$`)
	responseIDPattern  = regexp.MustCompile(`^resp_[0-9a-f]{50}$`)
	messageIDPattern   = regexp.MustCompile(`^msg_[0-9a-f]{50}$`)
	functionIDPattern  = regexp.MustCompile(`^fc_[0-9a-f]{50}$`)
)

// sessionIDs are the IDs a session's first requests get.
type sessionIDs struct {
	Chat, ChatCall, ChatRequest, Fingerprint          string
	Response, Message, ResponseCall, FunctionCallItem string
	ResponseRequest                                   string
}

// firstIDs sends one chat completion and two Responses requests (a text and
// a tool call) through openai-go, and returns their IDs.
func firstIDs(t *testing.T, sess *session.Session) sessionIDs {
	t.Helper()
	sess.Chat("tool").When(scenario.Match{Endpoint: scenario.EndpointChatCompletions}).CallsTool("lookup", `{"q":"a"}`)
	sess.Chat("text").When(scenario.Match{UserEquals: "text"}).Responds("hello")
	sess.Chat("call").When(scenario.Match{UserEquals: "call"}).CallsTool("lookup", `{"q":"b"}`)
	client := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("k"),
		option.WithHTTPClient(sess.HTTPClient()), option.WithMaxRetries(0))
	var ids sessionIDs
	var raw *http.Response
	chat, err := client.Chat.Completions.New(t.Context(), openai.ChatCompletionNewParams{Model: "gpt-4o-mini",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")}}, option.WithResponseInto(&raw))
	require.NoError(t, err)
	require.Len(t, chat.Choices[0].Message.ToolCalls, 1)
	ids.Chat, ids.ChatCall, ids.ChatRequest = chat.ID, chat.Choices[0].Message.ToolCalls[0].ID, raw.Header.Get("X-Request-Id")
	ids.Fingerprint = chat.SystemFingerprint

	text, err := client.Responses.New(t.Context(), responses.ResponseNewParams{Model: "gpt-4o-mini",
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("text")}}, option.WithResponseInto(&raw))
	require.NoError(t, err)
	require.NotEmpty(t, text.Output)
	ids.Response, ids.Message, ids.ResponseRequest = text.ID, text.Output[len(text.Output)-1].ID, raw.Header.Get("X-Request-Id")
	call, err := client.Responses.New(t.Context(), responses.ResponseNewParams{Model: "gpt-4o-mini",
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("call")}})
	require.NoError(t, err)
	for _, item := range call.Output {
		if item.Type == "function_call" {
			ids.FunctionCallItem, ids.ResponseCall = item.ID, item.CallID
		}
	}
	return ids
}

// checkShapes checks every ID against the real API's shape.
func checkShapes(t *testing.T, ids sessionIDs) {
	t.Helper()
	assert.Regexp(t, chatIDPattern, ids.Chat)
	assert.Regexp(t, callIDPattern, ids.ChatCall)
	assert.Regexp(t, callIDPattern, ids.ResponseCall)
	assert.Regexp(t, requestIDPattern, ids.ChatRequest)
	assert.Regexp(t, requestIDPattern, ids.ResponseRequest)
	assert.Regexp(t, fingerprintPattern, ids.Fingerprint)
	assert.Regexp(t, responseIDPattern, ids.Response)
	assert.Regexp(t, messageIDPattern, ids.Message)
	assert.Regexp(t, functionIDPattern, ids.FunctionCallItem)
}

// Two sessions of one server never share an ID: parallel tests that key a
// cache or a database on them must not collide.
func TestIDsAreUniqueAcrossSessions(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	a, b := firstIDs(t, srv.NewSession(t)), firstIDs(t, srv.NewSession(t))
	checkShapes(t, a)
	checkShapes(t, b)
	assert.NotEqual(t, a.Chat, b.Chat)
	assert.NotEqual(t, a.ChatCall, b.ChatCall)
	assert.NotEqual(t, a.ChatRequest, b.ChatRequest)
	assert.NotEqual(t, a.Response, b.Response)
	assert.NotEqual(t, a.Message, b.Message)
	assert.NotEqual(t, a.FunctionCallItem, b.FunctionCallItem)
	assert.NotEqual(t, a.ResponseCall, b.ResponseCall)
	assert.NotEqual(t, a.ResponseRequest, b.ResponseRequest)
	// The fingerprint belongs to the model snapshot, not to the session.
	assert.Equal(t, a.Fingerprint, b.Fingerprint)
}

// session.WithIDSeed makes a session's IDs reproducible: the same in two
// sessions with one seed, and again after a reset.
func TestIDSeedMakesIDsReproducible(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	seeded := srv.NewSession(t, session.WithIDSeed(42))
	first := firstIDs(t, seeded)
	checkShapes(t, first)
	assert.Equal(t, first, firstIDs(t, srv.NewSession(t, session.WithIDSeed(42))), "one seed, one sequence")
	assert.NotEqual(t, first.Chat, firstIDs(t, srv.NewSession(t, session.WithIDSeed(43))).Chat, "another seed")

	seeded.Reset()
	assert.Equal(t, first, firstIDs(t, seeded), "a reset restarts the sequence")

	cfg, err := seeded.Config()
	require.NoError(t, err)
	require.NotNil(t, cfg.IDSeed)
	assert.Equal(t, uint64(42), *cfg.IDSeed)
}

// The seed is id_seed in a JSON configuration too.
func TestIDSeedInJSON(t *testing.T) {
	cfg, err := session.ParseConfig([]byte(`{"id_seed": 7}`), session.DefaultConfig())
	require.NoError(t, err)
	require.NotNil(t, cfg.IDSeed)
	assert.Equal(t, uint64(7), *cfg.IDSeed)
	cfg, err = session.ParseConfig(nil, session.DefaultConfig())
	require.NoError(t, err)
	assert.Nil(t, cfg.IDSeed, "no seed by default")
}

// Anthropic's request-id header follows the same rule: unique across
// sessions, reproducible under a seed.
func TestAnthropicRequestIDsFollowTheSessionSequence(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	first := func(sess *session.Session) string {
		sess.Chat("hi").Responds("hello")
		r := e2e.Call(t, srv.Client(), http.MethodPost, sess.AnthropicBaseURL()+"/v1/messages", e2e.MessagesBody,
			append(e2e.SelectorOf(sess), "anthropic-version", "2023-06-01", "x-api-key", "k")...)
		require.Equal(t, http.StatusOK, r.Status, "body %s", r.Body)
		return r.Header.Get("request-id")
	}
	a, b := first(srv.NewSession(t)), first(srv.NewSession(t))
	assert.Regexp(t, `^req_011C[1-9A-HJ-NP-Za-km-z]{20}$`, a)
	assert.NotEqual(t, a, b)
	assert.Equal(t, first(srv.NewSession(t, session.WithIDSeed(9))), first(srv.NewSession(t, session.WithIDSeed(9))))
}

// Sessions created over the admin API with one id_seed answer with the
// same IDs.
func TestIDSeedOverTheAdminAPI(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	first := func(config string) (id, requestID string) {
		c := e2e.CreateOverHTTP(t, srv, config)
		r := e2e.Call(t, srv.Client(), http.MethodPost, srv.URL()+"/v1/chat/completions", e2e.ChatBody("gpt-4o-mini", "hi"),
			session.HeaderSession, c.ID, session.HeaderSessionKey, c.Key, "Authorization", "Bearer k")
		require.Equal(t, http.StatusOK, r.Status, "body %s", r.Body)
		var body struct{ ID, Model string }
		require.NoError(t, json.Unmarshal(r.Body, &body))
		assert.Equal(t, "gpt-4o-mini-2024-07-18", body.Model)
		return body.ID, r.Header.Get("X-Request-Id")
	}
	const seeded = `{"id_seed": 11, "scenarios":[{"name":"g","match":{},"replies":[{"text":"one"}]}]}`
	id1, req1 := first(seeded)
	id2, req2 := first(seeded)
	assert.Equal(t, id1, id2)
	assert.Equal(t, req1, req2)
	id3, req3 := first(`{"scenarios":[{"name":"g","match":{},"replies":[{"text":"one"}]}]}`)
	assert.NotEqual(t, id1, id3)
	assert.NotEqual(t, req1, req3)
}
