package goopenai_test

import (
	"errors"
	"io"
	"regexp"
	"testing"

	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
	goopenai "github.com/sashabaranov/go-openai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// go-openai sees the dated snapshot in the model of every answer and
// chunk, IDs unique to each session, and IDs repeated under one seed.
func TestGoOpenAISnapshotsAndIDs(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	first := func(sess *session.Session) (id, requestID, fingerprint string) {
		sess.Chat("hi").Responds("hello there").Repeat()
		client := rsGoClient(sess)
		req := goopenai.ChatCompletionRequest{Model: "gpt-4o-mini",
			Messages: []goopenai.ChatCompletionMessage{{Role: goopenai.ChatMessageRoleUser, Content: "hi"}}}
		resp, err := client.CreateChatCompletion(t.Context(), req)
		require.NoError(t, err)
		assert.Equal(t, "gpt-4o-mini-2024-07-18", resp.Model)

		stream, err := client.CreateChatCompletionStream(t.Context(), req)
		require.NoError(t, err)
		defer stream.Close()
		for {
			chunk, err := stream.Recv()
			if errors.Is(err, io.EOF) {
				break
			}
			require.NoError(t, err)
			assert.Equal(t, "gpt-4o-mini-2024-07-18", chunk.Model)
		}
		return resp.ID, resp.Header().Get("X-Request-Id"), resp.SystemFingerprint
	}
	idA, reqA, fp := first(srv.NewSession(t))
	idB, reqB, _ := first(srv.NewSession(t))
	assert.Regexp(t, regexp.MustCompile(`^chatcmpl-[A-Za-z0-9]{29}$`), idA)
	assert.Regexp(t, regexp.MustCompile(`^req_[0-9a-f]{32}$`), reqA)
	assert.Regexp(t, regexp.MustCompile(`^fp_[0-9a-f]{10}$`), fp)
	assert.NotEqual(t, idA, idB)
	assert.NotEqual(t, reqA, reqB)

	seedA, seedReqA, _ := first(srv.NewSession(t, session.WithIDSeed(5)))
	seedB, seedReqB, _ := first(srv.NewSession(t, session.WithIDSeed(5)))
	assert.Equal(t, seedA, seedB)
	assert.Equal(t, seedReqA, seedReqB)
}
