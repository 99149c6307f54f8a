package admin_test

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/internal/admin"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

const mk = "mk-openapi"

// server is a session.Manager's handler on a real HTTP server.
type server struct {
	m   *session.Manager
	url string
	tr  *http.Transport
}

func newServer(t *testing.T, cfg session.ManagerConfig) *server {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	tr := &http.Transport{}
	cfg.Endpoint, cfg.ManagementKey, cfg.Transport = "http://"+srv.Listener.Addr().String(), mk, tr
	m, err := session.NewManager(cfg)
	require.NoError(t, err)
	srv.Config.Handler = m.Handler()
	srv.Start()
	t.Cleanup(func() {
		m.Close()
		srv.Close()
		tr.CloseIdleConnections()
	})
	return &server{m: m, url: srv.URL, tr: tr}
}

// answer is one answer, with the route it was for.
type answer struct {
	route       admin.Route
	status      int
	contentType string
	header      http.Header
	body        []byte
}

// exercise sends requests to the documented routes and keeps every
// answer for the check against the description.
type exercise struct {
	t       *testing.T
	answers []answer
}

// req describes one request: the route, the session ID its {id} stands
// for, the query, the body, and header pairs.
type req struct {
	id, query, body string
	headers         []string
	contentType     string
}

func (x *exercise) call(srv *server, r admin.Route, q req) answer {
	x.t.Helper()
	path := strings.ReplaceAll(r.Path, "{id}", q.id)
	if q.query != "" {
		path += "?" + q.query
	}
	var body io.Reader
	if q.body != "" {
		body = strings.NewReader(q.body)
	}
	hr, err := http.NewRequestWithContext(x.t.Context(), r.Method, srv.url+path, body)
	require.NoError(x.t, err)
	if q.body != "" {
		hr.Header.Set("Content-Type", "application/json")
	}
	if q.contentType != "" {
		hr.Header.Set("Content-Type", q.contentType)
	}
	for i := 0; i+1 < len(q.headers); i += 2 {
		hr.Header.Add(q.headers[i], q.headers[i+1])
	}
	resp, err := (&http.Client{Transport: srv.tr}).Do(hr)
	require.NoError(x.t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(x.t, err)
	a := answer{route: r, status: resp.StatusCode, contentType: resp.Header.Get("Content-Type"), header: resp.Header, body: b}
	x.answers = append(x.answers, a)
	return a
}

func bearer(token string) []string { return []string{"Authorization", "Bearer " + token} }

func headersOf(id, key string) []string {
	return []string{session.HeaderSession, id, session.HeaderSessionKey, key}
}

// created decodes a 201.
func created(t *testing.T, a answer) (id, key string) {
	t.Helper()
	require.Equal(t, http.StatusCreated, a.status, "%s", a.body)
	var c admin.Created
	require.NoError(t, json.Unmarshal(a.body, &c))
	return c.ID, c.Key
}

func route(method, path string) admin.Route { return admin.Route{Method: method, Path: path} }

// Every documented operation, exercised over HTTP against a
// session.Manager's handler, answers only statuses it documents, with
// bodies that validate against the documented schemas, and succeeds at
// least once; none is 404 as a path not served, or 405.
func TestOpenAPIDescribesEveryAnswer(t *testing.T) {
	s := loadSpec(t)
	x := &exercise{t: t}
	start := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	srv := newServer(t, session.ManagerConfig{Clock: clock.NewFake(start), MaxRequestBytes: 1 << 20})
	real := newServer(t, session.ManagerConfig{})
	m := bearer(mk)

	// Sessions.
	sessions := route(http.MethodPost, "/admin-api/sessions")
	id, key := created(t, x.call(srv, sessions, req{headers: m, body: `{"api_key":"pk","history":{"capacity":10,"max_bytes":1000000},
		"scenarios":[{"name":"a","match":{"user_contains":"hello"},"repeat":true,"replies":[{"text":"hi there"}]},
		{"name":"spare","match":{"user_contains":"never"},"replies":[{"text":"x"}]}]}`}))
	own := append(headersOf(id, key), bearer("pk")...)
	x.call(srv, sessions, req{headers: m, body: `{"journal":{"capacity":0}}`})
	x.call(srv, sessions, req{body: `{}`})
	x.call(srv, sessions, req{headers: m, body: `{"journal":{"max_bytes":1073741824}}`})
	x.call(srv, sessions, req{headers: m, body: `{}`, contentType: "text/plain"})
	x.call(srv, route(http.MethodGet, "/admin-api/sessions"), req{headers: m})
	x.call(srv, route(http.MethodGet, "/admin-api/sessions"), req{headers: append(headersOf(id, key), m...)})
	x.call(srv, route(http.MethodGet, "/admin-api/sessions"), req{})

	// Traffic for the journal, the assertions and the history.
	sess, ok := srv.m.Lookup(id, key)
	require.True(t, ok)
	client := openai.NewClient(option.WithBaseURL(sess.BaseURL()), option.WithAPIKey("pk"),
		option.WithHTTPClient(sess.HTTPClient()), option.WithMaxRetries(0))
	_, err := client.Chat.Completions.New(t.Context(), openai.ChatCompletionNewParams{Model: "gpt-4.1-mini", Store: openai.Bool(true),
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hello")}})
	require.NoError(t, err)
	_, err = client.Chat.Completions.New(t.Context(), openai.ChatCompletionNewParams{Model: "gpt-4.1-mini",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("nobody answers this")}})
	require.Error(t, err)
	r1, err := client.Responses.New(t.Context(), responses.ResponseNewParams{Model: "gpt-4.1-mini", Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("hello")}})
	require.NoError(t, err)
	_, err = client.Responses.New(t.Context(), responses.ResponseNewParams{Model: "gpt-4.1-mini", PreviousResponseID: openai.String(r1.ID),
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String("hello again")}})
	require.NoError(t, err)

	// Control routes of the session, then of the default runtime.
	for _, path := range []string{"/admin-api/journal", "/admin-api/scenarios", "/admin-api/assertions", "/admin-api/history",
		"/admin-api/jobs", "/admin-api/config", "/admin-api/chaos", "/admin-api/rate-limits"} {
		get := route(http.MethodGet, path)
		a := x.call(srv, get, req{headers: own})
		require.Equal(t, http.StatusOK, a.status, "%s: %s", path, a.body)
		x.call(srv, get, req{headers: m})
		x.call(srv, get, req{headers: headersOf(id, key)})        // 401: no provider key
		x.call(srv, get, req{headers: headersOf(id, "sk_wrong")}) // 404
	}
	journal := route(http.MethodGet, "/admin-api/journal")
	x.call(srv, journal, req{headers: own, query: "status=4xx&provider=openai"})
	x.call(srv, journal, req{headers: own, query: "stauts=4xx"})
	x.call(srv, journal, req{headers: own, query: "generation=0"})
	jobs := route(http.MethodGet, "/admin-api/jobs")
	x.call(srv, jobs, req{headers: own, query: "kind=video"})
	x.call(srv, jobs, req{headers: own, query: "state=queued"})
	// The management key as a Basic password, from the server's own page
	// and from another site's.
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("dashboard:"+mk))
	x.call(srv, route(http.MethodGet, "/admin-api/sessions"), req{headers: []string{"Authorization", basic, "Sec-Fetch-Site", "same-origin"}})
	refused := x.call(srv, route(http.MethodPost, "/admin-api/reset"), req{headers: []string{"Authorization", basic, "Sec-Fetch-Site", "cross-site"}})
	assert.Equal(t, http.StatusForbidden, refused.status)
	assertions := x.call(srv, route(http.MethodGet, "/admin-api/assertions"), req{headers: own})
	assert.Contains(t, string(assertions.body), `matched no scenario`)

	chaos, limits := route(http.MethodPut, "/admin-api/chaos"), route(http.MethodPut, "/admin-api/rate-limits")
	x.call(srv, chaos, req{headers: own, body: `{"seed":1,"rules":[{"every":100,"reply":{"error":{"status":500}}}]}`})
	x.call(srv, route(http.MethodGet, "/admin-api/chaos"), req{headers: own})
	x.call(srv, chaos, req{headers: own, body: `{"rules":[{"every":0,"reply":{"text":"x"}}]}`})
	x.call(srv, chaos, req{headers: own, body: `null`})
	x.call(srv, chaos, req{headers: own, body: `{}`, contentType: "text/plain"})
	x.call(srv, limits, req{headers: own, body: `{"requests_per_minute":100,"models":{"gpt-4o":{"tokens_per_minute":10}}}`})
	x.call(srv, route(http.MethodGet, "/admin-api/rate-limits"), req{headers: own})
	x.call(srv, limits, req{headers: own, body: `{"tokens_per_minute":"many"}`})
	x.call(srv, limits, req{headers: m, body: `null`})

	scenarios := route(http.MethodPost, "/admin-api/scenarios")
	x.call(srv, scenarios, req{headers: own, body: `{"scenarios":[{"name":"b","match":{},"replies":[{"fault":{"kind":"drop"}},{"text":"ok"}]}]}`})
	x.call(srv, scenarios, req{headers: own, body: `{"scenarios":[{"name":"c","match":{},"replies":[]}]}`})
	x.call(srv, scenarios, req{headers: own, body: `{"scenarios":[{"name":"c","match":{},"replies":[{"text":"` + strings.Repeat("x", 2<<20) + `"}]}]}`})
	clear := route(http.MethodDelete, "/admin-api/scenarios")
	x.call(srv, clear, req{headers: own, query: "name=spare"})
	x.call(srv, clear, req{headers: own, query: "name=nope"})
	x.call(srv, clear, req{headers: m})
	x.call(srv, route(http.MethodGet, "/admin-api/scenarios"), req{headers: own})

	config := route(http.MethodPut, "/admin-api/config")
	cfg := x.call(srv, route(http.MethodGet, "/admin-api/config"), req{headers: own})
	x.call(srv, config, req{headers: own, body: string(cfg.body)})
	x.call(srv, config, req{headers: own, body: `{"models":[""]}`})
	x.call(srv, config, req{headers: own, body: `{"journal":{"max_bytes":1073741824}}`})
	x.call(srv, config, req{headers: headersOf(id, "sk_wrong"), body: `{}`})
	// A scenario that holds a Go function has no JSON configuration.
	goSess, err := srv.m.Create()
	require.NoError(t, err)
	goSess.Chat("go").When(scenario.Func(func(*scenario.Request) bool { return true })).Responds("from Go")
	x.call(srv, route(http.MethodGet, "/admin-api/config"), req{headers: headersOf(goSess.ID(), goSess.Key())})
	x.call(srv, route(http.MethodGet, "/admin-api/chaos"), req{headers: headersOf(goSess.ID(), goSess.Key())})
	x.call(srv, route(http.MethodGet, "/admin-api/rate-limits"), req{headers: headersOf(goSess.ID(), goSess.Key())})
	reset := route(http.MethodPost, "/admin-api/reset")
	x.call(srv, reset, req{headers: headersOf(goSess.ID(), goSess.Key())})
	x.call(srv, reset, req{})
	x.call(srv, reset, req{headers: headersOf(goSess.ID(), "sk_wrong")})

	// Fork: a session reserving most of the budget cannot be forked.
	fork := route(http.MethodPost, "/admin-api/sessions/{id}/fork")
	fid, fkey := created(t, x.call(srv, fork, req{id: id, headers: headersOf(id, key), body: `{"name":"sub"}`}))
	x.call(srv, fork, req{id: id, headers: headersOf(id, key)})
	x.call(srv, fork, req{id: id, headers: headersOf(id, key), body: `{"name":""}`})
	x.call(srv, fork, req{id: id, headers: headersOf(id, "sk_wrong")})
	x.call(srv, fork, req{id: id, headers: headersOf(id, key), body: `{}`, contentType: "text/plain"})
	bid, bkey := created(t, x.call(srv, sessions, req{headers: m, body: `{"journal":{"max_bytes":300000000}}`}))
	x.call(srv, fork, req{id: bid, headers: headersOf(bid, bkey)})

	del := route(http.MethodDelete, "/admin-api/sessions/{id}")
	x.call(srv, del, req{id: fid, headers: headersOf(fid, fkey)})
	x.call(srv, del, req{id: fid, headers: headersOf(fid, fkey)})

	// The clock.
	x.call(srv, route(http.MethodGet, "/admin-api/clock"), req{headers: m})
	x.call(srv, route(http.MethodGet, "/admin-api/clock"), req{})
	x.call(srv, route(http.MethodGet, "/admin-api/clock"), req{headers: append(headersOf(id, key), m...)})
	advance := route(http.MethodPost, "/admin-api/clock/advance")
	x.call(srv, advance, req{headers: m, body: `{"duration":"20s"}`})
	x.call(srv, advance, req{headers: m, body: `{"duration":"-1s"}`})
	x.call(srv, advance, req{headers: m, body: `{}`, contentType: "text/plain"})
	x.call(srv, advance, req{body: `{"duration":"1s"}`})
	x.call(real, advance, req{headers: m, body: `{"duration":"1s"}`})

	// The description itself, without authorization.
	doc := x.call(srv, route(http.MethodGet, "/admin-api/openapi.json"), req{})
	assert.Equal(t, admin.OpenAPI(), doc.body)

	// The inspection routes: a session by its ID, unknown, with session
	// headers, without the key.
	for _, path := range []string{"", "/journal", "/scenarios", "/assertions", "/jobs"} {
		r := route(http.MethodGet, "/admin-api/sessions/{id}"+path)
		x.call(srv, r, req{id: id, headers: m})
		x.call(srv, r, req{id: "sess_unknown", headers: m})
		x.call(srv, r, req{id: id, headers: append(headersOf(id, key), m...)})
		x.call(srv, r, req{id: id})
	}

	// Shutting down: creation and forks are 503.
	srv.m.Close()
	x.call(srv, sessions, req{headers: m, body: `{}`})

	succeeded := map[admin.Route]bool{}
	for _, a := range x.answers {
		if a.status/100 == 2 {
			succeeded[a.route] = true
		}
		if a.status == http.StatusMethodNotAllowed || a.status == http.StatusNotFound && strings.Contains(string(a.body), "Invalid URL") {
			t.Errorf("%s %s: %d %s: the route is not served", a.route.Method, a.route.Path, a.status, a.body)
		}
		for _, p := range s.problems(a.route, a.status, a.contentType, a.body) {
			t.Errorf("%s %s answered %d: %s\n\tbody: %.300s", a.route.Method, a.route.Path, a.status, p, a.body)
		}
		if a.status == http.StatusCreated {
			assert.True(t, strings.HasPrefix(a.header.Get("Location"), "/admin-api/sessions/sess_"), "Location of %s", a.route.Path)
		}
	}
	for _, r := range s.operations() {
		assert.True(t, succeeded[r], "%s %s: never exercised with success", r.Method, r.Path)
	}
	statuses := map[int]bool{}
	for _, a := range x.answers {
		statuses[a.status] = true
	}
	for _, want := range []int{200, 201, 204, 400, 401, 404, 409, 413, 415, 503} {
		assert.True(t, statuses[want], "no answer was %d", want)
	}
}
