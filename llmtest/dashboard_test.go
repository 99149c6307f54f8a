package llmtest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/llmtest"
)

// WithDashboard serves the dashboard at / and its assets under
// /dashboard/ to the holder of the management key, as a bearer token or
// as a Basic password; a browser without it is asked to log in.
func TestWithDashboardServesThePage(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.WithDashboard())
	key := srv.ManagementKey()

	for name, auth := range map[string][]string{"bearer": bearer(key), "basic": basic("me", key)} {
		page := call(t, srv.Client(), http.MethodGet, srv.URL()+"/", "", auth...)
		require.Equal(t, http.StatusOK, page.status, "%s: %s", name, page.body)
		assert.True(t, strings.HasPrefix(page.header.Get("Content-Type"), "text/html"), page.header.Get("Content-Type"))
		assert.Contains(t, string(page.body), `<script src="/dashboard/app.js"`)
		assert.Contains(t, page.header.Get("Content-Security-Policy"), "script-src 'self'")
		assert.Equal(t, "nosniff", page.header.Get("X-Content-Type-Options"))
	}
	for asset, ctype := range map[string]string{"app.js": "text/javascript", "style.css": "text/css", "icon.svg": "image/svg+xml"} {
		r := call(t, srv.Client(), http.MethodGet, srv.URL()+"/dashboard/"+asset, "", basic("me", key)...)
		require.Equal(t, http.StatusOK, r.status, "%s: %s", asset, r.body)
		assert.True(t, strings.HasPrefix(r.header.Get("Content-Type"), ctype), "%s: %s", asset, r.header.Get("Content-Type"))
		assert.NotEmpty(t, r.body)
	}
	head := call(t, srv.Client(), http.MethodHead, srv.URL()+"/", "", bearer(key)...)
	assert.Equal(t, http.StatusOK, head.status)
	missing := call(t, srv.Client(), http.MethodGet, srv.URL()+"/dashboard/nope.js", "", bearer(key)...)
	assert.Equal(t, http.StatusNotFound, missing.status)

	// Without the key: 401 in the admin API's envelope, asking for Basic
	// auth, for the page and its assets alike.
	for _, path := range []string{"/", "/dashboard/app.js", "/dashboard/nope.js"} {
		for name, auth := range map[string][]string{"none": nil, "wrong": basic("me", "not-the-key"), "wrong bearer": bearer("not-the-key")} {
			r := call(t, srv.Client(), http.MethodGet, srv.URL()+path, "", auth...)
			assert.Equal(t, http.StatusUnauthorized, r.status, "%s %s", path, name)
			assert.Equal(t, `Basic realm="llmtestserver"`, r.header.Get("WWW-Authenticate"), "%s %s", path, name)
			assert.NotContains(t, string(r.body), "<script", "%s %s", path, name)
		}
	}
	// Session headers are refused: the dashboard is the server's.
	sess := srv.NewSession(t)
	r := call(t, srv.Client(), http.MethodGet, srv.URL()+"/", "", join(bearer(key), selectorOf(sess))...)
	r.wantError(t, http.StatusBadRequest, "session_selector_not_allowed")

	// Only GET and HEAD of / and /dashboard/ are the dashboard's: the
	// provider still answers everything else.
	post := call(t, srv.Client(), http.MethodPost, srv.URL()+"/", "{}", bearer(key)...)
	require.Equal(t, http.StatusNotFound, post.status)
	assert.Contains(t, string(post.body), "Invalid URL (POST /)")
	models := call(t, srv.Client(), http.MethodGet, srv.URL()+"/v1/models", "", bearer(key)...)
	assert.Equal(t, http.StatusOK, models.status)
}

// Without WithDashboard, / is the provider's 404, as it always was.
func TestNoDashboardByDefault(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	for _, path := range []string{"/", "/dashboard/app.js"} {
		r := call(t, srv.Client(), http.MethodGet, srv.URL()+path, "", bearer(srv.ManagementKey())...)
		require.Equal(t, http.StatusNotFound, r.status, "%s: %s", path, r.body)
		assert.Contains(t, string(r.body), "Invalid URL (GET "+path+")")
		assert.Empty(t, r.header.Get("WWW-Authenticate"))
		r = call(t, srv.Client(), http.MethodGet, srv.URL()+path, "", basic("me", srv.ManagementKey())...)
		assert.Equal(t, http.StatusUnauthorized, r.status, "the provider takes no Basic auth")
		assert.Empty(t, r.header.Get("WWW-Authenticate"))
	}
}
