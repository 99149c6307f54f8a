package openai_test

import (
	goruntime "runtime"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

// videoBaseBytes is what the codec charges a video's job beyond its
// strings (internal/openai.videoBaseBytes); videoPoolBytes is what the
// session's videos bound gives each video (videos.capacity × 128 KiB).
const (
	videoBaseBytes = 1 << 10
	videoPoolBytes = 128 << 10
)

// What a video's job keeps on the heap, measured as the growth of n
// videos less that of n chat completions (the same requests, journal and
// all, without a job), per job, against what it is charged and what the
// bound gives it.
func TestVideoJobsRetainWhatTheyAreCharged(t *testing.T) {
	if testing.Short() {
		t.Skip("heap measurement")
	}
	const n = 2000
	prompt := "A red kite over a green hill"
	growth := func(videos bool) int64 {
		srv := llmtest.NewServer(t)
		sess := srv.NewSession(t, session.WithJournal(2, 64<<10), session.WithVideos(n+1))
		sess.Chat("any").Responds("ok").Repeat()
		client := e2e.ClientFor(sess, "k")
		call := func() {
			var err error
			if videos {
				_, err = client.Videos.New(t.Context(), openai.VideoNewParams{Prompt: prompt})
			} else {
				_, err = client.Chat.Completions.New(t.Context(), e2e.UserTurn(openai.ChatModelGPT4_1Mini, prompt))
			}
			require.NoError(t, err)
		}
		call() // warm up
		before := e2e.LiveHeap()
		for range n {
			call()
		}
		g := e2e.LiveHeap() - before
		goruntime.KeepAlive(sess)
		return g
	}
	chat, videos := growth(false), growth(true)
	perJob := (videos - chat) / n
	charged := int64(videoBaseBytes + len(prompt) + len("sora-2") + len("4") + len("720x1280"))
	t.Logf("%d videos: heap grew %d B (%d B for as many chat completions): %d B per job, charged %d B, of the %d B the bound gives each",
		n, videos, chat, perJob, charged, videoPoolBytes)
	if perJob > charged {
		t.Errorf("a video's job keeps %d B, more than the %d B it is charged", perJob, charged)
	}
}
