package anthropic

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/scenario"
)

func TestEnvelope(t *testing.T) {
	tests := []struct {
		name   string
		e      *apierr.Error
		status int
		body   string
	}{
		{"rate limit by kind", &apierr.Error{Kind: scenario.ErrorRateLimit}, 429,
			`{"type":"error","error":{"type":"rate_limit_error","message":"Rate limited"},"request_id":"req_1"}`},
		{"overloaded", &apierr.Error{Kind: scenario.ErrorOverloaded, Message: "busy"}, 529,
			`{"type":"error","error":{"type":"overloaded_error","message":"busy"},"request_id":"req_1"}`},
		{"server", &apierr.Error{Kind: scenario.ErrorServer}, 500,
			`{"type":"error","error":{"type":"api_error","message":"Internal server error"},"request_id":"req_1"}`},
		{"timeout", &apierr.Error{Kind: scenario.ErrorTimeout}, 504,
			`{"type":"error","error":{"type":"timeout_error","message":"Request timed out"},"request_id":"req_1"}`},
		{"status only", &apierr.Error{Status: 403, Message: "no"}, 403,
			`{"type":"error","error":{"type":"permission_error","message":"no"},"request_id":"req_1"}`},
		{"own type kept", &apierr.Error{Status: 400, Type: "overloaded_error", Message: "m"}, 400,
			`{"type":"error","error":{"type":"overloaded_error","message":"m"},"request_id":"req_1"}`},
		{"foreign type replaced", &apierr.Error{Status: 429, Type: "rate_limit_exceeded", Message: "m"}, 429,
			`{"type":"error","error":{"type":"rate_limit_error","message":"m"},"request_id":"req_1"}`},
		{"code as details", &apierr.Error{Status: 400, Code: "llm_test_server_no_scenario", Message: "none"}, 400,
			`{"type":"error","error":{"type":"invalid_request_error","message":"none","details":{"error_code":"llm_test_server_no_scenario"}},"request_id":"req_1"}`},
		{"unknown 4xx", &apierr.Error{Status: 418, Message: "tea"}, 418,
			`{"type":"error","error":{"type":"invalid_request_error","message":"tea"},"request_id":"req_1"}`},
		{"billing", &apierr.Error{Status: 402, Message: "pay"}, 402,
			`{"type":"error","error":{"type":"billing_error","message":"pay"},"request_id":"req_1"}`},
		{"too large", apierr.BodyTooLarge(10), 413,
			`{"type":"error","error":{"type":"request_too_large","message":"The request body exceeds the limit of 10 bytes.","details":{"error_code":"request_too_large"}},"request_id":"req_1"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := Envelope(tt.e, "req_1")
			assert.Equal(t, tt.status, status)
			assert.JSONEq(t, tt.body, marshal(t, body))
		})
	}
}

func TestAuth(t *testing.T) {
	e := AuthError(false)
	assert.Equal(t, 401, e.Status)
	assert.Equal(t, "authentication_error", e.Type)
	assert.Equal(t, "invalid x-api-key", e.Message)
	assert.Equal(t, "x-api-key header is required", AuthError(true).Message)

	for name, tt := range map[string]struct {
		h       http.Header
		key     string
		present bool
	}{
		"x-api-key":  {http.Header{"X-Api-Key": {"k1"}}, "k1", true},
		"bearer":     {http.Header{"Authorization": {"Bearer k2"}}, "k2", true},
		"both":       {http.Header{"X-Api-Key": {"k1"}, "Authorization": {"Bearer k2"}}, "k1", true},
		"not bearer": {http.Header{"Authorization": {"Basic x"}}, "Basic x", true},
		"empty key":  {http.Header{"X-Api-Key": {""}}, "", true},
		"none":       {http.Header{}, "", false},
	} {
		t.Run(name, func(t *testing.T) {
			k, ok := APIKey(tt.h)
			assert.Equal(t, tt.key, k)
			assert.Equal(t, tt.present, ok)
		})
	}
}

func TestModelNotFoundAndInvalidJSON(t *testing.T) {
	e := ModelNotFound("claude-x", []string{"a", "b"}, true)
	assert.Equal(t, 404, e.Status)
	assert.Equal(t, "not_found_error", e.Type)
	assert.Equal(t, "model: claude-x. This session serves only: a, b.", e.Message)
	assert.Contains(t, ModelNotFound("x", []string{"a"}, false).Message, "This server's catalog has: a.")
	j := InvalidJSON()
	require.Equal(t, 400, j.Status)
	assert.Equal(t, "invalid_request_error", j.Type)
}
