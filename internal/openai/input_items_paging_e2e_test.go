package openai_test

import (
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
)

// input_items refuses a limit outside 1 to 100 as the other cursor lists
// do (a limit of 0 is no request for the default page), an order other
// than asc and desc, and an after that names no item of the response.
func TestInputItemsLimitBounds(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	sess.Chat("any").Responds("ok")
	client := e2e.ClientFor(sess, "k")
	resp, err := client.Responses.New(t.Context(), responses.ResponseNewParams{Model: "gpt-4.1-mini",
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("Hi")}})
	require.NoError(t, err)
	base := sess.BaseURL() + "/responses/" + resp.ID + "/input_items"
	headers := e2e.Join(e2e.SelectorOf(sess), e2e.Bearer("k"))
	for _, tt := range []struct {
		query, code, param string
		status             int
	}{
		{"?limit=0", "integer_below_min_value", "limit", 400},
		{"?limit=-1", "integer_below_min_value", "limit", 400},
		{"?limit=101", "integer_above_max_value", "limit", 400},
		{"?order=up", "invalid_value", "order", 400},
		{"?after=msg_99", "", "after", 400},
		{"?limit=100", "", "", 200},
		{"?order=asc&limit=1", "", "", 200},
		{"", "", "", 200},
	} {
		r := e2e.Call(t, srv.Client(), "GET", base+tt.query, "", headers...)
		require.Equal(t, tt.status, r.Status, "%s: %s", tt.query, r.Body)
		if tt.status == 400 {
			code, _, param, _ := r.APIError(t)
			assert.Equal(t, tt.code, code, tt.query)
			assert.Equal(t, tt.param, param, tt.query)
		}
	}
}
