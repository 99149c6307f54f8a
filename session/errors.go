package session

import "errors"

// Errors of session management, for errors.Is.
var (
	// ErrNotFound: no session has that ID and key.
	ErrNotFound = errors.New("session: not found")
	// ErrCapacityExceeded: the session count or the reserved bytes would
	// pass the server's bounds.
	ErrCapacityExceeded = errors.New("session: capacity exceeded")
	// ErrInvalidConfig: the configuration cannot be applied; the error is a
	// *ConfigError naming the field.
	ErrInvalidConfig = errors.New("session: invalid configuration")
	// ErrConfigTooLarge: the serialized configuration is over the
	// per-session limit.
	ErrConfigTooLarge = errors.New("session: configuration too large")
	// ErrClosed: the manager was closed.
	ErrClosed = errors.New("session: manager closed")
)
