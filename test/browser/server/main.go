// Command server is the standalone server with its dashboard on, for the
// browser test of test/browser: the same manager and handler as
// cmd/llmtestserver, with session.ManagerConfig.Dashboard set. It takes the
// binary's -addr and -management-key flags and prints the binary's first
// line, "llmtestserver listening on <url>"; SIGINT or SIGTERM stops it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/server"
	"github.com/llmtestserver/llmtestserver/session"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(1)
	}
}

func run() error {
	addr := flag.String("addr", "127.0.0.1:0", "listen `address`; port 0 picks a free port")
	key := flag.String("management-key", "", "the management key (required)")
	flag.Parse()
	if *key == "" {
		return errors.New("-management-key is required")
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	url := "http://" + ln.Addr().String()
	manager, err := session.NewManager(session.ManagerConfig{Endpoint: url, ManagementKey: *key, Dashboard: true})
	if err != nil {
		ln.Close()
		return err
	}
	srv := &http.Server{Handler: manager.Handler(), ReadHeaderTimeout: 10 * time.Second,
		MaxHeaderBytes: server.HTTPMaxHeaderBytes}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Printf("llmtestserver listening on %s\n", url)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	select {
	case err := <-served:
		manager.Close()
		return err
	case <-ctx.Done():
	}
	manager.Close()
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(shutdown)
}
