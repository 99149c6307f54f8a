package openai_test

import (
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// openai-go v3.98 lets a function_call_output name its tool (name,
// namespace, caller) instead of the call_id. Such an output answers the
// earliest unanswered call of that name, and matchers see that call's ID.
func TestValidateFunctionCallOutputByName(t *testing.T) {
	t.Parallel()
	sess := llmtest.NewServer(t).NewSession(t)
	sess.Chat("call").CallsTool("get_weather", `{"city":"Paris"}`)
	client := e2e.ClientFor(sess, "k")
	first, err := client.Responses.New(t.Context(), responses.ResponseNewParams{Model: "gpt-4.1-mini", Input: e2e.InputText("Weather in Paris?"),
		Tools: []responses.ToolUnionParam{{OfFunction: &responses.FunctionToolParam{Name: "get_weather",
			Parameters: map[string]any{"type": "object", "properties": map[string]any{}}}}}})
	require.NoError(t, err)
	require.Len(t, first.Output, 1)
	callID := first.Output[0].CallID
	require.NotEmpty(t, callID)
	sess.Chat("answer").When(scenario.Match{ToolResult: callID}).Responds("18C in Paris")

	output := func(name string) responses.ResponseNewParams {
		return responses.ResponseNewParams{Model: "gpt-4.1-mini", PreviousResponseID: openai.String(first.ID),
			Input: responses.ResponseNewParamsInputUnion{OfInputItemList: responses.ResponseInputParam{{
				OfFunctionCallOutput: &responses.ResponseInputItemFunctionCallOutputParam{
					Name:   openai.String(name),
					Caller: responses.ResponseInputItemFunctionCallOutputCallerUnionParam{OfDirect: &responses.ResponseInputItemFunctionCallOutputCallerDirectParam{}},
					Output: responses.ResponseInputItemFunctionCallOutputOutputUnionParam{OfString: openai.String("18C")},
				}}}}}
	}
	_, err = client.Responses.New(t.Context(), output("get_time"))
	apiErr := e2e.OpenAIError(t, err)
	assert.Equal(t, 400, apiErr.StatusCode)
	assert.Equal(t, "input", apiErr.Param)
	assert.Equal(t, "No tool call found for function call output with name get_time.", apiErr.Message)

	params := output("")
	params.Input.OfInputItemList[0].OfFunctionCallOutput.Name = param.Opt[string]{}
	_, err = client.Responses.New(t.Context(), params)
	apiErr = e2e.OpenAIError(t, err)
	assert.Equal(t, "missing_required_parameter", apiErr.Code)
	assert.Equal(t, "input[0].call_id", apiErr.Param)
	assert.Equal(t, 1, sess.Pending(), "refused outputs use no reply")

	second, err := client.Responses.New(t.Context(), output("get_weather"))
	require.NoError(t, err)
	assert.Equal(t, "18C in Paris", second.OutputText())

	entry, ok := sess.Journal().Last()
	require.True(t, ok)
	assert.Equal(t, "answer", entry.Scenario)
}
