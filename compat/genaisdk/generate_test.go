package genaisdk_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/stretchr/testify/require"
	"google.golang.org/genai"
)

// One scripted reply answers generateContent, and the journal records it
// as a Gemini request with its usage.
func TestGenerateText(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("hello").Responds("Hello from the fake.")
	c := client(t, sess)
	resp, err := c.Models.GenerateContent(context.Background(), model, genai.Text("Say hello"),
		&genai.GenerateContentConfig{SystemInstruction: genai.NewContentFromText("Be brief.", genai.RoleUser)})
	require.NoError(t, err)
	require.Equal(t, "Hello from the fake.", resp.Text())
	require.Len(t, resp.Candidates, 1)
	require.Equal(t, genai.FinishReasonStop, resp.Candidates[0].FinishReason)
	require.NotEmpty(t, resp.ResponseID)
	require.Equal(t, model, resp.ModelVersion)
	u := resp.UsageMetadata
	require.Positive(t, u.PromptTokenCount)
	require.Positive(t, u.CandidatesTokenCount)
	require.Equal(t, u.PromptTokenCount+u.CandidatesTokenCount+u.ThoughtsTokenCount, u.TotalTokenCount)

	entries := sess.Journal().Entries()
	require.Len(t, entries, 1)
	e := entries[0]
	require.Equal(t, "gemini", e.Provider)
	require.Equal(t, "generate_content", e.Endpoint)
	require.Equal(t, model, e.Model)
	require.Equal(t, "Say hello", e.UserText)
	require.Equal(t, "Be brief.", e.Request.System)
	require.Equal(t, 200, e.Status)
	require.Equal(t, "[redacted]", e.Headers["x-goog-api-key"])
	require.NotContains(t, e.Body, "test-key")
}

// A stream joins to the scripted text, ends with its finish, and reports
// the final usage on its last chunk.
func TestGenerateStream(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	text := "The quick brown fox jumps over the lazy dog, again and again."
	sess.Chat("s").Responds(text)
	c := client(t, sess)
	var b strings.Builder
	var last *genai.GenerateContentResponse
	chunks := 0
	for resp, err := range c.Models.GenerateContentStream(context.Background(), model, genai.Text("go"), nil) {
		require.NoError(t, err)
		b.WriteString(resp.Text())
		last = resp
		chunks++
	}
	require.Equal(t, text, b.String())
	require.Greater(t, chunks, 1)
	require.Equal(t, genai.FinishReasonStop, last.Candidates[0].FinishReason)
	require.Positive(t, last.UsageMetadata.CandidatesTokenCount)
	require.True(t, sess.Journal().Entries()[0].Stream)
}

// Two parallel calls come back in one candidate; the caller's function
// responses, without ids, reach the journal as the results of those
// calls, and the next reply answers them.
func TestFunctionCallLoop(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("tools").Reply(scenario.Reply{ToolCalls: []scenario.ToolCall{
		{Name: "get_weather", Arguments: `{"city":"Paris"}`},
		{Name: "get_time", Arguments: `{"tz":"CET"}`},
	}}).Then("Sunny at noon.")
	c := client(t, sess)
	cfg := &genai.GenerateContentConfig{Tools: []*genai.Tool{{FunctionDeclarations: []*genai.FunctionDeclaration{
		{Name: "get_weather", Parameters: &genai.Schema{Type: genai.TypeObject, Properties: map[string]*genai.Schema{"city": {Type: genai.TypeString}}}},
		{Name: "get_time", ParametersJsonSchema: map[string]any{"type": "object"}},
	}}}}
	history := genai.Text("Weather and time in Paris?")
	resp, err := c.Models.GenerateContent(context.Background(), model, history, cfg)
	require.NoError(t, err)
	calls := resp.FunctionCalls()
	require.Len(t, calls, 2)
	require.Equal(t, "get_weather", calls[0].Name)
	require.Equal(t, map[string]any{"city": "Paris"}, calls[0].Args)
	require.Equal(t, genai.FinishReasonStop, resp.Candidates[0].FinishReason)

	history = append(history, resp.Candidates[0].Content,
		genai.NewContentFromParts([]*genai.Part{
			genai.NewPartFromFunctionResponse("get_weather", map[string]any{"output": "sunny"}),
			genai.NewPartFromFunctionResponse("get_time", map[string]any{"output": "12:00"}),
		}, genai.RoleUser))
	resp, err = c.Models.GenerateContent(context.Background(), model, history, cfg)
	require.NoError(t, err)
	require.Equal(t, "Sunny at noon.", resp.Text())

	e := sess.Journal().Entries()[1]
	require.Len(t, e.ToolResults, 2)
	require.Equal(t, "get_weather", e.ToolResults[0].Name)
	require.Equal(t, `{"output":"sunny"}`, e.ToolResults[0].Content)
	require.Equal(t, "get_time", e.ToolResults[1].Name)
	require.Len(t, sess.Journal().Entries()[0].ToolCalls, 2)
}

// A chat replays its history; the second turn is answered by the
// scenario's next reply.
func TestChatSendMessage(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("chat").Responds("First.").Then("Second.")
	c := client(t, sess)
	chat, err := c.Chats.Create(context.Background(), model, nil, nil)
	require.NoError(t, err)
	r1, err := chat.SendMessage(context.Background(), genai.Part{Text: "one"})
	require.NoError(t, err)
	require.Equal(t, "First.", r1.Text())
	r2, err := chat.SendMessage(context.Background(), genai.Part{Text: "two"})
	require.NoError(t, err)
	require.Equal(t, "Second.", r2.Text())
	e := sess.Journal().Entries()[1]
	require.Len(t, e.Request.Messages, 3)
}

// Thinking shows as thought parts with a standard-base64 signature, and
// counts in thoughtsTokenCount, when includeThoughts asks; without it the
// thoughts are counted but not shown.
func TestThinking(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("think").Reply(scenario.Think("Let me think about it.", "42")).Times(2)
	c := client(t, sess)
	resp, err := c.Models.GenerateContent(context.Background(), model, genai.Text("q"),
		&genai.GenerateContentConfig{ThinkingConfig: &genai.ThinkingConfig{IncludeThoughts: true}})
	require.NoError(t, err)
	parts := resp.Candidates[0].Content.Parts
	require.True(t, parts[0].Thought)
	require.Equal(t, "Let me think about it.", parts[0].Text)
	require.NotEmpty(t, parts[1].ThoughtSignature)
	require.Equal(t, "42", resp.Text())
	require.Positive(t, resp.UsageMetadata.ThoughtsTokenCount)

	resp, err = c.Models.GenerateContent(context.Background(), model, genai.Text("q"), nil)
	require.NoError(t, err)
	for _, p := range resp.Candidates[0].Content.Parts {
		require.False(t, p.Thought)
	}
	require.Positive(t, resp.UsageMetadata.ThoughtsTokenCount)
}

// Structured output honours responseSchema, and the reply reaches the
// caller as its JSON.
func TestStructuredOutput(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("json").RespondsJSON(map[string]any{"name": "Ada", "age": 36})
	c := client(t, sess)
	resp, err := c.Models.GenerateContent(context.Background(), model, genai.Text("who"), &genai.GenerateContentConfig{
		ResponseMIMEType: "application/json",
		ResponseSchema: &genai.Schema{Type: genai.TypeObject, Required: []string{"name", "age"}, Properties: map[string]*genai.Schema{
			"name": {Type: genai.TypeString}, "age": {Type: genai.TypeInteger}}},
	})
	require.NoError(t, err)
	require.JSONEq(t, `{"name":"Ada","age":36}`, resp.Text())
	e := sess.Journal().Entries()[0]
	require.True(t, e.JSON)
	require.Empty(t, e.SchemaErrors)
}

// candidateCount asks for several candidates, each with its index;
// maxOutputTokens cuts the answer with MAX_TOKENS; a refusal is a SAFETY
// finish with its ratings and no content.
func TestCandidatesLimitsAndRefusal(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("c").Responds("one two three four five six seven eight nine ten").Times(2).Then("").Reply(scenario.Refuse("no"))
	c := client(t, sess)
	resp, err := c.Models.GenerateContent(context.Background(), model, genai.Text("x"), &genai.GenerateContentConfig{CandidateCount: 2})
	require.NoError(t, err)
	require.Len(t, resp.Candidates, 2)
	require.Equal(t, int32(1), resp.Candidates[1].Index)

	resp, err = c.Models.GenerateContent(context.Background(), model, genai.Text("x"), &genai.GenerateContentConfig{MaxOutputTokens: 3})
	require.NoError(t, err)
	require.Equal(t, genai.FinishReasonMaxTokens, resp.Candidates[0].FinishReason)
	require.Equal(t, int32(3), resp.UsageMetadata.CandidatesTokenCount)

	_, err = c.Models.GenerateContent(context.Background(), model, genai.Text("x"), nil)
	require.NoError(t, err)
	resp, err = c.Models.GenerateContent(context.Background(), model, genai.Text("x"), nil)
	require.NoError(t, err)
	require.Equal(t, genai.FinishReasonSafety, resp.Candidates[0].FinishReason)
	require.Nil(t, resp.Candidates[0].Content)
	require.NotEmpty(t, resp.Candidates[0].SafetyRatings)
	require.Equal(t, "", resp.Text())
}

// apiError is err as genai returns it: an APIError by value.
func apiError(t *testing.T, err error) genai.APIError {
	t.Helper()
	var e genai.APIError
	require.True(t, errors.As(err, &e), "not a genai.APIError: %v", err)
	return e
}

// The bytes on the wire avoid the traps genai falls into silently: no
// continuationToken (which would make the SDK send more requests), no
// snake_case key (which it drops), and a stream of blank-line separated
// data: events with no terminator, its finish on the last.
func TestRawWireAvoidsSilentTraps(t *testing.T) {
	t.Parallel()
	sess := newSession(t)
	sess.Chat("w").Responds("Some words to stream, in a few chunks.").Repeat()
	body := `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`
	for _, method := range []string{"generateContent", "streamGenerateContent?alt=sse"} {
		req, err := http.NewRequest(http.MethodPost, sess.GeminiBaseURL()+"/v1/models/"+model+":"+method, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		res, err := sess.HTTPClient().Do(req)
		require.NoError(t, err)
		raw, err := io.ReadAll(res.Body)
		res.Body.Close()
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, res.StatusCode, "%s", raw)
		text := string(raw)
		require.NotContains(t, text, "continuationToken", method)
		for _, snake := range []string{"finish_reason", "usage_metadata", "function_call", "model_version", "response_id"} {
			require.NotContains(t, text, snake, method)
		}
		// genai drops these on the Gemini backend, so no test could read them.
		require.NotContains(t, text, "createTime", method)
		require.NotContains(t, text, "finishMessage", method)
		if method == "generateContent" {
			continue
		}
		require.True(t, strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream"))
		events := strings.Split(strings.TrimSuffix(text, "\n\n"), "\n\n")
		require.Greater(t, len(events), 1)
		for i, ev := range events {
			require.True(t, strings.HasPrefix(ev, "data: "), "event %d: %q", i, ev)
			require.NotContains(t, ev, "\n", "event %d is one data: line", i)
			require.Equal(t, i == len(events)-1, strings.Contains(ev, `"finishReason"`), "event %d", i)
		}
		require.NotContains(t, text, "[DONE]")
	}
}
