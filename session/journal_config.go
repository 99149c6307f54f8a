package session

import (
	"fmt"

	"github.com/llmtestserver/llmtestserver/journal"
)

// A body kept whole up to 16 KiB shows a typical request; the journal
// keeps at most journal.MaxBodyBytes (1 MiB) of any body, the most the
// setting may say.
const (
	defaultJournalBodyBytes = 16 << 10
	maxJournalBodyBytes     = journal.MaxBodyBytes
)

// maxRedactHeaders bounds journal.redact_headers: a session names a few
// headers, never an unbounded list the HTTP core checks on every request.
const maxRedactHeaders = 128

// isZero reports whether j is the zero JournalConfig.
func (j *JournalConfig) isZero() bool {
	return j.Capacity == 0 && j.MaxBytes == 0 && j.MaxBodyBytes == 0 && j.RedactHeaders == nil
}

// validateRedactHeaders checks that every name of journal.redact_headers
// is an HTTP header name, so that a typo such as "X-Secret:" is an error
// rather than a header silently left unredacted.
func (j *JournalConfig) validateRedactHeaders() error {
	if len(j.RedactHeaders) > maxRedactHeaders {
		return &ConfigError{"journal.redact_headers", fmt.Sprintf("must name at most %d headers", maxRedactHeaders)}
	}
	for i, name := range j.RedactHeaders {
		if !isHeaderName(name) {
			return &ConfigError{fmt.Sprintf("journal.redact_headers[%d]", i), fmt.Sprintf("%q is not an HTTP header name", name)}
		}
	}
	return nil
}

// isHeaderName reports whether s is an RFC 9110 token, what a header name
// must be.
func isHeaderName(s string) bool {
	if s == "" || len(s) > 256 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c < 0x80 && c > ' ' && c != 0x7f && !isSeparator(c):
		default:
			return false
		}
	}
	return true
}

// isSeparator reports whether c is one of the delimiters a token excludes.
func isSeparator(c byte) bool {
	for i := 0; i < len(`"(),/:;<=>?@[\]{}`); i++ {
		if c == `"(),/:;<=>?@[\]{}`[i] {
			return true
		}
	}
	return false
}
