package journal

import (
	"encoding/json"
	"time"
)

// Entry is one recorded request.
type Entry struct {
	// Seq numbers the entries of one journal from 1, in recording order.
	Seq uint64
	// Time is when the request arrived.
	Time time.Time
	// Duration is how long the server took to answer it.
	Duration time.Duration
	// Method and Path are the HTTP method and URL path of the request.
	Method, Path string
	// Status is the HTTP status the server answered with.
	Status int
	// Model is the model the request asked for.
	Model string
	// Stream reports whether the answer was streamed.
	Stream bool
	// UserText is the last user message of the request.
	UserText string
	// ReplyText is the text the server answered with.
	ReplyText string
	// Scenario names the scenario that answered, if any.
	Scenario string
	// ErrorCode is the error code of a refused request, such as
	// "invalid_api_key" or "llm_test_server_no_scenario".
	ErrorCode string
}

// maxTextBytes bounds each text field of a recorded entry, so that one huge
// prompt cannot evict the rest of the journal on its own.
const maxTextBytes = 8 << 10

// entryOverhead approximates the bytes an entry costs beyond its strings.
const entryOverhead = 160

// size is the number of bytes e counts against the journal's byte bound.
func (e *Entry) size() int64 {
	return int64(entryOverhead + len(e.Method) + len(e.Path) + len(e.Model) +
		len(e.UserText) + len(e.ReplyText) + len(e.Scenario) + len(e.ErrorCode))
}

// clip shortens s to at most maxTextBytes without splitting a UTF-8 sequence.
func clip(s string) string {
	if len(s) <= maxTextBytes {
		return s
	}
	cut := maxTextBytes
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut]
}

// entryJSON is the wire form of Entry served by GET /admin-api/journal.
type entryJSON struct {
	Seq        uint64    `json:"seq"`
	Time       time.Time `json:"time"`
	DurationMS float64   `json:"duration_ms"`
	Method     string    `json:"method"`
	Path       string    `json:"path"`
	Status     int       `json:"status"`
	Model      string    `json:"model,omitempty"`
	Stream     bool      `json:"stream,omitempty"`
	UserText   string    `json:"user_text,omitempty"`
	ReplyText  string    `json:"reply_text,omitempty"`
	Scenario   string    `json:"scenario,omitempty"`
	ErrorCode  string    `json:"error_code,omitempty"`
}

// MarshalJSON encodes e with snake_case names and the duration in
// milliseconds.
func (e Entry) MarshalJSON() ([]byte, error) {
	return json.Marshal(entryJSON{
		Seq: e.Seq, Time: e.Time, DurationMS: float64(e.Duration) / float64(time.Millisecond),
		Method: e.Method, Path: e.Path, Status: e.Status, Model: e.Model, Stream: e.Stream,
		UserText: e.UserText, ReplyText: e.ReplyText, Scenario: e.Scenario, ErrorCode: e.ErrorCode,
	})
}

// UnmarshalJSON decodes the form MarshalJSON writes, so clients of the admin
// API can read the journal back into entries.
func (e *Entry) UnmarshalJSON(data []byte) error {
	var w entryJSON
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*e = Entry{
		Seq: w.Seq, Time: w.Time, Duration: time.Duration(w.DurationMS * float64(time.Millisecond)),
		Method: w.Method, Path: w.Path, Status: w.Status, Model: w.Model, Stream: w.Stream,
		UserText: w.UserText, ReplyText: w.ReplyText, Scenario: w.Scenario, ErrorCode: w.ErrorCode,
	}
	return nil
}
