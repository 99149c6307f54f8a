package clock

import "time"

// Latest is the last instant a server's clock can show: the end of the
// year 9999 (UTC), the last that RFC 3339, and so JSON, can write. The
// admin API answers times this way, so it refuses to move a fake clock
// past Latest, and the standalone server to start one outside Writable.
func Latest() time.Time { return time.Date(9999, 12, 31, 23, 59, 59, 999_999_999, time.UTC) }

// Writable reports whether t can be written as RFC 3339, as JSON writes
// times: whether, in UTC, it falls in the years 0 to 9999.
func Writable(t time.Time) bool {
	y := t.UTC().Year()
	return y >= 0 && y <= 9999
}
