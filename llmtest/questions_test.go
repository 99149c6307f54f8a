package llmtest_test

import (
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// weatherAgent is the code under test of these tests: a two-turn agent
// that offers a weather tool on its first turn, runs the tool call the
// model asks for, and sends every request with its system prompt and the
// given prompt_cache_keys, one per request ("" sends none). It returns the
// usage the SDK reported, summed.
func weatherAgent(t *testing.T, client openai.Client, keys ...string) (prompt, completion int64) {
	t.Helper()
	const system = "You are a weather agent."
	tools := []openai.ChatCompletionToolUnionParam{
		openai.ChatCompletionFunctionTool(openai.FunctionDefinitionParam{Name: "get_weather"}),
		openai.ChatCompletionFunctionTool(openai.FunctionDefinitionParam{Name: "get_time"}),
	}
	history := []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(system), openai.UserMessage("Weather in Paris?")}
	send := func(i int, offer bool) openai.ChatCompletionMessage {
		params := openai.ChatCompletionNewParams{Model: "gpt-4.1-mini", Messages: history}
		if keys[i] != "" {
			params.PromptCacheKey = openai.String(keys[i])
		}
		if offer {
			params.Tools = tools
		}
		out, err := client.Chat.Completions.New(t.Context(), params)
		require.NoError(t, err)
		prompt, completion = prompt+out.Usage.PromptTokens, completion+out.Usage.CompletionTokens
		return out.Choices[0].Message
	}
	call := send(0, true)
	require.Len(t, call.ToolCalls, 1)
	history = append(history, call.ToParam(), openai.ToolMessage("sunny", call.ToolCalls[0].ID))
	answer := send(1, true)
	history = append(history, answer.ToParam(), openai.UserMessage("Thanks!"))
	send(2, false)
	return prompt, completion
}

// scriptWeather scripts the replies weatherAgent needs.
func scriptWeather(sess *session.Session) {
	sess.Chat("weather").When(scenario.Not(scenario.HasToolResult("get_weather"))).When(scenario.Turn(1)).
		CallsTool("get_weather", `{"city":"Paris"}`)
	sess.Chat("answer").When(scenario.HasToolResult("get_weather")).When(scenario.Turn(1)).Responds("Sunny in Paris.")
	sess.Chat("bye").When(scenario.Turn(2)).Responds("You are welcome.")
}

// Every turn of the conversation carried the same key: the check passes,
// and the journal lists the keys, whose diff require prints on failure.
func TestCheckSameCacheKeyPasses(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	scriptWeather(sess)
	weatherAgent(t, llmtest.OpenAIClient(sess), "agent-7", "agent-7", "agent-7")

	assert.True(t, llmtest.CheckSameCacheKey(t, sess))
	last, _ := sess.Journal().Last()
	assert.Equal(t, []string{"agent-7", "agent-7", "agent-7"}, sess.Journal().PromptCacheKeys(last.Conversation))
	assert.Equal(t, []string{"agent-7", "agent-7", "agent-7"}, sess.Journal().PromptCacheKeys(""))
}

// An agent that drops the key on one turn and changes it on another fails
// the check, which names both entries and the key the others carried.
func TestCheckSameCacheKeyNamesTheOffendingEntries(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	scriptWeather(sess)
	weatherAgent(t, llmtest.OpenAIClient(sess), "agent-7", "", "agent-8")

	fake := &recordingTB{}
	assert.False(t, llmtest.CheckSameCacheKey(fake, sess))
	msgs := fake.messages()
	require.Len(t, msgs, 1)
	assert.Contains(t, msgs[0], `carried prompt_cache_key "agent-7", want it on every turn`)
	assert.Contains(t, msgs[0], `#2 /v1/chat/completions turn 1 prompt_cache_key ""`)
	assert.Contains(t, msgs[0], `#3 /v1/chat/completions turn 2 prompt_cache_key "agent-8"`)
	assert.NotContains(t, msgs[0], "#1 ")
}

// A conversation that never carried a key fails too.
func TestCheckSameCacheKeyWantsAKey(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	scriptWeather(sess)
	weatherAgent(t, llmtest.OpenAIClient(sess), "", "", "")

	fake := &recordingTB{}
	assert.False(t, llmtest.CheckSameCacheKey(fake, sess))
	msgs := fake.messages()
	require.Len(t, msgs, 1)
	assert.Contains(t, msgs[0], "carried no prompt_cache_key")
	assert.Equal(t, 3, strings.Count(msgs[0], `prompt_cache_key ""`), msgs[0])
}

// The journal's total is what the SDK reported, summed over the turns.
func TestTotalTokensThroughOpenAI(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	scriptWeather(sess)
	prompt, completion := weatherAgent(t, llmtest.OpenAIClient(sess), "k", "k", "k")

	total := sess.Journal().TotalTokens()
	assert.Equal(t, int(prompt), total.Input)
	assert.Equal(t, int(completion), total.Output)
	assert.Equal(t, int(prompt+completion), total.Total())
	assert.Positive(t, total.Input)
}

// The system prompt and the tools offered at each turn, as the agent sent
// them (Request.System and Request.Tools).
func TestSystemPromptsAndToolsOfferedThroughOpenAI(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	scriptWeather(sess)
	weatherAgent(t, llmtest.OpenAIClient(sess), "k", "k", "k")

	j := sess.Journal()
	require.Equal(t, []string{"You are a weather agent."}, j.SystemPrompts())
	last, _ := j.Last()
	assert.Equal(t, []string{"get_weather", "get_time"}, j.ToolsOffered(last.Conversation, 1))
	assert.Nil(t, j.ToolsOffered(last.Conversation, 2), "the last turn offers no tool")
	assert.Equal(t, []string{"get_weather", "get_time"}, j.ToolsOffered("", 1))
}

// openai-go retries two 429s by itself: two retries of one request, which
// CheckMaxRetries lets through at 2 and reports at 1, naming the attempt.
func TestCheckMaxRetriesThroughOpenAI(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("busy").Reply(scenario.RateLimited(), scenario.RateLimited()).Responds("finally")

	out, err := hello(t, llmtest.OpenAIClient(sess))
	require.NoError(t, err)
	assert.Equal(t, "finally", out.Choices[0].Message.Content)
	require.Equal(t, 3, sess.Journal().Len())
	assert.Equal(t, 2, sess.Journal().MaxRetries())
	assert.True(t, llmtest.CheckMaxRetries(t, sess, 2))

	fake := &recordingTB{}
	assert.False(t, llmtest.CheckMaxRetries(fake, sess, 1))
	msgs := fake.messages()
	require.Len(t, msgs, 1)
	assert.Contains(t, msgs[0], "a request was retried 2 time(s), want at most 1")
	assert.Contains(t, msgs[0], `#3 POST /v1/chat/completions -> 200 model "gpt-4.1-mini" user "Hello"`)
	assert.NotContains(t, msgs[0], "#2 ")
}
