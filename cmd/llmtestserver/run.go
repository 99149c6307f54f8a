package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"

	"github.com/llmtestserver/llmtestserver/internal/server"
	"github.com/llmtestserver/llmtestserver/session"
)

// run serves until ctx ends, then shuts down gracefully and returns nil. It
// prints the listening URL, and the management key if it generated one, to
// stdout, one line each; the request log and the evictions go to stderr.
// Asked for help (-h) or the version, it prints them and returns nil at
// once; with -health-check it checks the URL and returns.
func run(ctx context.Context, args []string, getenv func(string) (string, bool), stdout, stderr io.Writer) error {
	s, err := parseArgs(args, getenv, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	if err != nil {
		return &usageError{err}
	}
	switch {
	case s.version:
		printVersion(stdout)
		return nil
	case s.healthCheck != "":
		return healthCheck(ctx, s.healthCheck)
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
		Startup:         s.startup,
		Bounds:          s.bounds,
		MaxRequestBytes: s.maxRequestBytes,
		Clock:           s.clock,
		Dashboard:       s.dashboard,
	})
	if err != nil {
		ln.Close()
		return err
	}
	var stopping atomic.Bool // for /readyz
	handler := probes(&stopping, timeouts{body: s.readTimeout, write: s.writeTimeout}.wrap(manager.Handler()))
	requests := newLogger(s.log, stderr)
	events := requests // what happens beside requests: evictions
	if requests != nil {
		handler = requestLog(requests, handler)
	} else {
		// Without a log, a journal that could not be written is still told.
		events = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	srv := &http.Server{
		Handler: handler,
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
	evictCtx, stopEviction := context.WithCancel(context.Background())
	evicting := startEviction(evictCtx, manager, s, events)

	fmt.Fprintf(stdout, "llmtestserver listening on %s\n", url)
	if s.keyGenerated {
		fmt.Fprintf(stdout, "management key: %s\n", s.managementKey)
	}

	select {
	case err := <-served:
		stopping.Store(true)
		stopEviction()
		<-evicting
		manager.Close()
		return err
	case <-ctx.Done():
	}
	stopping.Store(true)
	stopEviction()
	<-evicting
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
