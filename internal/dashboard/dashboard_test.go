package dashboard

import (
	"io/fs"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestServes(t *testing.T) {
	for _, tt := range []struct {
		method, path string
		want         bool
	}{
		{http.MethodGet, "/", true},
		{http.MethodHead, "/", true},
		{http.MethodGet, "/dashboard/app.js", true},
		{http.MethodGet, "/dashboard/", true},
		{http.MethodPost, "/", false},
		{http.MethodDelete, "/dashboard/app.js", false},
		{http.MethodGet, "/dashboard", false},
		{http.MethodGet, "/favicon.ico", false},
		{http.MethodGet, "/v1/models", false},
		{http.MethodGet, "/admin-api/sessions", false},
	} {
		r := httptest.NewRequest(tt.method, tt.path, nil)
		assert.Equal(t, tt.want, Serves(r), "%s %s", tt.method, tt.path)
	}
}

// Every file the page loads is embedded, under Prefix, and the handler
// serves it; nothing comes from another origin.
func TestThePageLoadsOnlyEmbeddedFiles(t *testing.T) {
	h := Handler()
	page := get(t, h, "/")
	require.Equal(t, http.StatusOK, page.Code)
	refs := regexp.MustCompile(`(?:src|href)="([^"]+)"`).FindAllStringSubmatch(page.Body.String(), -1)
	require.NotEmpty(t, refs)
	for _, ref := range refs {
		url := ref[1]
		require.True(t, strings.HasPrefix(url, Prefix), "the page loads %s from outside %s", url, Prefix)
		r := get(t, h, url)
		assert.Equal(t, http.StatusOK, r.Code, url)
		assert.NotEmpty(t, r.Body.Len(), url)
	}
	for _, path := range []string{"/dashboard/", "/dashboard/index.html", "/dashboard/nope.js", "/dashboard/../go.mod"} {
		assert.Equal(t, http.StatusNotFound, get(t, h, path).Code, path)
	}
}

func get(t *testing.T, h http.Handler, path string) *httptest.ResponseRecorder {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, path, nil))
	return w
}

// The script puts the server's strings into the page as text only: the
// journal holds what the code under test sent, which must never become
// markup. No asset uses an API that parses HTML, nor loads anything from
// another origin.
func TestAssetsNeverParseMarkup(t *testing.T) {
	banned := regexp.MustCompile(`innerHTML|outerHTML|insertAdjacentHTML|document\.write|createContextualFragment|DOMParser|eval\(|new Function|https?://`)
	err := fs.WalkDir(assets, "assets", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(path, ".svg") {
			return err
		}
		b, err := fs.ReadFile(assets, path)
		require.NoError(t, err)
		for i, line := range strings.Split(string(b), "\n") {
			assert.False(t, banned.MatchString(line), "%s:%d: %s", path, i+1, line)
		}
		return nil
	})
	require.NoError(t, err)
}
