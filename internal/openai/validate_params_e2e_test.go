package openai_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

// requireRefused requires err to be the real API's 400 with code, param
// and message, and the session unchanged by it: the one scripted reply is
// still there, and the journal records the 400.
func requireRefused(t *testing.T, sess *session.Session, err error, code, param, message string) {
	t.Helper()
	apiErr := e2e.OpenAIError(t, err)
	assert.Equal(t, http.StatusBadRequest, apiErr.StatusCode)
	assert.Equal(t, "invalid_request_error", apiErr.Type)
	assert.Equal(t, code, apiErr.Code)
	assert.Equal(t, param, apiErr.Param)
	assert.Equal(t, message, apiErr.Message)
	assert.Equal(t, 1, sess.Pending(), "a refused request uses no reply")
	last, ok := sess.Journal().Last()
	require.True(t, ok)
	assert.Equal(t, http.StatusBadRequest, last.Status)
}

// validationSession is a session with one reply, "ok", for any request.
func validationSession(t *testing.T, opts ...session.Option) (*session.Session, openai.Client) {
	t.Helper()
	sess := llmtest.NewServer(t).NewSession(t, opts...)
	sess.Chat("any").Responds("ok")
	return sess, e2e.ClientFor(sess, "k")
}

// Shared parameters with stream options, used for a call that does not
// stream, are refused as the real API refuses them; streaming they pass.
func TestValidateStreamOptionsNeedStream(t *testing.T) {
	t.Parallel()
	sess, client := validationSession(t)
	params := e2e.UserTurn("gpt-4.1-mini", "Hi")
	params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	_, err := client.Chat.Completions.New(t.Context(), params)
	requireRefused(t, sess, err, "", "stream_options", "The 'stream_options' parameter is only allowed when 'stream' is enabled.")

	acc, _ := e2e.ReadChatStream(t, client.Chat.Completions.NewStreaming(t.Context(), params))
	assert.Equal(t, "ok", acc.Choices[0].Message.Content)
}

// The Responses API refuses stream_options without stream the same way.
func TestValidateResponsesStreamOptionsNeedStream(t *testing.T) {
	t.Parallel()
	sess, client := validationSession(t)
	params := responses.ResponseNewParams{Model: "gpt-4.1-mini", Input: e2e.InputText("Hi"),
		StreamOptions: responses.ResponseNewParamsStreamOptions{IncludeObfuscation: openai.Bool(false)}}
	_, err := client.Responses.New(t.Context(), params)
	requireRefused(t, sess, err, "", "stream_options", "The 'stream_options' parameter is only allowed when 'stream' is enabled.")
}

// A top-level field the Chat Completions API does not know is refused in
// its words, without param or code; a nested one names its path.
func TestValidateChatUnknownParameters(t *testing.T) {
	t.Parallel()
	sess, client := validationSession(t)
	params := e2e.UserTurn("gpt-4.1-mini", "Hi")
	params.SetExtraFields(map[string]any{"temprature": 0.5})
	_, err := client.Chat.Completions.New(t.Context(), params)
	requireRefused(t, sess, err, "", "", "Unrecognized request argument supplied: temprature")

	r := e2e.Call(t, sess.HTTPClient(), http.MethodPost, sess.BaseURL()+"/chat/completions",
		`{"model":"gpt-4.1-mini","messages":[{"role":"user","content":"Hi","cache":true}]}`, e2e.SelectorOf(sess)...)
	code, _, param, message := r.APIError(t)
	assert.Equal(t, http.StatusBadRequest, r.Status)
	assert.Equal(t, "unknown_parameter", code)
	assert.Equal(t, "messages[0].cache", param)
	assert.Equal(t, "Unknown parameter: 'messages[0].cache'.", message)
	assert.Equal(t, 1, sess.Pending())

	// Everything openai-go sends is known: a full request passes.
	full := e2e.UserTurn("gpt-4.1-mini", "Hi")
	full.Temperature, full.TopP, full.PresencePenalty = openai.Float(0.5), openai.Float(0.9), openai.Float(0.1)
	full.Stop = openai.ChatCompletionNewParamsStopUnion{OfString: openai.String("END")}
	full.LogitBias = map[string]int64{"50256": -100}
	got, err := client.Chat.Completions.New(t.Context(), full)
	require.NoError(t, err)
	assert.Equal(t, "ok", got.Choices[0].Message.Content)
}

// A chat answer's message sent back whole, as the openai Node and Python
// SDKs' users append it (annotations, refusal and all), is accepted.
func TestValidateChatAnswerSentBackWhole(t *testing.T) {
	t.Parallel()
	sess, client := validationSession(t)
	sess.Chat("second").Responds("again")
	got, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4.1-mini", "Hi"))
	require.NoError(t, err)
	message := got.Choices[0].Message.RawJSON()
	require.Contains(t, message, `"annotations"`)
	r := e2e.Call(t, sess.HTTPClient(), http.MethodPost, sess.BaseURL()+"/chat/completions",
		`{"model":"gpt-4.1-mini","messages":[{"role":"user","content":"Hi"},`+message+`,{"role":"user","content":"More"}]}`,
		e2e.SelectorOf(sess)...)
	assert.Equal(t, http.StatusOK, r.Status, string(r.Body))
}

// The Responses API refuses unknown fields at the top level and nested,
// with code unknown_parameter and the field's path, and names the new
// place of Chat Completions parameters it has moved.
func TestValidateResponsesUnknownParameters(t *testing.T) {
	t.Parallel()
	sess, client := validationSession(t)
	for _, c := range []struct {
		extra map[string]any
		input string
		param string
	}{
		{extra: map[string]any{"temprature": 0.5}, param: "temprature"},
		{input: `[{"role":"user","content":"Hi"},{"role":"user","content":"Hi","cache":true}]`, param: "input[1].cache"},
		{input: `[{"role":"user","content":[{"type":"input_text","text":"Hi","bold":true}]}]`, param: "input[0].content[0].bold"},
		{extra: map[string]any{"tools": []any{map[string]any{"type": "function", "name": "f", "parameters": map[string]any{"type": "object"}, "strictt": true}}}, param: "tools[0].strictt"},
		{extra: map[string]any{"text": map[string]any{"format": map[string]any{"type": "text", "foo": 1}}}, param: "text.format.foo"},
	} {
		body := `{"model":"gpt-4.1-mini","input":"Hi"}`
		if c.input != "" {
			body = `{"model":"gpt-4.1-mini","input":` + c.input + `}`
		}
		params := responses.ResponseNewParams{Model: "gpt-4.1-mini", Input: e2e.InputText("Hi")}
		if c.extra != nil {
			params.SetExtraFields(c.extra)
			_, err := client.Responses.New(t.Context(), params)
			requireRefused(t, sess, err, "unknown_parameter", c.param, "Unknown parameter: '"+c.param+"'.")
			continue
		}
		r := e2e.Call(t, sess.HTTPClient(), http.MethodPost, sess.BaseURL()+"/responses", body, e2e.SelectorOf(sess)...)
		code, _, param, message := r.APIError(t)
		assert.Equal(t, http.StatusBadRequest, r.Status, body)
		assert.Equal(t, "unknown_parameter", code, body)
		assert.Equal(t, c.param, param)
		assert.Equal(t, "Unknown parameter: '"+c.param+"'.", message)
	}

	params := responses.ResponseNewParams{Model: "gpt-4.1-mini", Input: e2e.InputText("Hi")}
	params.SetExtraFields(map[string]any{"reasoning_effort": "low"})
	_, err := client.Responses.New(t.Context(), params)
	requireRefused(t, sess, err, "unsupported_parameter", "",
		"Unsupported parameter: 'reasoning_effort'. In the Responses API, this parameter has moved to 'reasoning.effort'. Try again with the new parameter. See the API documentation for more information: https://platform.openai.com/docs/api-reference/responses/create.")
}

// A session that allows unknown parameters answers requests that carry
// them, for clients newer than the server's lists.
func TestValidateAllowUnknownParameters(t *testing.T) {
	t.Parallel()
	sess, client := validationSession(t, session.AllowUnknownParameters())
	sess.Chat("again").Responds("ok")
	params := e2e.UserTurn("gpt-4.1-mini", "Hi")
	params.SetExtraFields(map[string]any{"brand_new_knob": 3})
	got, err := client.Chat.Completions.New(t.Context(), params)
	require.NoError(t, err)
	assert.Equal(t, "ok", got.Choices[0].Message.Content)

	rparams := responses.ResponseNewParams{Model: "gpt-4.1-mini", Input: e2e.InputText("Hi")}
	rparams.SetExtraFields(map[string]any{"brand_new_knob": 3})
	resp, err := client.Responses.New(t.Context(), rparams)
	require.NoError(t, err)
	assert.Equal(t, "ok", resp.OutputText())
}

// The admin API's allow_unknown_parameters does what the option does.
func TestValidateAllowUnknownParametersOverHTTP(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	for allow, want := range map[string]int{"true": http.StatusOK, "false": http.StatusBadRequest} {
		c := e2e.CreateOverHTTP(t, srv, `{"allow_unknown_parameters":`+allow+`,"scenarios":[{"name":"g","match":{},"replies":[{"text":"ok"}]}]}`)
		sel := []string{session.HeaderSession, c.ID, session.HeaderSessionKey, c.Key}
		r := e2e.Call(t, srv.Client(), http.MethodPost, srv.URL()+"/v1/chat/completions",
			`{"model":"gpt-4.1-mini","messages":[{"role":"user","content":"Hi"}],"brand_new_knob":1}`, e2e.Join(sel, e2e.Bearer("k"))...)
		assert.Equal(t, want, r.Status, "allow_unknown_parameters %s: %s", allow, r.Body)
	}
}

// A body that is no valid JSON is reported as that, whatever unknown or
// moved fields come before the error.
func TestValidateInvalidJSONBeforeUnknownFields(t *testing.T) {
	t.Parallel()
	sess, _ := validationSession(t)
	headers := e2e.Join(e2e.SelectorOf(sess), e2e.Bearer("k"))
	for path, body := range map[string]string{
		"/chat/completions": `{"foo":1,"model":`,
		"/responses":        `{"messages":[],"foo":1,"model":`,
	} {
		r := e2e.Call(t, sess.HTTPClient(), "POST", sess.BaseURL()+path, body, headers...)
		require.Equal(t, 400, r.Status, path)
		_, _, _, msg := r.APIError(t)
		assert.Contains(t, msg, "We could not parse the JSON body of your request.", path)
	}
}

// Metadata has the same bounds on every API: 16 pairs, keys of 64
// characters, values of 512.
func TestValidateMetadataBounds(t *testing.T) {
	t.Parallel()
	sess, client := validationSession(t)
	many := shared.Metadata{}
	for i := range 17 {
		many[fmt.Sprintf("k%d", i)] = "v"
	}
	p := e2e.UserTurn("gpt-4.1-mini", "Hi")
	p.Metadata = many
	_, err := client.Chat.Completions.New(t.Context(), p)
	requireRefused(t, sess, err, "object_above_max_properties", "metadata",
		"Invalid 'metadata': too many properties. Expected an object with at most 16 properties, but got an object with 17 properties instead.")
	_, err = client.Responses.New(t.Context(), responses.ResponseNewParams{Model: "gpt-4.1-mini",
		Metadata: shared.Metadata{"k": strings.Repeat("v", 513)},
		Input:    responses.ResponseNewParamsInputUnion{OfString: openai.String("Hi")}})
	requireRefused(t, sess, err, "string_above_max_length", "metadata.k",
		"Invalid 'metadata.k': string too long. Expected a string with maximum length 512, but got a string with length 513 instead.")
}
