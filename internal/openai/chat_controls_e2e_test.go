package openai_test

import (
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/openai/openai-go/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// requireAPIError checks that err is the API's 400 with code, param and
// message (code "" for none).
func requireAPIError(t *testing.T, err error, code, param, message string) {
	t.Helper()
	var apiErr *openai.Error
	require.True(t, errors.As(err, &apiErr), "error %v is not an API error", err)
	assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
	assert.Equal(t, "invalid_request_error", apiErr.Type)
	assert.Equal(t, code, apiErr.Code)
	assert.Equal(t, param, apiErr.Param)
	assert.Equal(t, message, apiErr.Message)
}

// stopReply is a reply that a stop sequence can cut.
const stopReply = "First line.\nSecond line. END of the answer."

// stop cuts the scripted text before the first occurrence of any stop
// sequence (the sequence left out), finishes with "stop", and counts the
// cut text in usage: as many completion tokens as the cut text scripted
// alone. In streams too.
func TestChatStopSequences(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("long").Responds(stopReply).Repeat()
	client := e2e.ClientFor(sess, "k")

	cutAlone := srv.NewSession(t)
	cutAlone.Chat("cut").Responds("First line.").Repeat()
	aloneClient := e2e.ClientFor(cutAlone, "k")
	alone, err := aloneClient.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi"))
	require.NoError(t, err)

	for name, stop := range map[string]openai.ChatCompletionNewParamsStopUnion{
		"string":               {OfString: openai.String("\n")},
		"array, earliest wins": {OfStringArray: []string{"END", "\n", "absent"}},
	} {
		t.Run(name, func(t *testing.T) {
			params := e2e.UserTurn(e2e.ReplyModel, "Hi")
			params.Stop = stop
			got, err := client.Chat.Completions.New(t.Context(), params)
			require.NoError(t, err)
			assert.Equal(t, "First line.", got.Choices[0].Message.Content)
			assert.Equal(t, "stop", got.Choices[0].FinishReason)
			assert.Equal(t, alone.Usage.CompletionTokens, got.Usage.CompletionTokens)

			_, acc := chunks(t, client.Chat.Completions.NewStreaming(t.Context(), params))
			assert.Equal(t, "First line.", acc.Choices[0].Message.Content)
			assert.Equal(t, "stop", acc.Choices[0].FinishReason)
		})
	}

	// A sequence the text does not hold changes nothing.
	params := e2e.UserTurn(e2e.ReplyModel, "Hi")
	params.Stop = openai.ChatCompletionNewParamsStopUnion{OfString: openai.String("never there")}
	got, err := client.Chat.Completions.New(t.Context(), params)
	require.NoError(t, err)
	assert.Equal(t, stopReply, got.Choices[0].Message.Content)

	// A stop in the text drops the tool calls after it: the model stopped.
	tools := srv.NewSession(t)
	tools.Chat("t").Reply(scenario.Reply{Text: "Let me check. One moment.", ToolCalls: []scenario.ToolCall{{Name: "lookup", Arguments: `{"q":"x"}`}}})
	params = e2e.UserTurn(e2e.ReplyModel, "Hi")
	params.Stop = openai.ChatCompletionNewParamsStopUnion{OfString: openai.String(".")}
	params.Tools = []openai.ChatCompletionToolUnionParam{openai.ChatCompletionFunctionTool(openai.FunctionDefinitionParam{Name: "lookup"})}
	toolsClient := e2e.ClientFor(tools, "k")
	got, err = toolsClient.Chat.Completions.New(t.Context(), params)
	require.NoError(t, err)
	assert.Equal(t, "Let me check", got.Choices[0].Message.Content)
	assert.Empty(t, got.Choices[0].Message.ToolCalls)
	assert.Equal(t, "stop", got.Choices[0].FinishReason)
}

// More than four stop sequences, or one that is not a string, are the
// real API's 400s; the refused request takes no reply.
func TestChatStopRefused(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("s").Responds("kept")
	client := e2e.ClientFor(sess, "k")
	params := e2e.UserTurn(e2e.ReplyModel, "Hi")
	params.Stop = openai.ChatCompletionNewParamsStopUnion{OfStringArray: []string{"a", "b", "c", "d", "e"}}
	_, err := client.Chat.Completions.New(t.Context(), params)
	requireAPIError(t, err, "array_above_max_length", "stop",
		"Invalid 'stop': array too long. Expected an array with maximum length 4, but got an array with length 5 instead.")

	r := e2e.Call(t, sess.HTTPClient(), "POST", sess.BaseURL()+"/chat/completions",
		`{"model":"`+e2e.ReplyModel+`","messages":[{"role":"user","content":"Hi"}],"stop":[1]}`, "Authorization", "Bearer k")
	code, _, param, _ := r.APIError(t)
	assert.Equal(t, http.StatusBadRequest, r.Status)
	assert.Equal(t, "invalid_type", code)
	assert.Equal(t, "stop[0]", param)

	got, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi"))
	require.NoError(t, err)
	assert.Equal(t, "kept", got.Choices[0].Message.Content, "the refused requests took no reply")
}

// checkTokenLogprobs checks that the log probabilities of tokens are
// well formed and rebuild text: each token's bytes are its own, its
// logprob is below 0, and its top_logprobs (top of them) start with the
// token and go down, their probabilities summing to at most 1.
func checkTokenLogprobs(t *testing.T, text string, lps []openai.ChatCompletionTokenLogprob, top int) {
	t.Helper()
	var rebuilt []byte
	for i, lp := range lps {
		var b []byte
		for _, x := range lp.Bytes {
			require.True(t, x >= 0 && x < 256, "token %d byte %d", i, x)
			b = append(b, byte(x))
		}
		rebuilt = append(rebuilt, b...)
		if utf8.Valid(b) {
			assert.Equal(t, string(b), lp.Token, "token %d", i)
		}
		assert.Less(t, lp.Logprob, 0.0, "token %d", i)
		require.Len(t, lp.TopLogprobs, top, "token %d", i)
		sum := 0.0
		for k, alt := range lp.TopLogprobs {
			sum += math.Exp(alt.Logprob)
			if k == 0 {
				assert.Equal(t, lp.Token, alt.Token)
				assert.Equal(t, lp.Logprob, alt.Logprob)
				continue
			}
			assert.Less(t, alt.Logprob, lp.TopLogprobs[k-1].Logprob, "token %d alternative %d", i, k)
			assert.NotEqual(t, lp.Token, alt.Token)
		}
		assert.LessOrEqual(t, sum, 1.0, "token %d", i)
	}
	assert.Equal(t, text, string(rebuilt))
}

// logprobs: true returns, for each token of the answer, its logprob,
// bytes and top_logprobs; the same numbers every time; none unless asked.
// In streams each content chunk's choice carries the logprobs of its own
// tokens.
func TestChatLogprobs(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.WithStream(2, 0, 0))
	const text = "Log probabilities, token by token: café 🎉."
	sess.Chat("lp").Responds(text).Repeat()
	client := e2e.ClientFor(sess, "k")

	plain, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi"))
	require.NoError(t, err)
	assert.Equal(t, "null", plain.Choices[0].JSON.Logprobs.Raw(), "no logprobs unless asked")

	params := e2e.UserTurn(e2e.ReplyModel, "Hi")
	params.Logprobs = openai.Bool(true)
	params.TopLogprobs = openai.Int(3)
	params.N = openai.Int(2)
	got, err := client.Chat.Completions.New(t.Context(), params)
	require.NoError(t, err)
	for _, c := range got.Choices {
		checkTokenLogprobs(t, text, c.Logprobs.Content, 3)
		assert.Equal(t, "null", c.Logprobs.JSON.Refusal.Raw())
	}
	again, err := client.Chat.Completions.New(t.Context(), params)
	require.NoError(t, err)
	assert.Equal(t, got.Choices[0].Logprobs.RawJSON(), again.Choices[0].Logprobs.RawJSON(), "deterministic")
	assert.Greater(t, len(got.Choices[0].Logprobs.Content), 5, "one entry per token")

	// logprobs alone: empty top_logprobs.
	params.TopLogprobs = openai.Int(0)
	params.N = openai.Int(1)
	got, err = client.Chat.Completions.New(t.Context(), params)
	require.NoError(t, err)
	checkTokenLogprobs(t, text, got.Choices[0].Logprobs.Content, 0)

	// Streamed: every content chunk carries its tokens.
	params.TopLogprobs = openai.Int(2)
	all, acc := chunks(t, client.Chat.Completions.NewStreaming(t.Context(), params))
	assert.Equal(t, text, acc.Choices[0].Message.Content)
	var streamed []openai.ChatCompletionTokenLogprob
	for i, c := range all {
		if len(c.Choices) == 0 {
			continue
		}
		ch := c.Choices[0]
		if ch.FinishReason != "" {
			assert.Equal(t, "null", ch.JSON.Logprobs.Raw(), "the finishing chunk has none")
			continue
		}
		var b []byte
		for _, lp := range ch.Logprobs.Content {
			for _, x := range lp.Bytes {
				b = append(b, byte(x))
			}
		}
		assert.Equal(t, ch.Delta.Content, string(b), "chunk %d's logprobs are its own tokens: %s", i, c.RawJSON())
		streamed = append(streamed, ch.Logprobs.Content...)
	}
	checkTokenLogprobs(t, text, streamed, 2)
	unstreamed, err := client.Chat.Completions.New(t.Context(), params)
	require.NoError(t, err)
	require.Len(t, streamed, len(unstreamed.Choices[0].Logprobs.Content))
	for i := range streamed {
		assert.Equal(t, unstreamed.Choices[0].Logprobs.Content[i].Logprob, streamed[i].Logprob, "token %d: the same numbers streamed or not", i)
	}
}

// A refusal's tokens are in logprobs.refusal, content null.
func TestChatLogprobsOfRefusal(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("r").Refuses("I can't help with that.")
	params := e2e.UserTurn(e2e.ReplyModel, "Hi")
	params.Logprobs = openai.Bool(true)
	client := e2e.ClientFor(sess, "k")
	got, err := client.Chat.Completions.New(t.Context(), params)
	require.NoError(t, err)
	lp := got.Choices[0].Logprobs
	assert.Equal(t, "null", lp.JSON.Content.Raw())
	checkTokenLogprobs(t, "I can't help with that.", lp.Refusal, 0)
}

// top_logprobs out of range or without logprobs: true are the real 400s.
func TestChatLogprobsRefused(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	client := e2e.ClientFor(sess, "k")
	params := e2e.UserTurn(e2e.ReplyModel, "Hi")
	params.TopLogprobs = openai.Int(2)
	_, err := client.Chat.Completions.New(t.Context(), params)
	requireAPIError(t, err, "", "top_logprobs", "The 'top_logprobs' parameter is only allowed when 'logprobs' is enabled.")

	params.Logprobs = openai.Bool(false)
	_, err = client.Chat.Completions.New(t.Context(), params)
	requireAPIError(t, err, "", "top_logprobs", "The 'top_logprobs' parameter is only allowed when 'logprobs' is enabled.")

	params.Logprobs = openai.Bool(true)
	params.TopLogprobs = openai.Int(21)
	_, err = client.Chat.Completions.New(t.Context(), params)
	requireAPIError(t, err, "integer_above_max_value", "top_logprobs",
		"Invalid 'top_logprobs': integer above maximum value. Expected a value <= 20, but got 21 instead.")

	params.TopLogprobs = openai.Int(-1)
	_, err = client.Chat.Completions.New(t.Context(), params)
	requireAPIError(t, err, "integer_below_min_value", "top_logprobs",
		"Invalid 'top_logprobs': integer below minimum value. Expected a value >= 0, but got -1 instead.")
}

// service_tier is reported as the tier that served the request, in the
// body and in every chunk: auto and default as default, fast and priority
// as priority, flex as flex; an unknown tier (scale included) is the real
// 400.
func TestChatServiceTier(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("tier").Responds("Served.").Repeat()
	client := e2e.ClientFor(sess, "k")
	for asked, want := range map[string]string{
		"":         "default",
		"auto":     "default",
		"default":  "default",
		"flex":     "flex",
		"priority": "priority",
		"fast":     "priority",
	} {
		params := e2e.UserTurn(e2e.ReplyModel, "Hi")
		params.ServiceTier = openai.ChatCompletionNewParamsServiceTier(asked)
		got, err := client.Chat.Completions.New(t.Context(), params)
		require.NoError(t, err, asked)
		assert.Equal(t, want, string(got.ServiceTier), "asked %q", asked)
		all, _ := chunks(t, client.Chat.Completions.NewStreaming(t.Context(), params))
		for i, c := range all {
			assert.Equal(t, want, string(c.ServiceTier), "asked %q, chunk %d", asked, i)
		}
	}
	for _, bad := range []string{"scale", "turbo"} {
		params := e2e.UserTurn(e2e.ReplyModel, "Hi")
		params.ServiceTier = openai.ChatCompletionNewParamsServiceTier(bad)
		_, err := client.Chat.Completions.New(t.Context(), params)
		requireAPIError(t, err, "invalid_value", "service_tier",
			"Invalid value: '"+bad+"'. Supported values are: 'auto', 'default', 'fast', 'flex', and 'priority'.")
	}
}

// The raw chat body of a logprobs answer decodes into the field order and
// shape the real API uses (token, logprob, bytes, top_logprobs).
func TestChatLogprobsWireShape(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("w").Responds("Hi")
	r := e2e.Call(t, sess.HTTPClient(), "POST", sess.BaseURL()+"/chat/completions",
		`{"model":"`+e2e.ReplyModel+`","messages":[{"role":"user","content":"Hi"}],"logprobs":true,"top_logprobs":1}`, "Authorization", "Bearer k")
	require.Equal(t, http.StatusOK, r.Status, "%s", r.Body)
	var body struct {
		Choices []struct {
			Logprobs json.RawMessage `json:"logprobs"`
		} `json:"choices"`
	}
	require.NoError(t, json.Unmarshal(r.Body, &body))
	raw := string(body.Choices[0].Logprobs)
	assert.True(t, strings.HasPrefix(raw, `{"content":[{"token":"Hi","logprob":-`), raw)
	assert.True(t, strings.HasSuffix(raw, `"bytes":[72,105]}]}],"refusal":null}`), raw)
}
