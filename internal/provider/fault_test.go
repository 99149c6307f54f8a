package provider_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/stretchr/testify/assert"
)

// Malformed keeps an event's framing and breaks its JSON.
func TestMalformed(t *testing.T) {
	for _, tc := range []struct{ event, name, want string }{
		{"data: {\"a\":\"bcdef\"}\n\n", "", "data: {\"a\":\"\n\n"},
		{"event: message_start\ndata: {\"type\":\"message_start\"}\n\n", "", "event: message_start\ndata: {\"type\":\"mes\n\n"},
		{"event: ping\ndata: {\"type\":\"ping\"}\n\n", "content_block_delta", "event: content_block_delta\ndata: {\"type\"\n\n"},
		{"data: [DONE]\n\n", "", "data: {\"ty\n\n"},
		{"data: {}\n\n", "", "data: {\n\n"},
	} {
		got := string(provider.Malformed([]byte(tc.event), tc.name))
		assert.Equal(t, tc.want, got)
		data := got[strings.Index(got, "data: ")+len("data: "):]
		assert.False(t, json.Valid([]byte(strings.TrimSpace(data))), got)
		assert.True(t, strings.HasSuffix(got, "\n\n"))
	}
}
