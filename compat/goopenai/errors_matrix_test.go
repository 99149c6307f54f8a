package goopenai_test

import (
	"context"
	"errors"
	"strconv"
	"testing"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	goopenai "github.com/sashabaranov/go-openai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every HTTP error status the server scripts reaches go-openai as an
// *APIError with the status, OpenAI's type for it, the code and the
// message, streamed and not.
func TestGoOpenAIErrorStatusMatrix(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	for _, tc := range []struct {
		status int
		code   string
		typ    string
	}{
		{400, "invalid_value", "invalid_request_error"},
		{401, "invalid_api_key", "invalid_request_error"},
		{403, "unsupported_country_region_territory", "invalid_request_error"},
		{404, "model_not_found", "invalid_request_error"},
		{409, "conflict", "invalid_request_error"},
		{422, "unprocessable_entity", "invalid_request_error"},
		{429, "rate_limit_exceeded", "requests"},
		{500, "server_error", "server_error"},
		{502, "bad_gateway", "server_error"},
		{503, "overloaded", "server_error"},
		{504, "timeout", "server_error"},
		{529, "overloaded", "server_error"},
	} {
		t.Run(strconv.Itoa(tc.status), func(t *testing.T) {
			t.Parallel()
			sess := srv.NewSession(t)
			headers := map[string]string(nil)
			if tc.status == 429 {
				headers = map[string]string{"Retry-After": "20", "retry-after-ms": "20000"}
			}
			sess.Chat("fail").Reply(scenario.Reply{Error: &scenario.Error{Status: tc.status, Code: tc.code,
				Message: "scripted", Headers: headers}}).Times(2)
			client := goOpenAIClient(sess)
			for _, stream := range []bool{false, true} {
				_, err := goChat(context.Background(), client, stream)
				var apiErr *goopenai.APIError
				require.True(t, errors.As(err, &apiErr), "stream %t: %v (%T)", stream, err, err)
				assert.Equal(t, tc.status, apiErr.HTTPStatusCode)
				assert.Equal(t, tc.typ, apiErr.Type)
				assert.Equal(t, tc.code, apiErr.Code)
				assert.Equal(t, "scripted", apiErr.Message)
			}
			assert.Equal(t, map[string]int{"http_error": 2}, sess.Assertions().Faults)
		})
	}
}
