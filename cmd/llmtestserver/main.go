// Command llmtestserver runs the fake LLM provider as a standalone HTTP
// server, for tests written in languages other than Go.
//
//	go install github.com/llmtestserver/llmtestserver/cmd/llmtestserver@latest
//	llmtestserver -addr 127.0.0.1:8080
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
// # Settings
//
// Every setting has a default, and may come from a configuration file
// (-config), from the environment or from a flag, each over the one
// before: defaults < file < environment < flags.
//
//	-config file              JSON configuration file (see below)
//	-addr address             listen address (default 127.0.0.1:8080; port 0 picks a free one)
//	-management-key key       bearer token for session creation and the default runtime
//	                          (default: a generated key, printed at start)
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
//	-log off|text|json        request log on stderr (default off)
//	-evict-idle d             delete sessions idle longer than d (default 0: never)
//	-artifacts-dir dir        write each evicted session's journal there first
//	-fake-clock time|now      run on a fake clock starting at an RFC 3339 time, or now
//	-dashboard                serve the browser dashboard at / behind the management key
//	                          (default true; -dashboard=false turns it off)
//
// A timeout of 0 disables it.
//
// Each flag has an environment variable: LLMTEST_ and the flag's name
// upper-cased with '_' for '-', such as LLMTEST_ADDR, LLMTEST_MANAGEMENT_KEY,
// LLMTEST_MAX_SESSIONS, LLMTEST_EVICT_IDLE, and LLMTEST_CONFIG for the file.
// An empty variable counts as unset; a value that does not parse is an
// error that names the variable.
//
// The configuration file is one JSON object: each setting under its flag's
// name with '_' for '-' (counts and sizes as numbers, durations as strings
// such as "5s"), and "startup", the default runtime's configuration in the
// JSON of POST /admin-api/sessions, which is also the base every session's
// configuration is read over. An unknown field is an error that names it.
// cmd/llmtestserver/testdata/example-config.json is an example:
//
//	{
//	  "addr": "127.0.0.1:8080",
//	  "max_sessions": 64,
//	  "shutdown_timeout": "10s",
//	  "log": "json",
//	  "evict_idle": "30m",
//	  "startup": {"scenarios": [{"name": "greeting", "match": {"endpoint": "chat.completions"},
//	    "replies": [{"text": "Hello"}], "repeat": true}]}
//	}
//
// # Other modes
//
//	-version                  print the version and the Go version, and exit
//	-health-check URL         GET URL and exit 0 if it answers 200, else 1 (a container's
//	                          HEALTHCHECK, in an image without a shell)
//
// The version is set at build time with -ldflags "-X main.version=v1.2.3";
// without it, it is the module's version (as go install gives it), else the
// VCS revision, else "(devel)".
//
// # Probes
//
// GET /healthz answers 200 {"status":"ok"} while the process serves;
// GET /readyz answers 200 {"status":"ready"} while it accepts work and 503
// {"status":"shutting_down"} once shutdown began. Neither needs
// authorization, and neither reaches the journal or counts as a session's
// use.
//
// # Request log
//
// With -log text or -log json, one log/slog record per request goes to
// stderr once it is over: method, path (never the query string), status,
// bytes of the answer's body, duration, and the session ID its headers name.
// It never prints a key: no header but the session ID is logged, and a
// value in that header that does not look like an ID is left out. The
// probes are logged at debug level, below the default.
//
// # Idle eviction
//
// Sessions live until they are deleted. For a long-running shared server,
// -evict-idle d deletes the sessions idle for longer than d: idle since
// their last request over HTTP ended, on the server's clock (the fake one
// with -fake-clock). A session with a request in flight is never evicted.
// With -artifacts-dir, each evicted session's journal is written there
// first, as <dir>/<session ID>.jsonl in the journal artifact format that
// llmtest writes for LLMTEST_ARTIFACTS_DIR (see journal.ArtifactVersion).
// Evictions are logged (with -log), and a journal that could not be
// written always is, as a warning on stderr.
//
// # Shutdown
//
// On SIGINT or SIGTERM /readyz turns 503, eviction stops and the server
// retires every session, so delayed replies end at once with 409
// llm_test_server_request_superseded and requests of retired sessions stop
// reading and writing, and then waits for the handlers to finish; after
// -shutdown-timeout it closes every connection still open.
//
// # Docker
//
// The repository's Dockerfile builds a static image from scratch that runs
// as a non-root user and listens on loopback inside the container unless
// told otherwise:
//
//	docker build -t llmtestserver .
//	docker run --rm -p 8080:8080 llmtestserver -addr 0.0.0.0:8080
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
