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
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
	"github.com/llmtestserver/llmtestserver/internal/server"
)

// ManagerConfig configures a Manager. Its zero value is usable: every zero
// field means its default.
type ManagerConfig struct {
	// Endpoint is the server's root URL, such as "http://127.0.0.1:8080";
	// sessions derive their BaseURL from it.
	Endpoint string
	// ManagementKey is the bearer token of the default runtime, and so of
	// session creation. Empty leaves both unguarded.
	ManagementKey string
	// Startup is the configuration of the default runtime and the template
	// of every session. The zero Config means DefaultConfig().
	Startup Config
	// Bounds limit what the manager admits. Each zero field means its value
	// in DefaultBounds().
	Bounds Bounds
	// Transport is the base transport that session clients share. Nil uses
	// http.DefaultTransport.
	Transport http.RoundTripper
	// MaxRequestBytes bounds every request body the handler reads; larger
	// ones get 413. Zero means DefaultMaxRequestBytes.
	MaxRequestBytes int64
	// Clock is the time every runtime of the manager runs on. Nil means
	// the real clock.
	Clock clock.Clock
	// Dashboard serves the browser dashboard at / (its assets under
	// /dashboard/) to the holder of the management key, as a bearer token
	// or as the password of HTTP Basic auth. Without it / is the
	// provider's 404.
	Dashboard bool
}

// DefaultMaxRequestBytes is the request body bound of a ManagerConfig that
// sets none: 32 MiB.
const DefaultMaxRequestBytes = 32 << 20

// withDefaults returns cfg with its zero fields set to their defaults.
func (cfg ManagerConfig) withDefaults() ManagerConfig {
	if cfg.Startup.isZero() {
		cfg.Startup = DefaultConfig()
	}
	def := DefaultBounds()
	if cfg.Bounds.MaxSessions == 0 {
		cfg.Bounds.MaxSessions = def.MaxSessions
	}
	if cfg.Bounds.MaxReservedBytes == 0 {
		cfg.Bounds.MaxReservedBytes = def.MaxReservedBytes
	}
	if cfg.Bounds.MaxConfigBytes == 0 {
		cfg.Bounds.MaxConfigBytes = def.MaxConfigBytes
	}
	if cfg.MaxRequestBytes == 0 {
		cfg.MaxRequestBytes = DefaultMaxRequestBytes
	}
	if cfg.Transport == nil {
		cfg.Transport = http.DefaultTransport
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.Real()
	}
	return cfg
}

// Manager admits, finds, configures and deletes sessions, within its bounds.
// It is safe for concurrent use.
type Manager struct {
	cfg ManagerConfig
	// defaultBase is Startup with the management key as API key: the base
	// the default runtime's configuration documents are read over.
	defaultBase Config

	mu       sync.RWMutex
	sessions map[string]*entry // guarded by mu; by session ID
	// def is the record of the default runtime, which serves requests
	// without session headers: in no listing, never deleted, but priced
	// like a session. Its fields are guarded by mu, as a session's are.
	def      *entry
	reserved int64 // guarded by mu; sum of the reservations, the default runtime's included
	closed   bool  // guarded by mu
	// accesses numbers the sessions' accesses, for the working set's order
	// (see workingset.go).
	accesses atomic.Uint64
}

// entry is the manager's record of one session.
type entry struct {
	session *Session
	// cfg is the configuration as last configured, without its scenarios:
	// those live in the runtime only, so that they are held once.
	cfg         Config
	size        int64 // the configuration's Size, scenarios included
	reservation int64
	created     time.Time     // on the manager's clock
	access      access        // the last access (see workingset.go)
	forks       atomic.Uint64 // forks made of the session, for their ID seeds (see fork.go)
	// gen counts the changes of configuration and scenarios, each made
	// under the manager's lock, so that a fork copied outside it can tell
	// whether its copy matches cfg (see fork.go).
	gen uint64
}

// NewManager returns a manager with the given configuration, its zero
// fields set to their defaults. It fails if the startup configuration is
// invalid, larger than the size limit or reserving more than the budget
// (the default runtime runs on it, and takes its share of the budget), or
// if a bound is negative.
func NewManager(cfg ManagerConfig) (*Manager, error) {
	cfg = cfg.withDefaults()
	cfg.Startup.normalize()
	if err := cfg.Startup.Validate(); err != nil {
		return nil, fmt.Errorf("startup configuration: %w", err)
	}
	if b := cfg.Bounds; b.MaxSessions < 0 || b.MaxReservedBytes < 0 || b.MaxConfigBytes < 0 || cfg.MaxRequestBytes < 0 {
		return nil, errors.New("session: bounds and MaxRequestBytes must not be negative")
	}
	cfg.Endpoint = strings.TrimSuffix(cfg.Endpoint, "/")
	cfg.Startup = cfg.Startup.clone()
	m := &Manager{cfg: cfg, sessions: make(map[string]*entry)}
	m.defaultBase = cfg.Startup.clone()
	m.defaultBase.APIKey = cfg.ManagementKey
	size, reservation := m.defaultBase.Size(), m.defaultBase.Reservation()
	if err := m.checkSizeOf(size); err != nil {
		return nil, fmt.Errorf("startup configuration: %w", err)
	}
	if reservation > cfg.Bounds.MaxReservedBytes {
		return nil, fmt.Errorf("startup configuration: %w: the default runtime reserves %d bytes, the budget is %d",
			ErrCapacityExceeded, reservation, cfg.Bounds.MaxReservedBytes)
	}
	m.def = &entry{session: &Session{m: m, rt: m.newRuntime(&m.defaultBase)},
		cfg: m.defaultBase.withoutScenarios(), size: size, reservation: reservation}
	m.reserved = reservation
	return m, nil
}

// entryOf returns the record of session id, or of the default runtime when
// id is "". m.mu must be held.
func (m *Manager) entryOf(id string) (*entry, bool) {
	if id == "" {
		return m.def, true
	}
	e, ok := m.sessions[id]
	return e, ok
}

// fallback is the default runtime.
func (m *Manager) fallback() *runtime.Runtime { return m.def.session.rt }

// newRuntime starts a runtime configured by cfg, on the manager's clock.
func (m *Manager) newRuntime(cfg *Config) *runtime.Runtime {
	s := cfg.settings()
	s.Clock = m.cfg.Clock
	return runtime.New(s)
}

// Clock returns the clock the manager's runtimes run on.
func (m *Manager) Clock() clock.Clock { return m.cfg.Clock }

// Handler returns the HTTP handler of the provider and admin APIs, backed by
// this manager.
func (m *Manager) Handler() http.Handler {
	return server.New(control{m}, server.Options{MaxRequestBytes: m.cfg.MaxRequestBytes,
		MaxConfigBytes: m.cfg.Bounds.MaxConfigBytes, Dashboard: m.cfg.Dashboard})
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
	return m.admit(cfg)
}

// checkSizeOf enforces the per-session configuration limit on a Size.
func (m *Manager) checkSizeOf(size int64) error {
	if size > m.cfg.Bounds.MaxConfigBytes {
		return fmt.Errorf("%w: %d bytes, limit %d", ErrConfigTooLarge, size, m.cfg.Bounds.MaxConfigBytes)
	}
	return nil
}

// checkReservation reports whether session e may reserve reservation
// bytes in place of what it reserves now. m.mu must be held.
func (m *Manager) checkReservation(e *entry, reservation int64) error {
	if free := m.cfg.Bounds.MaxReservedBytes - m.reserved + e.reservation; reservation > free {
		return fmt.Errorf("%w: the new configuration reserves %d bytes, %d are free for this session",
			ErrCapacityExceeded, reservation, free)
	}
	return nil
}

// admit checks the size of a validated configuration, reserves room for it
// and starts its runtime.
func (m *Manager) admit(cfg Config) (*Session, error) {
	size := cfg.Size()
	if err := m.checkSizeOf(size); err != nil {
		return nil, err
	}
	s := &Session{m: m, id: newID(), key: newKey(), rt: m.newRuntime(&cfg)}
	e := &entry{session: s, cfg: cfg.withoutScenarios(), size: size, reservation: cfg.Reservation()}
	if err := m.enter(e); err != nil {
		return nil, err
	}
	return s, nil
}

// enter admits the session of e if the manager's bounds allow it, as
// created and last accessed now.
func (m *Manager) enter(e *entry) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case m.closed:
		return ErrClosed
	case len(m.sessions) >= m.cfg.Bounds.MaxSessions:
		return fmt.Errorf("%w: all %d sessions are in use", ErrCapacityExceeded, m.cfg.Bounds.MaxSessions)
	case m.reserved+e.reservation > m.cfg.Bounds.MaxReservedBytes:
		return fmt.Errorf("%w: the session reserves %d bytes, %d of %d are free",
			ErrCapacityExceeded, e.reservation, m.cfg.Bounds.MaxReservedBytes-m.reserved, m.cfg.Bounds.MaxReservedBytes)
	}
	e.created = m.cfg.Clock.Now()
	e.touch(m, e.created)
	m.sessions[e.session.id] = e
	m.reserved += e.reservation
	return nil
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
	size := cfg.Size()
	if err := m.checkSizeOf(size); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.entryOf(id)
	if !ok {
		return ErrNotFound
	}
	reservation := cfg.Reservation()
	if err := m.checkReservation(e, reservation); err != nil {
		return err
	}
	m.reserved += reservation - e.reservation
	e.cfg, e.size, e.reservation = cfg.withoutScenarios(), size, reservation
	e.gen++
	e.session.rt.Configure(cfg.settings())
	return nil
}

// config returns the configuration of session id, or of the default runtime
// when id is "", with the scenarios as currently scripted.
func (m *Manager) config(id string) (Config, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	e, ok := m.entryOf(id)
	if !ok {
		return Config{}, ErrNotFound
	}
	cfg := e.cfg
	cfg.Scenarios = answering(e.session.rt.Settings().Scenarios)
	return cfg.clone(), nil
}

// reservation returns what session id reserves, or 0 if it is gone.
func (m *Manager) reservation(id string) int64 {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if e, ok := m.sessions[id]; ok {
		return e.reservation
	}
	return 0
}

// Len returns the number of live sessions.
func (m *Manager) Len() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return len(m.sessions)
}

// Reserved returns the bytes the live sessions and the default runtime
// reserve together.
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
	m.fallback().Retire()
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
