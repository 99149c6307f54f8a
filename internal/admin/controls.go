package admin

import "github.com/llmtestserver/llmtestserver/clock"

// Controls is the part of Sessions behind the routes that read and change
// a runtime beyond its whole configuration, fork sessions and read the
// clock. As in Sessions, an id of "" means the default runtime, and errors
// are *apierr.Error values, written as they are.
type Controls interface {
	// ConfigJSON returns the configuration of session id as JSON, the
	// document PUT /admin-api/config takes back as it is; or, when member
	// names one ("chaos", "rate_limits"), that member alone, null when it
	// is unset.
	ConfigJSON(id, member string) ([]byte, error)
	// SetChaos replaces the chaos rules of session id with the body, the
	// configuration's "chaos" member (null removes them), checked like a
	// configuration; no other state changes.
	SetChaos(id string, body []byte) error
	// SetRateLimits does the same for the "rate_limits" member.
	SetRateLimits(id string, body []byte) error
	// ClearScenarios drops the replies left of session id's scenario name,
	// or of all its scenarios when name is "", as scenario.Builder.Clear
	// does.
	ClearScenarios(id, name string) error
	// Fork admits a fork of session id if key is its key, named name
	// ("" names it by its ordinal), as session.Session.Fork does.
	Fork(id, key, name string) (Created, error)
	// Clock is the clock the runtimes run on.
	Clock() clock.Clock
}
