package admin

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A route's "{id}" matches one non-empty segment and nothing else does.
func TestMatchPath(t *testing.T) {
	for _, tt := range []struct {
		pattern, path, id string
		ok                bool
	}{
		{"/admin-api/sessions", "/admin-api/sessions", "", true},
		{"/admin-api/sessions", "/admin-api/sessions/", "", false},
		{"/admin-api/sessions/{id}", "/admin-api/sessions/sess_1", "sess_1", true},
		{"/admin-api/sessions/{id}", "/admin-api/sessions/", "", false},
		{"/admin-api/sessions/{id}", "/admin-api/sessions/a/b", "", false},
		{"/admin-api/sessions/{id}/fork", "/admin-api/sessions/a/fork", "a", true},
		{"/admin-api/sessions/{id}/fork", "/admin-api/sessions//fork", "", false},
		{"/admin-api/sessions/{id}/fork", "/admin-api/sessions/a/forks", "", false},
		{"/admin-api/clock", "/admin-api/clock/advance", "", false},
	} {
		id, ok := matchPath(tt.pattern, tt.path)
		assert.Equal(t, tt.ok, ok, "%s %s", tt.pattern, tt.path)
		assert.Equal(t, tt.id, id, "%s %s", tt.pattern, tt.path)
	}
}

// Every route is listed once, and a path's methods are in one place.
func TestRoutesAreUnique(t *testing.T) {
	seen := map[Route]bool{}
	for _, r := range Routes() {
		assert.False(t, seen[r], "%s %s twice", r.Method, r.Path)
		seen[r] = true
	}
}
