package llmtest

import (
	"errors"
	"fmt"
	"os"
)

// TransportMode says how clients reach a server: over a loopback socket, or
// in memory, calling its handler without any socket.
type TransportMode int

const (
	// DefaultTransport is the mode LLMTEST_TRANSPORT names, Loopback when
	// it names none.
	DefaultTransport TransportMode = iota
	// Loopback serves on a loopback port: any HTTP client on the machine
	// reaches URL().
	Loopback
	// InMemory opens no listener: the session clients, Client and
	// Transport call the handler in memory, and URL() is the fixed,
	// non-resolving InMemoryURL, which no other client reaches. Inside a
	// testing/synctest bubble every delay and pacing of a server started
	// in the bubble then runs on the bubble's virtual time.
	InMemory
)

// EnvTransport is the environment variable that sets the mode of every
// server whose options name none: "loopback" or "memory". It lets a whole
// suite run in either mode, for example
//
//	LLMTEST_TRANSPORT=memory go test ./...
const EnvTransport = "LLMTEST_TRANSPORT"

// InMemoryURL is the root URL of every in-memory server. The .invalid
// top-level domain never resolves (RFC 6761), so a client that is not
// given the server's transport fails at once rather than reaching
// something else.
const InMemoryURL = "http://llmtest.invalid"

// String names the mode as EnvTransport spells it.
func (m TransportMode) String() string {
	switch m {
	case DefaultTransport:
		return "default"
	case Loopback:
		return "loopback"
	case InMemory:
		return "memory"
	}
	return fmt.Sprintf("TransportMode(%d)", int(m))
}

// WithTransport chooses how clients reach the server; the default is
// DefaultTransport, from LLMTEST_TRANSPORT.
func WithTransport(mode TransportMode) Option {
	return optionFunc(func(s *settings) error {
		if mode < DefaultTransport || mode > InMemory {
			return fmt.Errorf("llmtest: WithTransport: unknown mode %d", int(mode))
		}
		if s.modeSet {
			return errors.New("llmtest: WithTransport given twice")
		}
		s.mode, s.modeSet = mode, true
		return nil
	})
}

// WithInMemory is WithTransport(InMemory).
func WithInMemory() Option { return WithTransport(InMemory) }

// resolveMode returns the mode a server runs in: the one its options chose,
// else the one EnvTransport names, else Loopback.
func resolveMode(mode TransportMode) (TransportMode, error) {
	if mode != DefaultTransport {
		return mode, nil
	}
	switch v := os.Getenv(EnvTransport); v {
	case "", "loopback":
		return Loopback, nil
	case "memory":
		return InMemory, nil
	default:
		return 0, fmt.Errorf("llmtest: %s=%q: want \"loopback\" or \"memory\"", EnvTransport, v)
	}
}
