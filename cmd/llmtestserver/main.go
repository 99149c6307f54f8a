// Command llmtestserver runs the fake LLM provider as a standalone HTTP
// server, for tests written in languages other than Go.
//
//	go run ./cmd/llmtestserver -addr 127.0.0.1:8080
//
// It prints the URL it listens on and, unless one was given, the management
// key it generated:
//
//	llmtestserver listening on http://127.0.0.1:8080
//	management key: llmtest-…
//
// Tests create an isolated session with POST /admin-api/sessions, sending
// "Authorization: Bearer <management key>", and then call the provider API
// under /v1/ with the session's X-Llm-Test-Server-Session and
// X-Llm-Test-Server-Session-Key headers. The README documents the HTTP API.
//
// Flags:
//
//	-addr address             listen address (default 127.0.0.1:8080; port 0 picks a free one)
//	-management-key key       bearer token for session creation and the default runtime
//	                          (default: $LLMTEST_MANAGEMENT_KEY, else a generated key)
//	-max-sessions n           most sessions alive at once (default 32)
//	-max-reserved-bytes n     admission budget of all sessions together (default 512 MiB)
//	-max-config-bytes n       largest configuration of one session, as JSON (default 1 MiB)
//	-max-request-bytes n      largest request body (default 32 MiB)
//	-shutdown-timeout d       how long SIGINT or SIGTERM waits for requests in flight (default 5s)
//	-read-header-timeout d    longest a client may take to send a request's headers (default 10s)
//	-read-timeout d           longest a client may take to send a request's body (default 1m);
//	                          a body not received in time is answered 408 request_timeout
//	-write-timeout d          longest one write of an answer may wait for a client that does not
//	                          read (default 1m); a delayed reply or a paced stream may take longer
//	                          as long as it flows
//	-idle-timeout d           longest a kept-alive connection waits for its next request (default 2m)
//
// A timeout of 0 disables it. On SIGINT or SIGTERM the server retires every
// session, so delayed replies end at once with 409
// llm_test_server_request_superseded and requests of retired sessions stop
// reading and writing, and then waits for the handlers to finish; after
// -shutdown-timeout it closes every connection still open.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		// After the first signal, a second one kills the process at once.
		<-ctx.Done()
		stop()
	}()
	err := run(ctx, os.Args[1:], os.LookupEnv, os.Stdout, os.Stderr)
	var usage *usageError
	switch {
	case err == nil:
	case errors.As(err, &usage):
		fmt.Fprintf(os.Stderr, "llmtestserver: %v\nRun llmtestserver -h for usage.\n", err)
		os.Exit(2)
	default:
		fmt.Fprintf(os.Stderr, "llmtestserver: %v\n", err)
		os.Exit(1)
	}
}

// usageError reports command-line arguments that cannot be used.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }
