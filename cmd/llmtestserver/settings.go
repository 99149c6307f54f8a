package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/session"
)

// envManagementKey names the environment variable that supplies the
// management key when -management-key is not given.
const envManagementKey = "LLMTEST_MANAGEMENT_KEY"

// envPrefix starts the name of every setting's environment variable: the
// flag's name upper-cased, with '_' for '-' (see envName).
const envPrefix = "LLMTEST_"

// defaultMaxRequestBytes bounds request bodies unless -max-request-bytes
// says otherwise.
const defaultMaxRequestBytes = 32 << 20

// settings is what the defaults, the configuration file, the environment
// and the command line chose, in that order of precedence.
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

	configFile   string         // -config: the file read, if any
	startup      session.Config // the file's "startup", else DefaultConfig()
	log          string         // "off", "text" or "json"
	evictIdle    time.Duration  // 0: sessions are never evicted
	artifactsDir string         // where evicted sessions' journals go; "" for nowhere
	fakeClock    string         // -fake-clock as given; "" for the real clock
	clock        clock.Clock    // nil for the real clock
	dashboard    bool           // serve the browser dashboard at /

	// Modes that do something else than serving.
	version     bool   // print the version and exit
	healthCheck string // GET this URL and exit 0 if it answers 200
}

// notSettings are the flags that choose what the command does rather than
// how the server runs: they have no environment variable and no field in
// the configuration file.
var notSettings = map[string]bool{"version": true, "health-check": true}

// envName returns the environment variable of the flag name.
func envName(name string) string {
	return envPrefix + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}

// fileField returns the configuration file's field of the flag name.
func fileField(name string) string { return strings.ReplaceAll(name, "-", "_") }

// newFlagSet declares every flag of the command over s, with its default.
// A new flag that configures the server needs nothing else to get its
// environment variable and configuration file field.
func newFlagSet(s *settings) *flag.FlagSet {
	fs := flag.NewFlagSet("llmtestserver", flag.ContinueOnError)
	// Errors are returned, not printed: the caller decides where they go.
	fs.SetOutput(io.Discard)
	def := session.DefaultBounds()
	fs.StringVar(&s.configFile, "config", "",
		"JSON configuration `file`: the settings below by their names with '_' for '-',\nand \"startup\", the default runtime's configuration")
	fs.StringVar(&s.addr, "addr", "127.0.0.1:8080", "listen `address`; port 0 picks a free port")
	fs.StringVar(&s.managementKey, "management-key", "",
		"bearer token that guards session creation and the default runtime\n(default: a generated key, printed at start)")
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
	fs.StringVar(&s.log, "log", "off", "request log on stderr: off, text or json (log/slog); never prints a key")
	fs.DurationVar(&s.evictIdle, "evict-idle", 0,
		"delete sessions idle longer than this `duration`, never one with a request in flight\n(0: never)")
	fs.StringVar(&s.artifactsDir, "artifacts-dir", "",
		"`directory` where the journal of each evicted session is written first, as <session ID>.jsonl")
	fs.StringVar(&s.fakeClock, "fake-clock", "",
		"run on a fake clock that starts at this RFC 3339 `time`, or \"now\";\nit moves only when advanced through the admin API")
	fs.BoolVar(&s.dashboard, "dashboard", true,
		"serve the browser dashboard at / behind the management key (-dashboard=false: / is a 404 as any unknown path)")
	fs.BoolVar(&s.version, "version", false, "print the version and exit")
	fs.StringVar(&s.healthCheck, "health-check", "",
		"GET this `URL` (such as http://127.0.0.1:8080/healthz) and exit 0 if it answers 200, else 1;\nfor a container's HEALTHCHECK")
	return fs
}

// printUsage writes the help text of fs to w.
func printUsage(fs *flag.FlagSet, w io.Writer) {
	fmt.Fprintln(w, "Usage: llmtestserver [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Settings come from the defaults, then the -config file, then the environment,")
	fmt.Fprintln(w, "then the flags, each over the one before. Every flag but -version and")
	fmt.Fprintln(w, "-health-check has an environment variable: LLMTEST_ and its name upper-cased")
	fmt.Fprintln(w, "with '_' for '-', such as LLMTEST_MAX_SESSIONS (LLMTEST_CONFIG names the file);")
	fmt.Fprintln(w, "an empty one counts as unset.")
	fmt.Fprintln(w)
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// parseArgs reads the settings: the flags in args over the environment
// (getenv) over the configuration file over the defaults. It returns
// flag.ErrHelp, after writing the usage to stdout, when asked for help.
// Every error names where the bad value came from: the flag, the
// environment variable or the file's field.
func parseArgs(args []string, getenv func(string) (string, bool), stdout io.Writer) (settings, error) {
	var s settings
	fs := newFlagSet(&s)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage(fs, stdout)
		}
		return settings{}, err
	}
	if fs.NArg() > 0 {
		return settings{}, fmt.Errorf("unexpected argument %q: llmtestserver takes only flags", fs.Arg(0))
	}
	if s.version || s.healthCheck != "" {
		return s, nil // neither serves: the other settings do not matter
	}
	// origin names where each setting came from, for errors; a setting
	// missing from it has its default.
	origin := make(map[string]string)
	fs.Visit(func(f *flag.Flag) { origin[f.Name] = "-" + f.Name })
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if err != nil || notSettings[f.Name] || origin[f.Name] != "" {
			return
		}
		name := envName(f.Name)
		v, ok := getenv(name)
		if !ok || v == "" {
			return
		}
		if serr := fs.Set(f.Name, v); serr != nil {
			err = fmt.Errorf("$%s: invalid value %q: %v", name, v, unwrapFlagError(serr))
			return
		}
		origin[f.Name] = "$" + name
	})
	if err != nil {
		return settings{}, err
	}
	s.startup = session.DefaultConfig()
	if s.configFile != "" {
		if err := applyConfigFile(fs, &s, origin); err != nil {
			return settings{}, err
		}
	}
	if err := s.check(origin); err != nil {
		return settings{}, err
	}
	return s, nil
}

// unwrapFlagError returns what Set said about a value, without the flag
// package's wording around it.
func unwrapFlagError(err error) error {
	if u := errors.Unwrap(err); u != nil {
		return u
	}
	return err
}

// check validates the settings once every layer is applied and fills
// those derived from others: the generated management key and the clock.
// origin names where each setting came from.
func (s *settings) check(origin map[string]string) error {
	from := func(name string) string {
		if o := origin[name]; o != "" {
			return o
		}
		return "-" + name
	}
	if s.managementKey == "" {
		if origin["management-key"] != "" {
			return fmt.Errorf("%s must not be empty", from("management-key"))
		}
		s.managementKey, s.keyGenerated = session.NewManagementKey(), true
	}
	switch {
	case s.bounds.MaxSessions < 1:
		return fmt.Errorf("%s must be positive", from("max-sessions"))
	case s.bounds.MaxReservedBytes < 1:
		return fmt.Errorf("%s must be positive", from("max-reserved-bytes"))
	case s.bounds.MaxConfigBytes < 1:
		return fmt.Errorf("%s must be positive", from("max-config-bytes"))
	case s.maxRequestBytes < 1:
		return fmt.Errorf("%s must be positive", from("max-request-bytes"))
	case s.shutdownTimeout < 0:
		return fmt.Errorf("%s must not be negative", from("shutdown-timeout"))
	case s.evictIdle < 0:
		return fmt.Errorf("%s must not be negative", from("evict-idle"))
	}
	for _, t := range []struct {
		name string
		d    time.Duration
	}{{"read-header-timeout", s.readHeaderTimeout}, {"read-timeout", s.readTimeout},
		{"write-timeout", s.writeTimeout}, {"idle-timeout", s.idleTimeout}} {
		if t.d < 0 {
			return fmt.Errorf("%s must not be negative", from(t.name))
		}
	}
	switch s.log {
	case "off", "text", "json":
	default:
		return fmt.Errorf("%s is %q, want off, text or json", from("log"), s.log)
	}
	switch s.fakeClock {
	case "":
	case "now":
		s.clock = clock.NewFake(time.Now())
	default:
		start, err := time.Parse(time.RFC3339Nano, s.fakeClock)
		if err != nil {
			return fmt.Errorf("%s is %q, want an RFC 3339 time such as 2026-01-02T15:04:05Z, or now", from("fake-clock"), s.fakeClock)
		}
		if !clock.Writable(start) {
			// Its UTC time, which the admin API answers, falls outside
			// the years RFC 3339 can write (an offset can take it there).
			return fmt.Errorf("%s is %q, which is %s in UTC: the admin API could not write it; want a time from 0000-01-01 to 9999-12-31 in UTC",
				from("fake-clock"), s.fakeClock, start.UTC())
		}
		s.clock = clock.NewFake(start)
	}
	return nil
}
