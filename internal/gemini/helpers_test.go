package gemini

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
)

// decodeGenerate decodes body as a generateContent request, as the route
// does, and fails the test if the body is refused.
func decodeGenerate(t *testing.T, body string) *GenerateRequest {
	t.Helper()
	var req GenerateRequest
	err := decodeBody(context.Background(), []byte(body), generateRequestMessage, &req)
	require.Nil(t, err, "body %s", body)
	return &req
}

// refuse decodes body as a generateContent request and returns the error
// it must be refused with.
func refuse(t *testing.T, body string) *apierr.Error {
	t.Helper()
	var req GenerateRequest
	err := decodeBody(context.Background(), []byte(body), generateRequestMessage, &req)
	require.NotNil(t, err, "body %s must be refused", body)
	return err
}

// normalized runs normalizeMessage on body read as JSON with numbers
// kept, and returns the result re-encoded, so that a test can compare it
// with the one form the typed decoding reads.
func normalized(t *testing.T, body string, m *message) (string, *apierr.Error) {
	t.Helper()
	var obj map[string]any
	dec := json.NewDecoder(strings.NewReader(body))
	dec.UseNumber()
	require.NoError(t, dec.Decode(&obj))
	out, err := normalizeMessage(obj, m, "")
	if err != nil {
		return "", err
	}
	b, merr := json.Marshal(out)
	require.NoError(t, merr)
	return string(b), nil
}
