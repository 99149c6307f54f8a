// Package dashboard serves the browser dashboard of llmtestserver: one page
// at / and its script and style under Prefix, embedded in the binary (no
// CDN, no build step). The page reads everything it shows from the admin
// API with the management key the browser logged in with: the default
// runtime's journal, scenarios and assertions, the working set, and each
// session's through the inspection routes.
//
// The package serves static files only and knows nothing of sessions or
// keys: internal/server mounts it behind the admin API's guard, when
// session.ManagerConfig.Dashboard asks for it.
package dashboard

import (
	"embed"
	"io/fs"
	"net/http"
	"strings"
)

// Prefix is the path prefix of the dashboard's assets; the page itself is
// at /.
const Prefix = "/dashboard/"

//go:embed assets
var assets embed.FS

// Serves reports whether r is a request for the dashboard: a GET or HEAD
// of / or of a path under Prefix. Everything else (the provider APIs, the
// admin API, other methods) is not the dashboard's.
func Serves(r *http.Request) bool {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return false
	}
	return r.URL.Path == "/" || strings.HasPrefix(r.URL.Path, Prefix)
}

// securityHeaders keep the page to its own files: journal content is data
// of the code under test, and even if some of it reached the page as
// markup, no script but the dashboard's own would run.
var securityHeaders = map[string]string{
	"Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
		"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
	"X-Content-Type-Options": "nosniff",
	"Referrer-Policy":        "no-referrer",
	"X-Frame-Options":        "DENY",
	// The page is small and changes with the binary: always revalidated.
	"Cache-Control": "no-cache",
}

// Handler returns the handler of the page and its assets. It serves only
// requests Serves accepts, answering 404 for an asset it does not have;
// the caller guards it.
func Handler() http.Handler {
	sub, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err) // the embedded tree always has assets/
	}
	files := http.FileServerFS(sub)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range securityHeaders {
			w.Header().Set(k, v)
		}
		if r.URL.Path == "/" {
			http.ServeFileFS(w, r, sub, "index.html")
			return
		}
		name := strings.TrimPrefix(r.URL.Path, Prefix)
		if name == "" || name == "index.html" || strings.HasSuffix(name, "/") {
			// One address for the page; no directory listings.
			http.NotFound(w, r)
			return
		}
		r2 := r.Clone(r.Context())
		r2.URL.Path = "/" + name
		files.ServeHTTP(w, r2)
	})
}
