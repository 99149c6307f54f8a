package admin

import (
	"net/http"
	"time"

	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/internal/apierr"
)

// clockState is the body of GET /admin-api/clock and of a clock advance.
type clockState struct {
	// Now is the server's time, in UTC (RFC 3339 with nanoseconds).
	Now time.Time `json:"now"`
	// Fake says whether the server runs on a fake clock, which
	// POST /admin-api/clock/advance moves.
	Fake bool `json:"fake"`
}

// advancer is a clock that moves when told to, such as clock.Fake.
type advancer interface{ Advance(time.Duration) }

// readClock serves GET /admin-api/clock: the time every runtime of the
// server reads, and whether it is a fake clock.
func (h *Handler) readClock(w http.ResponseWriter, _ *http.Request, _ call) {
	c := h.sessions.Clock()
	_, fake := c.(advancer)
	writeJSON(w, http.StatusOK, clockState{Now: c.Now().UTC(), Fake: fake})
}

// advanceRequest is the body of POST /admin-api/clock/advance.
type advanceRequest struct {
	// Duration is how far to move the clock, in Go's notation: "20s",
	// "1h30m", "250ms".
	Duration *string `json:"duration"`
}

// advanceClock serves POST /admin-api/clock/advance: a fake clock moves
// forward, firing the timers due by then (reply delays, paced streams,
// rate-limit windows, prompt-cache lifetimes), and the new time is
// answered. The real clock cannot be moved: 409 clock_not_fake. A
// missing, unreadable or negative duration is 400 and moves nothing, and
// so is one that would take the clock past clock.Latest, after which no
// time it answers could be written.
func (h *Handler) advanceClock(w http.ResponseWriter, r *http.Request, _ call) {
	c := h.sessions.Clock()
	adv, fake := c.(advancer)
	if !fake {
		writeError(w, &apierr.Error{Status: http.StatusConflict, Code: "clock_not_fake",
			Message: "The server runs on the real clock, which cannot be moved. Start it on a fake clock (llmtest.WithClock(clock.NewFake(...)), session.ManagerConfig.Clock, or the standalone server's -fake-clock flag) to advance it."})
		return
	}
	body, err := h.readBody(r)
	if err != nil {
		writeError(w, err)
		return
	}
	var req advanceRequest
	if err := decodeBody(body, &req); err != nil {
		writeError(w, err)
		return
	}
	if req.Duration == nil {
		writeError(w, badBody("duration", `Invalid request body: duration is required, such as {"duration": "20s"}.`))
		return
	}
	d, perr := time.ParseDuration(*req.Duration)
	switch {
	case perr != nil:
		writeError(w, badBody("duration", "Invalid duration %q: want a Go duration such as 20s, 1h30m or 250ms.", *req.Duration))
		return
	case d < 0:
		writeError(w, badBody("duration", "Invalid duration %q: the clock only moves forward.", *req.Duration))
		return
	}
	// Advances are checked and made one at a time, so that two of them
	// cannot together take the clock past what its answers can show.
	h.clockMu.Lock()
	defer h.clockMu.Unlock()
	if now := c.Now(); now.After(clock.Latest().Add(-d)) {
		writeError(w, badBody("duration", "Invalid duration %q: the clock is at %s, and it would pass %s, the last time RFC 3339 (and so every time this API answers) can write.",
			*req.Duration, now.UTC().Format(time.RFC3339Nano), clock.Latest().Format(time.RFC3339Nano)))
		return
	}
	adv.Advance(d)
	writeJSON(w, http.StatusOK, clockState{Now: c.Now().UTC(), Fake: true})
}
