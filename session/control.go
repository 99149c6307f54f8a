package session

import (
	"errors"
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/admin"
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

// control adapts a Manager to the HTTP handler: it parses configuration
// documents and translates session errors into the API's error envelope.
type control struct{ m *Manager }

func (c control) Default() *runtime.Runtime { return c.m.fallback() }

func (c control) Lookup(id, key string) (*runtime.Runtime, bool) {
	e, ok := c.m.find(id, key)
	if !ok {
		return nil, false
	}
	e.touch(c.m, c.m.cfg.Clock.Now()) // a request selects the session: a use (see Info)
	return e.session.rt, true
}

func (c control) Create(body []byte) (admin.Created, error) {
	if err := c.checkBodySize(body); err != nil {
		return admin.Created{}, err
	}
	cfg, err := ParseConfig(body, c.m.cfg.Startup)
	if err != nil {
		return admin.Created{}, c.apiError(err)
	}
	s, err := c.m.admit(cfg)
	if err != nil {
		return admin.Created{}, c.apiError(err)
	}
	return admin.Created{ID: s.id, Key: s.key, ReservationBytes: cfg.Reservation()}, nil
}

func (c control) Delete(id, key string) error {
	return c.apiError(c.m.Delete(id, key))
}

func (c control) Configure(id string, body []byte) error {
	if err := c.checkBodySize(body); err != nil {
		return err
	}
	base := c.m.cfg.Startup
	if id == "" {
		base = c.m.defaultBase
	}
	cfg, err := ParseConfig(body, base)
	if err != nil {
		return c.apiError(err)
	}
	if id == "" && c.m.cfg.ManagementKey != "" && cfg.APIKey == "" {
		// Without a key anyone could create sessions.
		return apierr.InvalidConfiguration("api_key",
			"api_key: the default runtime guards session creation and must keep a key")
	}
	return c.apiError(c.m.configure(id, cfg))
}

// AddScenarios merges the scenarios of a POST /admin-api/scenarios body
// into session id's, or the default runtime's when id is "", checked like a
// configuration: valid, within the size limit and within the budget, or
// nothing changes.
func (c control) AddScenarios(id string, body []byte) error {
	if err := c.checkBodySize(body); err != nil {
		return err
	}
	scenarios, derr := admin.DecodeScenarioList(body)
	if derr != nil {
		return derr
	}
	return c.apiError(c.m.addScenarios(id, scenarios))
}

// checkBodySize refuses, before it is read, a document whose compact form
// is over twice the per-session limit: no configuration it could hold
// would fit. The limit itself applies to the configuration read (see
// Config.Size), the same way on every path.
func (c control) checkBodySize(body []byte) error {
	if limit := c.m.cfg.Bounds.MaxConfigBytes; compactLen(body) > 2*limit {
		return apierr.ConfigurationTooLarge(limit)
	}
	return nil
}

// apiError translates a session error into the API's error vocabulary.
func (c control) apiError(err error) error {
	var cfgErr *ConfigError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &cfgErr):
		return apierr.InvalidConfiguration(cfgErr.Field, cfgErr.describe())
	case errors.Is(err, ErrClosed):
		return apierr.ShuttingDown()
	case errors.Is(err, ErrNotFound):
		return apierr.SessionNotFound()
	case errors.Is(err, ErrCapacityExceeded):
		return apierr.SessionCapacityExceeded(detail(err, ErrCapacityExceeded))
	case errors.Is(err, ErrConfigTooLarge):
		return apierr.ConfigurationTooLarge(c.m.cfg.Bounds.MaxConfigBytes)
	default:
		return err
	}
}

// detail returns what err says beyond its sentinel, as a sentence for the
// API's error message.
func detail(err, sentinel error) string {
	msg := strings.TrimPrefix(err.Error(), sentinel.Error()+": ")
	if msg == "" {
		return msg
	}
	return strings.ToUpper(msg[:1]) + msg[1:] + "."
}
