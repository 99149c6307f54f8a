package llmtest_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/journal"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chatTools offers get_weather and get_time.
func chatTools() []openai.ChatCompletionToolUnionParam {
	return []openai.ChatCompletionToolUnionParam{
		openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{Name: "get_weather"}),
		openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{Name: "get_time"}),
	}
}

// responsesTools offers get_weather and get_time.
func responsesTools() []responses.ToolUnionParam {
	return []responses.ToolUnionParam{
		{OfFunction: &responses.FunctionToolParam{Name: "get_weather", Parameters: map[string]any{"type": "object"}}},
		{OfFunction: &responses.FunctionToolParam{Name: "get_time", Parameters: map[string]any{"type": "object"}}},
	}
}

func chatWith(tools []openai.ChatCompletionToolUnionParam, choice openai.ChatCompletionToolChoiceOptionUnionParam, parallel *bool) openai.ChatCompletionNewParams {
	p := e2e.UserTurn("gpt-4o-mini", "Weather?")
	p.Tools, p.ToolChoice = tools, choice
	if parallel != nil {
		p.ParallelToolCalls = openai.Bool(*parallel)
	}
	return p
}

func responsesWith(choice responses.ResponseNewParamsToolChoiceUnion, parallel *bool) responses.ResponseNewParams {
	p := responses.ResponseNewParams{Model: "gpt-4o-mini", Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("Weather?")},
		Tools: responsesTools(), ToolChoice: choice}
	if parallel != nil {
		p.ParallelToolCalls = openai.Bool(*parallel)
	}
	return p
}

var (
	weatherCall = scenario.ToolCall{Name: "get_weather", Arguments: `{"city":"Paris"}`}
	timeCall    = scenario.ToolCall{Name: "get_time", Arguments: `{}`}
)

func choiceMode(mode string) openai.ChatCompletionToolChoiceOptionUnionParam {
	return openai.ChatCompletionToolChoiceOptionUnionParam{OfAuto: openai.String(mode)}
}

func forceChat(name string) openai.ChatCompletionToolChoiceOptionUnionParam {
	return openai.ToolChoiceOptionFunctionToolChoice(openai.ChatCompletionNamedToolChoiceFunctionParam{Name: name})
}

func forceResponses(name string) responses.ResponseNewParamsToolChoiceUnion {
	return responses.ResponseNewParamsToolChoiceUnion{OfFunctionTool: &responses.ToolChoiceFunctionParam{Name: name}}
}

// contradictionCase is one request with a reply, and the contradiction
// it should record ("" for none).
type contradictionCase struct {
	name  string
	reply scenario.Reply
	// call sends the request and returns the tool calls and the text the
	// client got.
	call func(t *testing.T, client openai.Client) (calls []string, text string)
	want string
}

func chatCall(p openai.ChatCompletionNewParams) func(*testing.T, openai.Client) ([]string, string) {
	return func(t *testing.T, client openai.Client) ([]string, string) {
		t.Helper()
		resp, err := client.Chat.Completions.New(t.Context(), p)
		require.NoError(t, err)
		var calls []string
		for _, c := range resp.Choices[0].Message.ToolCalls {
			calls = append(calls, c.Function.Name)
		}
		return calls, resp.Choices[0].Message.Content
	}
}

func responsesCall(p responses.ResponseNewParams) func(*testing.T, openai.Client) ([]string, string) {
	return func(t *testing.T, client openai.Client) ([]string, string) {
		t.Helper()
		resp, err := client.Responses.New(t.Context(), p)
		require.NoError(t, err)
		var calls []string
		for _, o := range resp.Output {
			if o.Type == "function_call" {
				calls = append(calls, o.Name)
			}
		}
		return calls, resp.OutputText()
	}
}

var contradictionCases = []contradictionCase{
	{"chat: a call under tool_choice none", scenario.CallTools(weatherCall),
		chatCall(chatWith(chatTools(), choiceMode("none"), nil)),
		`the reply calls get_weather, but the request's tool_choice is "none": it allows no tool call`},
	{"chat: text under tool_choice required", scenario.Text("Sunny."),
		chatCall(chatWith(chatTools(), choiceMode("required"), nil)),
		`the reply answers text without a tool call, but the request's tool_choice is "required": it allows only tool calls`},
	{"chat: text under a forced function", scenario.Text("Sunny."),
		chatCall(chatWith(chatTools(), forceChat("get_weather"), nil)),
		"the reply answers text without a tool call, but the request's tool_choice forces a call to get_weather"},
	{"chat: another function than the forced one", scenario.CallTools(timeCall),
		chatCall(chatWith(chatTools(), forceChat("get_weather"), nil)),
		"the reply calls get_time, but the request's tool_choice forces a call to get_weather"},
	{"chat: a tool never offered", scenario.CallTools(scenario.ToolCall{Name: "delete_all", Arguments: `{}`}),
		chatCall(chatWith(chatTools(), openai.ChatCompletionToolChoiceOptionUnionParam{}, nil)),
		"the reply calls delete_all, which the request does not offer (it offers get_weather, get_time)"},
	{"chat: a call without tools", scenario.CallTools(weatherCall),
		chatCall(e2e.UserTurn("gpt-4o-mini", "Weather?")),
		"the reply calls get_weather, which the request does not offer (it offers no tools)"},
	{"chat: two calls with parallel_tool_calls false", scenario.CallTools(weatherCall, timeCall),
		chatCall(chatWith(chatTools(), openai.ChatCompletionToolChoiceOptionUnionParam{}, new(false))),
		"the reply makes 2 tool calls (get_weather, get_time), but the request's parallel_tool_calls is false: it allows one at most"},
	{"responses: text under a forced function", scenario.Text("Sunny."),
		responsesCall(responsesWith(forceResponses("get_weather"), nil)),
		"the reply answers text without a tool call, but the request's tool_choice forces a call to get_weather"},
	{"responses: a call under tool_choice none", scenario.CallTools(weatherCall),
		responsesCall(responsesWith(responses.ResponseNewParamsToolChoiceUnion{OfToolChoiceMode: openai.Opt(responses.ToolChoiceOptionsNone)}, nil)),
		`the reply calls get_weather, but the request's tool_choice is "none": it allows no tool call`},
	{"responses: two calls with parallel_tool_calls false", scenario.CallTools(weatherCall, timeCall),
		responsesCall(responsesWith(responses.ResponseNewParamsToolChoiceUnion{}, new(false))),
		"the reply makes 2 tool calls (get_weather, get_time), but the request's parallel_tool_calls is false: it allows one at most"},

	{"chat: a call under auto fits", scenario.CallTools(weatherCall),
		chatCall(chatWith(chatTools(), choiceMode("auto"), nil)), ""},
	{"chat: a call under required fits", scenario.CallTools(timeCall),
		chatCall(chatWith(chatTools(), choiceMode("required"), nil)), ""},
	{"chat: the forced call fits", scenario.CallTools(weatherCall),
		chatCall(chatWith(chatTools(), forceChat("get_weather"), new(false))), ""},
	{"chat: two calls with parallel_tool_calls true fit", scenario.CallTools(weatherCall, timeCall),
		chatCall(chatWith(chatTools(), openai.ChatCompletionToolChoiceOptionUnionParam{}, new(true))), ""},
	{"chat: text under none fits", scenario.Text("Sunny."),
		chatCall(chatWith(chatTools(), choiceMode("none"), nil)), ""},
	{"responses: the forced call fits", scenario.CallTools(weatherCall),
		responsesCall(responsesWith(forceResponses("get_weather"), new(false))), ""},
}

// A reply the real model could not give to its request is still served as
// scripted, but recorded in the journal entry, listed in the report and
// in GET /admin-api/assertions, and fails CheckAssertions with what the
// script did and what the request allowed; a reply that fits records
// nothing.
func TestRepliesThatContradictTheirRequest(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	for _, tc := range contradictionCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sess := srv.NewSession(t)
			sess.Chat("weather").Reply(tc.reply)
			client := e2e.ClientFor(sess, "k")

			calls, text := tc.call(t, client)
			var scripted []string
			for _, c := range tc.reply.ToolCalls {
				scripted = append(scripted, c.Name)
			}
			assert.Equal(t, scripted, calls, "the reply is served as scripted")
			assert.Equal(t, tc.reply.Text, text)

			entry := e2e.JournalOf(t, sess, 1)[0]
			r := sess.Assertions()
			rec := &recordingTB{}
			clean := llmtest.CheckAssertions(rec, sess)
			if tc.want == "" {
				assert.Empty(t, entry.Contradictions)
				assert.Zero(t, r.ContradictionTotal)
				assert.Empty(t, r.Contradictions)
				assert.True(t, clean, "CheckAssertions reported %q", rec.messages())
				return
			}
			assert.Equal(t, []string{tc.want}, entry.Contradictions)
			assert.Equal(t, 1, r.ContradictionTotal)
			require.Len(t, r.Contradictions, 1)
			assert.Equal(t, entry.Seq, r.Contradictions[0].Seq)
			assert.Equal(t, []string{tc.want}, r.Contradictions[0].Contradictions)
			assert.False(t, r.Clean())
			assert.False(t, clean)
			msgs := rec.messages()
			require.Len(t, msgs, 1)
			assert.Contains(t, msgs[0], "contradict their request")
			assert.Contains(t, msgs[0], `scenario "weather"`)
			assert.Contains(t, msgs[0], tc.want)

			// The admin API lists it too.
			raw := e2e.Call(t, srv.Client(), http.MethodGet, sess.Endpoint()+"/admin-api/assertions", "", e2e.SelectorOf(sess)...)
			require.Equal(t, http.StatusOK, raw.Status)
			var body struct {
				Contradictions     []journal.Entry `json:"contradictions"`
				ContradictionTotal int             `json:"contradiction_total"`
			}
			require.NoError(t, json.Unmarshal(raw.Body, &body))
			assert.Equal(t, 1, body.ContradictionTotal)
			require.Len(t, body.Contradictions, 1)
			assert.Equal(t, []string{tc.want}, body.Contradictions[0].Contradictions)
		})
	}
}

// Strict mode fails a test whose script contradicts its request.
func TestStrictModeFailsOnAContradiction(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.WithStrict())
	fake := &helperTB{}
	sess := srv.NewSession(fake)
	sess.Chat("weather").CallsTool("get_weather", `{"city":"Paris"}`)
	client := e2e.ClientFor(sess, "k")
	_, err := client.Chat.Completions.New(t.Context(), chatWith(chatTools(), choiceMode("none"), nil))
	require.NoError(t, err)
	fake.runCleanups()
	require.Len(t, fake.errors, 1, "strict cleanup reported %q", fake.errors)
	assert.Contains(t, fake.errors[0], `tool_choice is "none"`)
	assert.Contains(t, fake.errors[0], "get_weather")
}
