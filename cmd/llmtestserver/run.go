package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/server"
	"github.com/llmtestserver/llmtestserver/session"
)

// envManagementKey names the environment variable that supplies the
// management key when -management-key is not given.
const envManagementKey = "LLMTEST_MANAGEMENT_KEY"

// defaultMaxRequestBytes bounds request bodies unless -max-request-bytes
// says otherwise.
const defaultMaxRequestBytes = 32 << 20

// settings is what the command line and the environment chose.
type settings struct {
	addr            string
	managementKey   string
	keyGenerated    bool // the key was generated, so it must be printed
	bounds          session.Bounds
	maxRequestBytes int64
	shutdownTimeout time.Duration
	// Connection timeouts; 0 disables each.
	readHeaderTimeout time.Duration
	readTimeout       time.Duration // of a request body
	writeTimeout      time.Duration // of each write of an answer
	idleTimeout       time.Duration
}

// parseArgs reads the flags in args over the defaults; getenv supplies the
// management key when no flag does. It returns flag.ErrHelp, after writing
// the usage to stdout, when asked for help.
func parseArgs(args []string, getenv func(string) (string, bool), stdout io.Writer) (settings, error) {
	fs := flag.NewFlagSet("llmtestserver", flag.ContinueOnError)
	// Errors are returned, not printed: the caller decides where they go.
	fs.SetOutput(io.Discard)
	def := session.DefaultBounds()
	var s settings
	fs.StringVar(&s.addr, "addr", "127.0.0.1:8080", "listen `address`; port 0 picks a free port")
	fs.StringVar(&s.managementKey, "management-key", "",
		"bearer token that guards session creation and the default runtime\n(default: $"+envManagementKey+", else a generated key)")
	fs.IntVar(&s.bounds.MaxSessions, "max-sessions", def.MaxSessions, "most sessions alive at once")
	fs.Int64Var(&s.bounds.MaxReservedBytes, "max-reserved-bytes", def.MaxReservedBytes,
		"admission budget of all sessions together, in bytes")
	fs.Int64Var(&s.bounds.MaxConfigBytes, "max-config-bytes", def.MaxConfigBytes,
		"largest configuration of one session, serialized as JSON, in bytes")
	fs.Int64Var(&s.maxRequestBytes, "max-request-bytes", defaultMaxRequestBytes, "largest request body, in bytes")
	fs.DurationVar(&s.shutdownTimeout, "shutdown-timeout", 5*time.Second,
		"how long SIGINT or SIGTERM waits for requests in flight")
	fs.DurationVar(&s.readHeaderTimeout, "read-header-timeout", 10*time.Second,
		"longest a client may take to send a request's headers (0: no limit)")
	fs.DurationVar(&s.readTimeout, "read-timeout", time.Minute,
		"longest a client may take to send a request's body (0: no limit)")
	fs.DurationVar(&s.writeTimeout, "write-timeout", time.Minute,
		"longest one write of an answer may wait for a client that does not read;\nan answer may take longer as long as it flows (0: no limit)")
	fs.DurationVar(&s.idleTimeout, "idle-timeout", 2*time.Minute,
		"longest a kept-alive connection may wait for its next request (0: no limit)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stdout)
			fmt.Fprintln(stdout, "Usage: llmtestserver [flags]")
			fs.PrintDefaults()
		}
		return settings{}, err
	}
	if fs.NArg() > 0 {
		return settings{}, fmt.Errorf("unexpected argument %q: llmtestserver takes only flags", fs.Arg(0))
	}
	keyFlag := false
	fs.Visit(func(f *flag.Flag) { keyFlag = keyFlag || f.Name == "management-key" })
	switch {
	case keyFlag && s.managementKey == "":
		return settings{}, errors.New("-management-key must not be empty")
	case keyFlag:
	default:
		if key, ok := getenv(envManagementKey); ok && key != "" {
			s.managementKey = key
		} else {
			s.managementKey, s.keyGenerated = session.NewManagementKey(), true
		}
	}
	switch {
	case s.bounds.MaxSessions < 1:
		return settings{}, errors.New("-max-sessions must be positive")
	case s.bounds.MaxReservedBytes < 1:
		return settings{}, errors.New("-max-reserved-bytes must be positive")
	case s.bounds.MaxConfigBytes < 1:
		return settings{}, errors.New("-max-config-bytes must be positive")
	case s.maxRequestBytes < 1:
		return settings{}, errors.New("-max-request-bytes must be positive")
	case s.shutdownTimeout < 0:
		return settings{}, errors.New("-shutdown-timeout must not be negative")
	case s.readHeaderTimeout < 0, s.readTimeout < 0, s.writeTimeout < 0, s.idleTimeout < 0:
		return settings{}, errors.New("timeouts must not be negative")
	}
	return s, nil
}

// run serves until ctx ends, then shuts down gracefully and returns nil. It
// prints the listening URL, and the management key if it generated one, to
// stdout, one line each. Asked for help (-h), it prints the usage and returns
// nil at once.
func run(ctx context.Context, args []string, getenv func(string) (string, bool), stdout io.Writer) error {
	s, err := parseArgs(args, getenv, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return &usageError{err}
	}
	// The listener comes first: the manager needs the allocated address.
	ln, err := net.Listen("tcp", s.addr)
	if err != nil {
		return err
	}
	url := endpointURL(ln.Addr())
	manager, err := session.NewManager(session.ManagerConfig{
		Endpoint:        url,
		ManagementKey:   s.managementKey,
		Startup:         session.DefaultConfig(),
		Bounds:          s.bounds,
		MaxRequestBytes: s.maxRequestBytes,
	})
	if err != nil {
		ln.Close()
		return err
	}
	srv := &http.Server{
		Handler: timeouts{body: s.readTimeout, write: s.writeTimeout}.wrap(manager.Handler()),
		// ReadTimeout and WriteTimeout stay unset: they would cut off
		// delayed replies and long streams (see timeouts).
		ReadHeaderTimeout: s.readHeaderTimeout,
		// Above the handler's own header limit, so that oversized headers
		// get 431 in the error envelope rather than net/http's plain text.
		MaxHeaderBytes: server.HTTPMaxHeaderBytes,
		IdleTimeout:    s.idleTimeout,
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	fmt.Fprintf(stdout, "llmtestserver listening on %s\n", url)
	if s.keyGenerated {
		fmt.Fprintf(stdout, "management key: %s\n", s.managementKey)
	}

	select {
	case err := <-served:
		manager.Close()
		return err
	case <-ctx.Done():
	}
	// Retire the sessions first: delayed replies in flight end at once with
	// 409 llm_test_server_request_superseded instead of holding Shutdown up.
	manager.Close()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), s.shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		srv.Close()
		<-served
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// endpointURL returns the root URL clients reach addr at. An unspecified
// address (0.0.0.0, :: or an empty host) listens on every interface,
// loopback included, so the URL names loopback.
func endpointURL(addr net.Addr) string {
	if tcp, ok := addr.(*net.TCPAddr); ok && (tcp.IP == nil || tcp.IP.IsUnspecified()) {
		return "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(tcp.Port))
	}
	return "http://" + addr.String()
}
