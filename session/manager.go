package session

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/google/uuid"

	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/internal/server"
)

// ManagerConfig configures a Manager.
type ManagerConfig struct {
	// Endpoint is the server's root URL, such as "http://127.0.0.1:8080";
	// sessions derive their BaseURL from it.
	Endpoint string
	// ManagementKey is the bearer token of the default runtime, and so of
	// session creation. Empty leaves both unguarded.
	ManagementKey string
	// Startup is the configuration of the default runtime and the template
	// of every session.
	Startup Config
	// Bounds limit what the manager admits.
	Bounds Bounds
	// Transport is the base transport that session clients share. Nil uses
	// http.DefaultTransport.
	Transport http.RoundTripper
	// MaxRequestBytes bounds every request body the handler reads.
	MaxRequestBytes int64
}

// Manager admits, finds, configures and deletes sessions, within its bounds.
// It is safe for concurrent use.
type Manager struct {
	cfg      ManagerConfig
	fallback *runtime.Runtime // the default runtime, for requests without session headers
	// defaultBase is Startup with the management key as bearer token: the
	// base the default runtime's configuration documents are read over.
	defaultBase Config

	mu       sync.RWMutex
	sessions map[string]*entry // guarded by mu; by session ID
	reserved int64             // guarded by mu; sum of the sessions' reservations
	closed   bool              // guarded by mu
	defCfg   Config            // guarded by mu; the default runtime's configuration
}

// entry is the manager's record of one session.
type entry struct {
	session     *Session
	cfg         Config // as last configured; scripted scenarios live in the runtime
	reservation int64
}

// NewManager returns a manager with the given configuration. It fails if the
// startup configuration is invalid.
func NewManager(cfg ManagerConfig) (*Manager, error) {
	if err := cfg.Startup.Validate(); err != nil {
		return nil, fmt.Errorf("startup configuration: %w", err)
	}
	if cfg.Transport == nil {
		cfg.Transport = http.DefaultTransport
	}
	cfg.Endpoint = strings.TrimSuffix(cfg.Endpoint, "/")
	cfg.Startup = cfg.Startup.clone()
	m := &Manager{cfg: cfg, sessions: make(map[string]*entry)}
	m.defaultBase = cfg.Startup.clone()
	m.defaultBase.BearerToken = cfg.ManagementKey
	m.defCfg = m.defaultBase
	m.fallback = runtime.New(m.defaultBase.settings())
	return m, nil
}

// Handler returns the HTTP handler of the provider and admin APIs, backed by
// this manager.
func (m *Manager) Handler() http.Handler {
	return server.New(control{m}, server.Options{MaxRequestBytes: m.cfg.MaxRequestBytes})
}

// Bounds returns the manager's bounds.
func (m *Manager) Bounds() Bounds { return m.cfg.Bounds }

// Startup returns a copy of the startup configuration.
func (m *Manager) Startup() Config { return m.cfg.Startup.clone() }

// Create admits a session configured by opts applied over the startup
// configuration.
func (m *Manager) Create(opts ...Option) (*Session, error) {
	cfg := build(m.cfg.Startup, opts)
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := m.checkSize(&cfg); err != nil {
		return nil, err
	}
	return m.admit(cfg)
}

// checkSize enforces the per-session configuration limit.
func (m *Manager) checkSize(cfg *Config) error {
	if n := cfg.size(); n > m.cfg.Bounds.MaxConfigBytes {
		return fmt.Errorf("%w: %d bytes, limit %d", ErrConfigTooLarge, n, m.cfg.Bounds.MaxConfigBytes)
	}
	return nil
}

// admit reserves room for a validated configuration and starts its runtime.
func (m *Manager) admit(cfg Config) (*Session, error) {
	id, key := newID(), newKey()
	reservation := cfg.Reservation()
	rt := runtime.New(cfg.settings())
	s := &Session{m: m, id: id, key: key, rt: rt}
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case m.closed:
		return nil, ErrClosed
	case len(m.sessions) >= m.cfg.Bounds.MaxSessions:
		return nil, fmt.Errorf("%w: all %d sessions are in use", ErrCapacityExceeded, m.cfg.Bounds.MaxSessions)
	case m.reserved+reservation > m.cfg.Bounds.MaxReservedBytes:
		return nil, fmt.Errorf("%w: the session reserves %d bytes, %d of %d are free",
			ErrCapacityExceeded, reservation, m.cfg.Bounds.MaxReservedBytes-m.reserved, m.cfg.Bounds.MaxReservedBytes)
	}
	m.sessions[id] = &entry{session: s, cfg: cfg, reservation: reservation}
	m.reserved += reservation
	return s, nil
}

// Lookup returns the session id if key is its key. The key is compared in
// constant time.
func (m *Manager) Lookup(id, key string) (*Session, bool) {
	e, ok := m.find(id, key)
	if !ok {
		return nil, false
	}
	return e.session, true
}

func (m *Manager) find(id, key string) (*entry, bool) {
	m.mu.RLock()
	e, ok := m.sessions[id]
	m.mu.RUnlock()
	if !ok || subtle.ConstantTimeCompare([]byte(key), []byte(e.session.key)) != 1 {
		return nil, false
	}
	return e, true
}

// Delete retires the session id if key is its key: its capacity is released,
// requests in flight end with 409 llm_test_server_request_superseded, later
// ones get 404, and nothing is written into it again.
func (m *Manager) Delete(id, key string) error {
	m.mu.Lock()
	e, ok := m.sessions[id]
	if !ok || subtle.ConstantTimeCompare([]byte(key), []byte(e.session.key)) != 1 {
		m.mu.Unlock()
		return ErrNotFound
	}
	delete(m.sessions, id)
	m.reserved -= e.reservation
	m.mu.Unlock()
	e.session.rt.Retire()
	return nil
}

// configure replaces the configuration of session id (the default runtime
// when id is "") with cfg, if its reservation fits the budget. On any error
// nothing changes.
func (m *Manager) configure(id string, cfg Config) error {
	if err := m.checkSize(&cfg); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if id == "" {
		m.defCfg = cfg
		m.fallback.Configure(cfg.settings())
		return nil
	}
	e, ok := m.sessions[id]
	if !ok {
		return ErrNotFound
	}
	reservation := cfg.Reservation()
	if free := m.cfg.Bounds.MaxReservedBytes - m.reserved + e.reservation; reservation > free {
		return fmt.Errorf("%w: the new configuration reserves %d bytes, %d are free for this session",
			ErrCapacityExceeded, reservation, free)
	}
	m.reserved += reservation - e.reservation
	e.cfg, e.reservation = cfg, reservation
	e.session.rt.Configure(cfg.settings())
	return nil
}

// config returns the configuration of session id, or of the default runtime
// when id is "", with the scenarios as currently scripted.
func (m *Manager) config(id string) (Config, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var cfg Config
	var rt *runtime.Runtime
	if id == "" {
		cfg, rt = m.defCfg, m.fallback
	} else {
		e, ok := m.sessions[id]
		if !ok {
			return Config{}, ErrNotFound
		}
		cfg, rt = e.cfg, e.session.rt
	}
	cfg.Scenarios = rt.Settings().Scenarios
	return cfg.clone(), nil
}

// Len returns the number of live sessions.
func (m *Manager) Len() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return len(m.sessions)
}

// Reserved returns the bytes the live sessions reserve together.
func (m *Manager) Reserved() int64 {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.reserved
}

// Close retires every session and refuses new ones. Requests in flight end
// as if their session had been deleted.
func (m *Manager) Close() {
	m.mu.Lock()
	sessions := m.sessions
	m.sessions, m.reserved, m.closed = make(map[string]*entry), 0, true
	m.mu.Unlock()
	for _, e := range sessions {
		e.session.rt.Retire()
	}
	m.fallback.Retire()
}

// NewManagementKey returns a random management key: 256 bits, hex encoded.
func NewManagementKey() string { return "llmtest-" + randomHex(32) }

// newID returns a fresh session ID: a random (version 4) UUID after the
// "sess_" prefix. The ID only names the session; the key authorizes it.
func newID() string { return "sess_" + uuid.NewString() }

// newKey returns a fresh session key: 256 random bits.
func newKey() string { return "sk_sess_" + randomHex(32) }

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never fails: see crypto/rand.Read
	return hex.EncodeToString(b)
}

// isNotFound reports whether err means the session is gone.
func isNotFound(err error) bool { return errors.Is(err, ErrNotFound) }
