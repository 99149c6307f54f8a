package server

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/openai"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

// deliver writes res, all but its last bytes, and returns the status to
// journal and a function that writes those last bytes. Until they arrive no
// client can finish reading the answer (a JSON body lacks its closing brace,
// a stream its last event), so journaling in between makes the journal
// complete by the time the client has its answer. A reply that could not be
// written is rolled back to its queue; one that was runs res.delivered.
func deliver(ctx context.Context, w http.ResponseWriter, res *response) (status int, finish func()) {
	var body []byte
	var cut int // body[:cut] is written now, body[cut:] by finish
	paced := res.sse != nil && res.pacing.Paced()
	switch {
	case res.sse != nil:
		status, body, cut = http.StatusOK, res.sse.Body, lastEventStart(res.sse)
		startSSE(w)
	case res.err != nil:
		for k, vs := range res.err.Header {
			w.Header()[k] = vs
		}
		status, body, cut = encodeJSON(w, res.err.Status, res.err)
		w.WriteHeader(status)
	default:
		status, body, cut = encodeJSON(w, http.StatusOK, res.json)
		w.WriteHeader(status)
	}
	var err error
	if paced {
		err = writePaced(ctx, w, res.sse, res.pacing)
	} else {
		_, err = w.Write(body[:cut])
	}
	if err != nil {
		if res.reservation != nil {
			res.reservation.Rollback()
		}
		return statusClientClosed, func() {}
	}
	if res.delivered != nil {
		res.delivered()
	}
	return status, func() { w.Write(body[cut:]) }
}

// encodeJSON encodes v, setting the content type, and returns the status,
// the body and where its held-back last byte starts. A value that cannot be
// encoded is a fault of the server.
func encodeJSON(w http.ResponseWriter, status int, v any) (int, []byte, int) {
	body, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		body, _ = json.Marshal(openai.ServerError()) // the error envelope always encodes
	}
	w.Header().Set("Content-Type", "application/json")
	return status, body, len(body) - 1
}

// lastEventStart is the offset of a stream's last event.
func lastEventStart(sse *openai.SSE) int {
	if len(sse.Ends) < 2 {
		return 0
	}
	return sse.Ends[len(sse.Ends)-2]
}

// writePaced writes every event of a stream but the last, flushing each:
// the first after the time to first token, the others spaced by the token
// rate. It then waits the gap before the last event, which deliver's finish
// writes.
func writePaced(ctx context.Context, w http.ResponseWriter, sse *openai.SSE, pacing runtime.StreamSettings) error {
	flusher, _ := w.(http.Flusher)
	var gap time.Duration
	if pacing.TokensPerSecond > 0 {
		gap = time.Duration(float64(pacing.TokensPerChunk) / pacing.TokensPerSecond * float64(time.Second))
	}
	start := 0
	for i, end := range sse.Ends {
		delay := gap
		if i == 0 {
			delay = pacing.TTFT
		}
		if err := runtime.Wait(ctx, delay); err != nil {
			return err
		}
		if i == len(sse.Ends)-1 {
			return nil
		}
		if _, err := w.Write(sse.Body[start:end]); err != nil {
			return err
		}
		if flusher != nil {
			flusher.Flush()
		}
		start = end
	}
	return nil
}
