package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/internal/admin"
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/plainjson"
	"github.com/llmtestserver/llmtestserver/scenario"
)

// ConfigJSON gives the admin API the configuration of session id, or of
// the default runtime when id is "", as GET /admin-api/config answers it:
// Session.Config's JSON, which PUT /admin-api/config takes back as it is.
func (c control) ConfigJSON(id, member string) ([]byte, error) {
	cfg, err := c.m.config(id)
	if err != nil {
		return nil, c.apiError(err)
	}
	var v any = cfg
	switch member {
	case "":
	case "chaos":
		v = cfg.Chaos
	case "rate_limits":
		v = cfg.RateLimits
	default:
		return nil, apierr.Internal()
	}
	b, err := plainjson.Marshal(v)
	if errors.Is(err, scenario.ErrInProcessOnly) {
		return nil, &apierr.Error{Status: http.StatusConflict, Code: "configuration_in_process_only",
			Message: "The configuration holds a Go function (a scenario.Func match or a Go responder), which works in-process only and cannot be sent as JSON. GET /admin-api/scenarios lists such scenarios by name."}
	}
	return b, err
}

// SetChaos replaces the chaos rules of session id (the default runtime
// when id is "") with those of body, the configuration's "chaos" member
// (null removes them), checked like a configuration. The other state of
// the runtime stays: only the rules' counters and draws start again.
func (c control) SetChaos(id string, body []byte) error {
	cfg, err := c.parsePart(id, "chaos", body)
	if err != nil {
		return err
	}
	return c.apiError(c.m.setChaos(id, cfg.Chaos))
}

// SetRateLimits replaces the rate limits of session id (the default
// runtime when id is "") with those of body, the configuration's
// "rate_limits" member (null removes them), checked like a configuration.
// The other state of the runtime stays: only the buckets refill.
func (c control) SetRateLimits(id string, body []byte) error {
	cfg, err := c.parsePart(id, "rate_limits", body)
	if err != nil {
		return err
	}
	return c.apiError(c.m.setRateLimits(id, cfg.RateLimits))
}

// parsePart reads body as the configuration's member field, alone, over
// the startup configuration without rate limits and chaos rules, so that
// the member read replaces the current one as a whole.
func (c control) parsePart(id, field string, body []byte) (Config, error) {
	if err := c.checkBodySize(body); err != nil {
		return Config{}, err
	}
	if !json.Valid(body) {
		// Checked before body goes inside a document, where anything but
		// one JSON value could set other fields.
		return Config{}, apierr.InvalidConfiguration(field, field+": the body must be one JSON object, or null")
	}
	base := c.m.cfg.Startup.withoutScenarios()
	if id == "" {
		base = c.m.defaultBase.withoutScenarios()
	}
	base.RateLimits, base.Chaos = nil, nil
	doc := make([]byte, 0, len(body)+len(field)+5)
	doc = append(append(append(append(doc, `{"`...), field...), `":`...), body...)
	doc = append(doc, '}')
	cfg, err := ParseConfig(doc, base)
	if err != nil {
		return Config{}, c.apiError(err)
	}
	return cfg, nil
}

// ClearScenarios drops the replies left of session id's scenario name (the
// default runtime's when id is ""), or of every scenario when name is "",
// as scenario.Builder.Clear does.
func (c control) ClearScenarios(id, name string) error {
	found, err := c.m.clearScenarios(id, name)
	if err != nil {
		return c.apiError(err)
	}
	if !found {
		return &apierr.Error{Status: http.StatusBadRequest, Code: "invalid_query_parameter", Param: "name",
			Message: fmt.Sprintf("No scenario is named %q: GET /admin-api/scenarios lists them.", name)}
	}
	return nil
}

// Fork admits a fork of session id, if key is its key, named name for its
// ID seed ("" names it by its ordinal), as Session.Fork does.
func (c control) Fork(id, key, name string) (admin.Created, error) {
	e, ok := c.m.find(id, key)
	if !ok {
		return admin.Created{}, apierr.SessionNotFound()
	}
	e.touch(c.m, c.m.cfg.Clock.Now()) // an admin call on the session: a use (see Info)
	var opts []ForkOption
	if name != "" {
		opts = append(opts, ForkName(name))
	}
	f, err := e.session.Fork(opts...)
	if err != nil {
		return admin.Created{}, c.apiError(err)
	}
	return admin.Created{ID: f.id, Key: f.key, ReservationBytes: f.Reservation()}, nil
}

// Clock gives the admin API the clock the manager's runtimes run on.
func (c control) Clock() clock.Clock { return c.m.cfg.Clock }
