package llmtest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
)

// WithDashboard serves the dashboard at / and its assets under
// /dashboard/ to the holder of the management key, as a bearer token or
// as a Basic password; a browser without it is asked to log in.
func TestWithDashboardServesThePage(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.WithDashboard())
	key := srv.ManagementKey()

	for name, auth := range map[string][]string{"bearer": e2e.Bearer(key), "basic": basic("me", key)} {
		page := e2e.Call(t, srv.Client(), http.MethodGet, srv.URL()+"/", "", auth...)
		require.Equal(t, http.StatusOK, page.Status, "%s: %s", name, page.Body)
		assert.True(t, strings.HasPrefix(page.Header.Get("Content-Type"), "text/html"), page.Header.Get("Content-Type"))
		assert.Contains(t, string(page.Body), `<script src="/dashboard/app.js"`)
		assert.Contains(t, page.Header.Get("Content-Security-Policy"), "script-src 'self'")
		assert.Equal(t, "nosniff", page.Header.Get("X-Content-Type-Options"))
	}
	for asset, ctype := range map[string]string{"app.js": "text/javascript", "style.css": "text/css", "icon.svg": "image/svg+xml"} {
		r := e2e.Call(t, srv.Client(), http.MethodGet, srv.URL()+"/dashboard/"+asset, "", basic("me", key)...)
		require.Equal(t, http.StatusOK, r.Status, "%s: %s", asset, r.Body)
		assert.True(t, strings.HasPrefix(r.Header.Get("Content-Type"), ctype), "%s: %s", asset, r.Header.Get("Content-Type"))
		assert.NotEmpty(t, r.Body)
	}
	head := e2e.Call(t, srv.Client(), http.MethodHead, srv.URL()+"/", "", e2e.Bearer(key)...)
	assert.Equal(t, http.StatusOK, head.Status)
	missing := e2e.Call(t, srv.Client(), http.MethodGet, srv.URL()+"/dashboard/nope.js", "", e2e.Bearer(key)...)
	assert.Equal(t, http.StatusNotFound, missing.Status)

	// Without the key: 401 in the admin API's envelope, asking for Basic
	// auth, for the page and its assets alike.
	for _, path := range []string{"/", "/dashboard/app.js", "/dashboard/nope.js"} {
		for name, auth := range map[string][]string{"none": nil, "wrong": basic("me", "not-the-key"), "wrong bearer": e2e.Bearer("not-the-key")} {
			r := e2e.Call(t, srv.Client(), http.MethodGet, srv.URL()+path, "", auth...)
			assert.Equal(t, http.StatusUnauthorized, r.Status, "%s %s", path, name)
			assert.Equal(t, `Basic realm="llmtestserver"`, r.Header.Get("WWW-Authenticate"), "%s %s", path, name)
			assert.NotContains(t, string(r.Body), "<script", "%s %s", path, name)
		}
	}
	// Session headers are refused: the dashboard is the server's.
	sess := srv.NewSession(t)
	r := e2e.Call(t, srv.Client(), http.MethodGet, srv.URL()+"/", "", e2e.Join(e2e.Bearer(key), e2e.SelectorOf(sess))...)
	r.WantError(t, http.StatusBadRequest, "session_selector_not_allowed")

	// Only GET and HEAD of / and /dashboard/ are the dashboard's: the
	// provider still answers everything else.
	post := e2e.Call(t, srv.Client(), http.MethodPost, srv.URL()+"/", "{}", e2e.Bearer(key)...)
	require.Equal(t, http.StatusNotFound, post.Status)
	assert.Contains(t, string(post.Body), "Invalid URL (POST /)")
	models := e2e.Call(t, srv.Client(), http.MethodGet, srv.URL()+"/v1/models", "", e2e.Bearer(key)...)
	assert.Equal(t, http.StatusOK, models.Status)
}

// Without WithDashboard, / is the provider's 404, as it always was.
func TestNoDashboardByDefault(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	for _, path := range []string{"/", "/dashboard/app.js"} {
		r := e2e.Call(t, srv.Client(), http.MethodGet, srv.URL()+path, "", e2e.Bearer(srv.ManagementKey())...)
		require.Equal(t, http.StatusNotFound, r.Status, "%s: %s", path, r.Body)
		assert.Contains(t, string(r.Body), "Invalid URL (GET "+path+")")
		assert.Empty(t, r.Header.Get("WWW-Authenticate"))
		r = e2e.Call(t, srv.Client(), http.MethodGet, srv.URL()+path, "", basic("me", srv.ManagementKey())...)
		assert.Equal(t, http.StatusUnauthorized, r.Status, "the provider takes no Basic auth")
		assert.Empty(t, r.Header.Get("WWW-Authenticate"))
	}
}
