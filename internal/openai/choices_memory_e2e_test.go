package openai_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"
)

// heapWatch samples the heap while a request runs. Its figures are relative
// to the live heap after a GC when the watch started. It collects often
// meanwhile (GOGC 10), so that the peak shows what is held rather than
// garbage waiting for the next cycle; the tests using it are not parallel.
type heapWatch struct {
	gcPercent int
	base      uint64
	stop      chan struct{}
	done      chan struct{}
	mu        sync.Mutex
	peak      uint64 // largest HeapAlloc seen
}

func watchHeap() *heapWatch {
	gcPercent := debug.SetGCPercent(10)
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	w := &heapWatch{gcPercent: gcPercent, base: m.HeapAlloc, peak: m.HeapAlloc, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-w.stop:
				return
			case <-tick.C:
			}
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			w.mu.Lock()
			w.peak = max(w.peak, m.HeapAlloc)
			w.mu.Unlock()
		}
	}()
	return w
}

// end stops the sampling and returns the peak growth and, after a GC, the
// growth that stays.
func (w *heapWatch) end() (peak, retained int64) {
	close(w.stop)
	<-w.done
	defer debug.SetGCPercent(w.gcPercent)
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(w.peak) - int64(w.base), int64(m.HeapAlloc) - int64(w.base)
}

// An answer with n choices is written as it is produced: asking for 128
// choices of a 192 KiB reply, streamed or not, never makes the server hold
// much more than the reply itself, although the client receives 128 copies
// (some 24 MiB unstreamed, more streamed). Before the fix the stream was
// built whole in memory first (over 300 MiB for this request).
func TestManyChoicesHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("measures the heap")
	}
	const n = 128
	text := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 192<<10/45)
	srv := llmtest.NewServer(t)
	// 256 tokens a chunk keeps the client's decoding (128 choices a
	// chunk) within a few seconds.
	sess := srv.NewSession(t, session.WithStream(256, 0, 0))
	sess.Chat("long").Responds(text).Repeat()
	client := e2e.ClientFor(sess, "k")
	params := e2e.UserTurn(e2e.ReplyModel, "Hi")
	params.N = openai.Int(n)
	// The bound is a multiple of what one request brings in (its body, a
	// few hundred bytes) plus its reply: planning a stream cuts the reply
	// into tokens (a string header of 16 bytes for every 4 or so bytes of
	// text) and the client holds a chunk of 128 choices. Before the fix the
	// peak was over 90 MiB streamed and 60 MiB not.
	bound := int64(32 * len(text))
	// The first requests load the tokenizer's tables and cache the reply's
	// tokens, which the server keeps whatever n is.
	if _, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi")); err != nil {
		t.Fatal(err)
	}
	e2e.ReadChatStream(t, client.Chat.Completions.NewStreaming(t.Context(), e2e.UserTurn(e2e.ReplyModel, "Hi")))

	t.Run("streamed", func(t *testing.T) {
		w := watchHeap()
		// The raw response, read with openai-go's own SSE decoder: its
		// chunk types keep the raw JSON of every field, which would
		// mask what the server holds.
		var resp *http.Response
		if err := client.Post(t.Context(), "chat/completions", params, &resp, option.WithJSONSet("stream", true)); err != nil {
			t.Fatal(err)
		}
		events := ssestream.NewDecoder(resp)
		var content [n]int
		chunks := 0
		for events.Next() {
			if bytes.HasPrefix(events.Event().Data, []byte("[DONE]")) {
				break
			}
			var chunk struct {
				Choices []struct {
					Index int
					Delta struct{ Content string }
				}
			}
			if err := json.Unmarshal(events.Event().Data, &chunk); err != nil {
				t.Fatal(err)
			}
			chunks++
			for _, c := range chunk.Choices {
				content[c.Index] += len(c.Delta.Content)
			}
		}
		if err := events.Err(); err != nil {
			t.Fatal(err)
		}
		events.Close()
		peak, retained := w.end()
		t.Logf("streamed, %d chunks: peak heap growth %d KiB, retained %d KiB (bound %d KiB)", chunks, peak>>10, retained>>10, bound>>10)
		for i, got := range content {
			if got != len(text) {
				t.Fatalf("choice %d streamed %d bytes of content, want %d", i, got, len(text))
			}
		}
		if peak > bound || retained > bound {
			t.Errorf("peak heap growth %d KiB, retained %d KiB; want both at most %d KiB", peak>>10, retained>>10, bound>>10)
		}
	})

	t.Run("unstreamed", func(t *testing.T) {
		w := watchHeap()
		// The raw response, so that the client does not decode 128 copies
		// of the reply into the heap being measured.
		var resp *http.Response
		if err := client.Post(t.Context(), "chat/completions", params, &resp); err != nil {
			t.Fatal(err)
		}
		size, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("status %d, read %d bytes, err %v", resp.StatusCode, size, err)
		}
		peak, retained := w.end()
		t.Logf("unstreamed, %d KiB body: peak heap growth %d KiB, retained %d KiB (bound %d KiB)", size>>10, peak>>10, retained>>10, bound>>10)
		if size < n*int64(len(text)) {
			t.Fatalf("body of %d bytes, want at least %d", size, n*len(text))
		}
		if peak > bound || retained > bound {
			t.Errorf("peak heap growth %d KiB, retained %d KiB; want both at most %d KiB", peak>>10, retained>>10, bound>>10)
		}
	})
}
