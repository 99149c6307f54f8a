package session_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/session"
)

// A server without a management key shows no session by its ID alone,
// nor its dashboard: anyone may list the IDs there, and the session key
// must go on guarding a session's journal.
func TestNoManagementKeyNoInspection(t *testing.T) {
	t.Parallel()
	m, err := session.NewManager(session.ManagerConfig{Dashboard: true})
	require.NoError(t, err)
	t.Cleanup(m.Close)
	srv := httptest.NewServer(m.Handler())
	t.Cleanup(srv.Close)
	sess, err := m.Create()
	require.NoError(t, err)
	for _, path := range []string{"/admin-api/sessions/" + sess.ID(), "/admin-api/sessions/" + sess.ID() + "/journal", "/"} {
		resp, err := srv.Client().Get(srv.URL + path)
		require.NoError(t, err)
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
		assert.Equal(t, http.StatusForbidden, resp.StatusCode, "%s: %s", path, body)
		assert.Contains(t, string(body), "management_key_required", path)
	}
}
