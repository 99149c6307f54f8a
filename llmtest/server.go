package llmtest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/memhttp"
	"github.com/llmtestserver/llmtestserver/internal/server"
	"github.com/llmtestserver/llmtestserver/session"
)

// TB is the part of testing.TB the package uses. *testing.T, *testing.B
// and *testing.F satisfy it, and it holds what testify's require.TestingT
// and assert.TestingT ask for (Errorf, FailNow), so a helper written
// against TB can hand its t to require and assert.
type TB interface {
	Helper()
	Cleanup(func())
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	FailNow()
	Logf(format string, args ...any)
	Failed() bool
	// Name names the test, for the journal artifacts of a failed one.
	Name() string
}

// Server is a fake LLM provider, reached over a loopback port or, in
// InMemory mode, through an in-memory transport.
type Server struct {
	manager *session.Manager
	mode    TransportMode
	url     string
	http    *httptest.Server   // Loopback only
	mem     *memhttp.Transport // InMemory only
	// transport is the base transport of every client: a clone of
	// http.DefaultTransport, or mem.
	transport http.RoundTripper
	client    *http.Client
	key       string
	strict    bool
	// artifactsDir is where failed tests' journals go; "" for nowhere.
	artifactsDir string
}

// New starts a server. The caller must Close it.
func New(opts ...Option) (*Server, error) {
	s := defaultSettings()
	for _, o := range opts {
		if err := o.apply(&s); err != nil {
			return nil, err
		}
	}
	if !s.managementKeySet {
		s.managementKey = session.NewManagementKey()
	}
	startup, err := session.NewConfig(s.startup...)
	if err != nil {
		return nil, fmt.Errorf("llmtest: WithDefaults: %w", err)
	}
	mode, err := resolveMode(s.mode)
	if err != nil {
		return nil, err
	}
	srv := &Server{mode: mode, key: s.managementKey, strict: s.strict, artifactsDir: resolveArtifactsDir(s)}
	// The listener comes first: sessions need the allocated address. In
	// memory there is none, and the handler is known only once the manager
	// exists.
	var ts *httptest.Server
	var handler lateHandler
	if mode == InMemory {
		srv.mem = memhttp.New(&handler)
		srv.url, srv.transport = InMemoryURL, srv.mem
	} else {
		ts = httptest.NewUnstartedServer(nil)
		srv.url = "http://" + ts.Listener.Addr().String()
		srv.transport = http.DefaultTransport.(*http.Transport).Clone()
	}
	manager, err := session.NewManager(session.ManagerConfig{
		Endpoint:        srv.url,
		ManagementKey:   s.managementKey,
		Startup:         startup,
		Bounds:          s.bounds,
		Transport:       srv.transport,
		MaxRequestBytes: s.maxRequestBytes,
		Clock:           s.clock,
		Dashboard:       s.dashboard,
	})
	if err != nil {
		if ts != nil {
			ts.Listener.Close()
		}
		return nil, err
	}
	srv.manager = manager
	srv.client = &http.Client{Transport: srv.transport}
	if mode == InMemory {
		handler.h = manager.Handler()
		return srv, nil
	}
	ts.Config.Handler = manager.Handler()
	// Above the handler's own header limit, so that oversized headers get
	// 431 in the error envelope rather than net/http's plain text.
	ts.Config.MaxHeaderBytes = server.HTTPMaxHeaderBytes
	ts.Start()
	srv.http = ts
	return srv, nil
}

// lateHandler is the handler of an in-memory transport, set once the
// manager that provides it exists and before any request.
type lateHandler struct{ h http.Handler }

func (l *lateHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) { l.h.ServeHTTP(w, r) }

// NewServer starts a server that t.Cleanup closes. It fails the test if the
// server cannot start.
func NewServer(t TB, opts ...Option) *Server {
	t.Helper()
	s, err := New(opts...)
	if err != nil {
		t.Fatalf("llmtest.NewServer: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

// URL returns the server's root URL, such as "http://127.0.0.1:41234", or
// InMemoryURL in InMemory mode, which only the server's own clients and
// transport reach.
func (s *Server) URL() string { return s.url }

// TransportMode returns the mode the server runs in: Loopback or InMemory.
func (s *Server) TransportMode() TransportMode { return s.mode }

// Client returns an HTTP client that reaches the server without session
// headers, in either mode: its requests go to the default runtime and the
// admin API (session creation needs the management key). Session requests
// go through the session's own client (session.Session.HTTPClient).
func (s *Server) Client() *http.Client { return s.client }

// Transport returns the base transport of every client of the server,
// which adds no session headers: give it to session.Session.WrapTransport
// or to a client of your own, for example to set a timeout.
func (s *Server) Transport() http.RoundTripper { return s.transport }

// ManagementKey returns the bearer token that guards session creation and
// the default runtime.
func (s *Server) ManagementKey() string { return s.key }

// Manager returns the server's session manager.
func (s *Server) Manager() *session.Manager { return s.manager }

// OpenSession admits a session configured by opts over the startup
// configuration. The caller must Close it.
func (s *Server) OpenSession(opts ...session.Option) (*session.Session, error) {
	return s.manager.Create(opts...)
}

// NewSession admits a session that t.Cleanup closes. It fails the test if
// the session cannot be admitted. At cleanup, a server started WithStrict
// checks the session's assertions (CheckAssertions), and a failed test logs
// the session's transcript and writes its journal to the artifacts
// directory, if there is one (WithArtifactsDir, LLMTEST_ARTIFACTS_DIR).
func (s *Server) NewSession(t TB, opts ...session.Option) *session.Session {
	t.Helper()
	sess, err := s.OpenSession(opts...)
	if err != nil {
		t.Fatalf("llmtest: NewSession: %v", err)
	}
	s.closeAtCleanup(t, sess, "session "+sess.ID())
	return sess
}

// closeAtCleanup ends sess with t: a server started WithStrict checks its
// assertions, a failed test logs its transcript, under label, and leaves
// its journal in the artifacts directory, and the session is closed.
func (s *Server) closeAtCleanup(t TB, sess *session.Session, label string) {
	// A helper too, so that what the cleanup reports is reported at the
	// test's line that called NewSession or Fork.
	t.Helper()
	t.Cleanup(func() {
		// Failures reported here point at the test, not at this file.
		t.Helper()
		if s.strict {
			CheckAssertions(t, sess)
		}
		if t.Failed() && sess.Journal().Len() > 0 {
			t.Logf("llmtest: %s transcript:\n%s", label, Transcript(sess))
		}
		s.writeArtifacts(t, sess)
		sess.Close()
	})
}

// CloseGrace is how long Close waits for the handlers in flight before it
// closes their clients' connections.
const CloseGrace = time.Second

// Close retires every session, ending requests in flight, and shuts the
// server down, waiting for its handlers. It is idempotent.
//
// Close returns within about CloseGrace plus a few milliseconds whatever the
// clients do: requests of retired sessions end at once (a delayed reply with
// 409), a client that never reads its answer or never finishes sending its
// body is cut off when its session is retired or, for requests tied to no
// session, after CloseGrace, when Close closes every client connection still
// open (in memory: ends every request still in flight).
func (s *Server) Close() {
	s.manager.Close()
	if s.mem != nil {
		ctx, cancel := context.WithTimeout(context.Background(), CloseGrace)
		defer cancel()
		s.mem.Shutdown(ctx)
		s.mem.Close()
		return
	}
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		s.http.Close()
	}()
	timer := time.NewTimer(CloseGrace)
	defer timer.Stop()
	select {
	case <-closed:
	case <-timer.C:
		s.http.CloseClientConnections()
		<-closed
	}
	s.transport.(*http.Transport).CloseIdleConnections()
}
