package llmtest

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/session"
)

// Option configures a Server.
type Option interface {
	apply(*settings) error
}

type optionFunc func(*settings) error

func (f optionFunc) apply(s *settings) error { return f(s) }

// settings collects what the options chose.
type settings struct {
	managementKey    string
	managementKeySet bool
	bounds           session.Bounds
	startup          []session.Option
	maxRequestBytes  int64
	strict           bool
	clock            clock.Clock // nil: the real clock
	mode             TransportMode
	modeSet          bool
	artifactsDir     string
	artifactsDirSet  bool
	dashboard        bool // WithDashboard
}

func defaultSettings() settings {
	return settings{bounds: session.DefaultBounds(), maxRequestBytes: DefaultMaxRequestBytes}
}

// DefaultMaxRequestBytes bounds request bodies unless WithMaxRequestBytes
// says otherwise.
const DefaultMaxRequestBytes = 32 << 20

// WithManagementKey sets the management key, the bearer token that guards
// session creation and the default runtime, instead of a generated one.
func WithManagementKey(key string) Option {
	return optionFunc(func(s *settings) error {
		if key == "" {
			return errors.New("llmtest: WithManagementKey: the key must not be empty")
		}
		if s.managementKeySet {
			return errors.New("llmtest: WithManagementKey given twice")
		}
		s.managementKey, s.managementKeySet = key, true
		return nil
	})
}

// WithBounds sets the admission bounds: session count, reserved bytes and
// configuration size. The default is session.DefaultBounds().
func WithBounds(b session.Bounds) Option {
	return optionFunc(func(s *settings) error {
		if b.MaxSessions < 1 || b.MaxReservedBytes < 1 || b.MaxConfigBytes < 1 {
			return errors.New("llmtest: WithBounds: every bound must be positive")
		}
		s.bounds = b
		return nil
	})
}

// WithDefaults configures the startup configuration: that of the default
// runtime, and the template every session starts from.
func WithDefaults(opts ...session.Option) Option {
	return optionFunc(func(s *settings) error {
		s.startup = append(s.startup, opts...)
		return nil
	})
}

// WithMaxRequestBytes bounds request bodies; larger ones get 413.
func WithMaxRequestBytes(n int64) Option {
	return optionFunc(func(s *settings) error {
		if n < 1 {
			return errors.New("llmtest: WithMaxRequestBytes: the limit must be positive")
		}
		s.maxRequestBytes = n
		return nil
	})
}

// WithStrict makes every session from NewSession check its assertions at
// cleanup, as CheckAssertions does: the test fails if a request matched no
// scenario, a structured output failed its schema, a reply contradicted its
// request, or a scripted reply was never used. The errors are reported at
// the test's NewSession line (Go attributes a helper cleanup's failures to
// the line that registered it); inside them, each unused reply names the
// line that scripted it and each unmatched request the scenarios it tried.
func WithStrict() Option {
	return optionFunc(func(s *settings) error {
		s.strict = true
		return nil
	})
}

// WithArtifactsDir names the directory where, when a test fails, the
// cleanup of each session it opened with NewSession writes the session's
// journal as JSON Lines (see JournalArtifactVersion), in
// <dir>/<test name>/<session ID>.jsonl. It wins over LLMTEST_ARTIFACTS_DIR
// (EnvArtifactsDir); an empty dir writes nothing, whatever the variable
// says. A relative dir is made absolute when the server starts.
func WithArtifactsDir(dir string) Option {
	return optionFunc(func(s *settings) error {
		if s.artifactsDirSet {
			return errors.New("llmtest: WithArtifactsDir given twice")
		}
		s.artifactsDir, s.artifactsDirSet = dir, true
		return nil
	})
}

// resolveArtifactsDir returns the directory journal artifacts go to: the
// one the options chose, else the one EnvArtifactsDir names, else none;
// absolute, so that a test that changes its working directory (t.Chdir)
// still writes where the run asked.
func resolveArtifactsDir(s settings) string {
	dir := s.artifactsDir
	if !s.artifactsDirSet {
		dir = os.Getenv(EnvArtifactsDir)
	}
	if dir == "" {
		return ""
	}
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return dir
}
