package httpx

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/journal"
)

// journalRequest records how a request was sent before anything reads it:
// its headers, credentials redacted, the SDK's identity among them, and a
// capture of its body that keeps the first bytes the session's journal
// shows as the body is read (see bodyCapture). The returned function
// completes the body's record; Serve calls it before the entry is
// recorded.
func journalRequest(x *provider.Exchange, s *runtime.Settings) (done func()) {
	r := x.Request
	x.Entry.Headers = journalHeaders(r.Header, s.JournalRedactHeaders)
	x.Entry.Client = journalClient(x.Entry.Headers)
	if r.Body == nil || r.Body == http.NoBody {
		x.Entry.BodyBytes = max(r.ContentLength, 0)
		return func() {}
	}
	c := &bodyCapture{ReadCloser: r.Body, entry: &x.Entry, limit: int(s.JournalBodyBytes), length: r.ContentLength}
	r.Body = c
	return c.finish
}

// bodyCapture passes a request body on as it is read, once, by whoever
// reads it (the Idempotency-Key hash or the route), counting its bytes and
// keeping the first limit of them: a large body is never held twice. It
// writes the entry's Body and BodyBytes at the body's end, before an
// Idempotency-Key replay records the entry, or at the latest when Serve
// records it.
type bodyCapture struct {
	io.ReadCloser
	entry  *journal.Entry
	limit  int
	length int64 // Content-Length, -1 when unknown
	prefix []byte
	read   int64
	done   bool
}

// Read implements io.Reader.
func (c *bodyCapture) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	if room := c.limit - len(c.prefix); room > 0 && n > 0 && !c.done {
		if c.prefix == nil {
			c.prefix = make([]byte, 0, c.firstCap())
		}
		c.prefix = append(c.prefix, p[:min(n, room)]...)
	}
	c.read += int64(n)
	if err == io.EOF {
		c.finish()
	}
	return n, err
}

// firstCap is the capacity the prefix starts with: the whole body within
// the limit when its length is known, a small buffer that grows otherwise.
func (c *bodyCapture) firstCap() int {
	if c.length > 0 {
		return int(min(c.length, int64(c.limit)))
	}
	return min(c.limit, 4<<10)
}

// finish writes the body's record into the entry, once. A body not read
// to its end (too large, or a route that does not read it) counts its
// Content-Length when that says more.
func (c *bodyCapture) finish() {
	if c.done {
		return
	}
	c.done = true
	c.entry.BodyBytes = max(c.read, c.length)
	if int64(len(c.prefix)) < c.entry.BodyBytes {
		c.prefix = withoutPartialRune(c.prefix)
	}
	// The prefix is never written again, and the journal copies what it
	// keeps: the entry may read it in place.
	if len(c.prefix) > 0 {
		c.entry.Body = unsafe.String(&c.prefix[0], len(c.prefix))
	}
	c.prefix = nil
}

// withoutPartialRune returns p without the start of a UTF-8 sequence that
// its cut left at its end, so that a cut body stays the text it was and
// reads back the same from the journal's JSON.
func withoutPartialRune(p []byte) []byte {
	start := len(p) - 1
	for start >= 0 && len(p)-start < utf8.UTFMax && !utf8.RuneStart(p[start]) {
		start--
	}
	if start >= 0 && !utf8.FullRune(p[start:]) {
		return p[:start]
	}
	return p
}

// credentialHeaders are the request headers the journal never shows, by
// lowercase name: the provider keys of every SDK (Gemini's genai sends
// x-goog-api-key), proxies' credentials, cookies and the session key.
var credentialHeaders = map[string]bool{
	"authorization":                   true,
	"api-key":                         true,
	"x-api-key":                       true,
	"x-goog-api-key":                  true,
	"proxy-authorization":             true,
	"cookie":                          true,
	strings.ToLower(HeaderSessionKey): true,
}

// unjournaledHeaders say nothing of how the request was sent, only of its
// connection: hop-by-hop headers, and Content-Length, which BodyBytes has;
// and the session's own ID, the same on every entry of its journal, which
// would keep the entries of two sessions from ever comparing equal.
var unjournaledHeaders = map[string]bool{
	"connection": true, "keep-alive": true, "proxy-connection": true, "transfer-encoding": true,
	"te": true, "trailer": true, "upgrade": true, "proxy-authenticate": true, "content-length": true,
	strings.ToLower(HeaderSession): true,
}

// commonLower holds the lowercase names of the headers SDKs send on every
// request, by their canonical form, so that journaling them allocates no
// new name.
var commonLower = func() map[string]string {
	m := map[string]string{}
	for _, n := range []string{"Accept", "Accept-Encoding", "Authorization", "Content-Type", "User-Agent", "Api-Key",
		"X-Api-Key", "Idempotency-Key", "Anthropic-Version", "Anthropic-Beta", "X-Stainless-Arch", "X-Stainless-Lang",
		"X-Stainless-Os", "X-Stainless-Package-Version", "X-Stainless-Retry-Count", "X-Stainless-Runtime",
		"X-Stainless-Runtime-Version", "X-Stainless-Timeout", "X-Stainless-Helper-Method", HeaderSession,
		HeaderSessionKey, HeaderConversation} {
		m[http.CanonicalHeaderKey(n)] = strings.ToLower(n)
	}
	return m
}()

// lowerName is name in lowercase.
func lowerName(name string) string {
	if l, ok := commonLower[name]; ok {
		return l
	}
	return strings.ToLower(name)
}

// journalHeaders returns h by lowercase name, the values of a name joined
// with ", ", without hop-by-hop headers (those Connection names too) and
// Content-Length, with the credentials and the headers the session names
// in redact replaced by journal.Redacted.
func journalHeaders(h http.Header, redact []string) map[string]string {
	if len(h) == 0 {
		return nil
	}
	var hop []string // the headers Connection names
	for _, v := range h.Values("Connection") {
		for f := range strings.SplitSeq(v, ",") {
			if f = strings.TrimSpace(f); f != "" {
				hop = append(hop, f)
			}
		}
	}
	out := make(map[string]string, len(h))
	for k, vs := range h {
		name := lowerName(k)
		if unjournaledHeaders[name] || containsFold(hop, name) {
			continue
		}
		if credentialHeaders[name] || containsFold(redact, name) {
			out[name] = journal.Redacted
			continue
		}
		out[name] = strings.Join(vs, ", ")
	}
	return out
}

func containsFold(names []string, name string) bool {
	for _, n := range names {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}

// stainlessPrefix begins the headers the official SDKs (generated by
// Stainless) send to describe themselves.
const stainlessPrefix = "x-stainless-"

// journalClient reads the SDK's identity from the journaled headers, so
// that a header the session redacts stays redacted here too: User-Agent,
// the X-Stainless-* headers without their prefix, and the retry count
// (X-Stainless-Retry-Count, 0 when absent or not a count).
func journalClient(headers map[string]string) journal.Client {
	c := journal.Client{UserAgent: headers["user-agent"]}
	for name, v := range headers {
		short, ok := strings.CutPrefix(name, stainlessPrefix)
		if !ok || short == "" {
			continue
		}
		if short == "retry-count" {
			if n, err := strconv.Atoi(v); err == nil && n > 0 {
				c.RetryCount = n
			}
			continue
		}
		if c.Stainless == nil {
			c.Stainless = make(map[string]string)
		}
		c.Stainless[short] = v
	}
	return c
}
