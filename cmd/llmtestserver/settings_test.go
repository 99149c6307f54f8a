package main

import (
	"context"
	"flag"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llmtestserver/llmtestserver/clock"
	"github.com/llmtestserver/llmtestserver/session"
)

const exampleConfig = "testdata/example-config.json"

// writeConfig writes a configuration file into a fresh directory and
// returns its path.
func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.json")
	require.NoError(t, os.WriteFile(path, []byte(text), 0o600))
	return path
}

// The example file of the README sets every setting and the startup
// configuration.
func TestExampleConfigFileSetsEverything(t *testing.T) {
	t.Parallel()
	s, err := parseArgs([]string{"-config", exampleConfig}, env(nil), io.Discard)
	require.NoError(t, err)
	assert.Equal(t, "127.0.0.1:8080", s.addr)
	assert.Equal(t, "llmtest-example-management-key", s.managementKey)
	assert.False(t, s.keyGenerated)
	assert.Equal(t, session.Bounds{MaxSessions: 64, MaxReservedBytes: 1 << 30, MaxConfigBytes: 2 << 20}, s.bounds)
	assert.Equal(t, int64(16<<20), s.maxRequestBytes)
	assert.Equal(t, 10*time.Second, s.shutdownTimeout)
	assert.Equal(t, 5*time.Second, s.readHeaderTimeout)
	assert.Equal(t, 30*time.Second, s.readTimeout)
	assert.Equal(t, 30*time.Second, s.writeTimeout)
	assert.Equal(t, time.Minute, s.idleTimeout)
	assert.Equal(t, "json", s.log)
	assert.Equal(t, 30*time.Minute, s.evictIdle)
	assert.Equal(t, "llmtest-artifacts", s.artifactsDir)
	assert.False(t, s.dashboard)
	assert.Equal(t, 500, s.startup.Journal.Capacity)
	require.Len(t, s.startup.Scenarios, 1)
	assert.Equal(t, "greeting", s.startup.Scenarios[0].Name)
	assert.True(t, s.startup.Scenarios[0].Repeat)
}

// The file's startup configuration is the default runtime's: a request
// without session headers, with the management key, gets its scripted
// reply.
func TestRunConfigFileStartup(t *testing.T) {
	t.Parallel()
	path := writeConfig(t, `{"management_key":"file-key","startup":{"scenarios":[
		{"name":"greeting","match":{"endpoint":"chat.completions"},"replies":[{"text":"Hello from the file"}],"repeat":true}]}}`)
	in := start(t, []string{"-config", path}, nil, false)
	client := openai.NewClient(option.WithBaseURL(in.url+"/v1"), option.WithAPIKey("file-key"), option.WithMaxRetries(0))
	resp, err := client.Chat.Completions.New(context.Background(), openai.ChatCompletionNewParams{
		Model:    "gpt-4.1-mini",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Hi")},
	})
	require.NoError(t, err)
	assert.Equal(t, "Hello from the file", resp.Choices[0].Message.Content)
	in.stop(t)
}

// Each layer wins over the one before: defaults < file < environment <
// flags, setting by setting.
func TestSettingsPrecedence(t *testing.T) {
	t.Parallel()
	path := writeConfig(t, `{"max_sessions":5,"max_config_bytes":5,"max_request_bytes":5,"log":"text"}`)
	vars := map[string]string{"LLMTEST_CONFIG": path, "LLMTEST_MAX_SESSIONS": "6", "LLMTEST_MAX_CONFIG_BYTES": "6",
		"LLMTEST_EVICT_IDLE": "6m"}
	s, err := parseArgs([]string{"-max-sessions", "7", "-read-timeout", "7s"}, env(vars), io.Discard)
	require.NoError(t, err)
	assert.Equal(t, 7, s.bounds.MaxSessions, "flag over environment over file")
	assert.Equal(t, int64(6), s.bounds.MaxConfigBytes, "environment over file")
	assert.Equal(t, int64(5), s.maxRequestBytes, "file over default")
	assert.Equal(t, "text", s.log, "file over default")
	assert.Equal(t, 6*time.Minute, s.evictIdle, "environment over default")
	assert.Equal(t, 7*time.Second, s.readTimeout, "flag over default")
	assert.Equal(t, session.DefaultBounds().MaxReservedBytes, s.bounds.MaxReservedBytes, "default")

	// A -config flag wins over LLMTEST_CONFIG.
	other := writeConfig(t, `{"max_request_bytes":8}`)
	s, err = parseArgs([]string{"-config", other}, env(vars), io.Discard)
	require.NoError(t, err)
	assert.Equal(t, int64(8), s.maxRequestBytes)
	assert.Equal(t, 6, s.bounds.MaxSessions)
}

// Every setting flag has its environment variable and its file field; the
// modes (-version, -health-check) have neither.
func TestEveryFlagHasEnvironmentVariableAndField(t *testing.T) {
	t.Parallel()
	var s settings
	fs := newFlagSet(&s)
	fields := knownFields(fs)
	fs.VisitAll(func(f *flag.Flag) {
		if notSettings[f.Name] {
			assert.NotContains(t, fields, fileField(f.Name), f.Name)
			return
		}
		if f.Name != "config" {
			assert.Contains(t, fields, fileField(f.Name), f.Name)
		}
		// Setting the variable to the default's text is accepted.
		_, err := parseArgs(nil, env(map[string]string{envName(f.Name): f.DefValue, "LLMTEST_CONFIG": exampleConfig}), io.Discard)
		if f.DefValue != "" {
			assert.NoError(t, err, envName(f.Name))
		}
	})
	assert.Equal(t, "LLMTEST_MANAGEMENT_KEY", envName("management-key"))
	assert.Equal(t, "LLMTEST_EVICT_IDLE", envName("evict-idle"))
}

// A bad value is an error that names where it came from.
func TestSettingsErrorsNameTheirSource(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		file string
		vars map[string]string
		want string
	}{
		"malformed variable":      {vars: map[string]string{"LLMTEST_MAX_SESSIONS": "many"}, want: `$LLMTEST_MAX_SESSIONS: invalid value "many"`},
		"out of range variable":   {vars: map[string]string{"LLMTEST_MAX_SESSIONS": "0"}, want: "$LLMTEST_MAX_SESSIONS must be positive"},
		"bad duration variable":   {vars: map[string]string{"LLMTEST_EVICT_IDLE": "soon"}, want: "$LLMTEST_EVICT_IDLE"},
		"bad log variable":        {vars: map[string]string{"LLMTEST_LOG": "loud"}, want: `$LLMTEST_LOG is "loud", want off, text or json`},
		"bad fake clock variable": {vars: map[string]string{"LLMTEST_FAKE_CLOCK": "yesterday"}, want: "$LLMTEST_FAKE_CLOCK"},
		"missing config file":     {vars: map[string]string{"LLMTEST_CONFIG": "/nonexistent/llmtest.json"}, want: "/nonexistent/llmtest.json"},
		"unknown field":           {file: `{"max_session":3}`, want: `unknown field "max_session"`},
		"dashed field":            {file: `{"max-sessions":3}`, want: `unknown field "max-sessions"`},
		"mode as field":           {file: `{"version":"1"}`, want: `unknown field "version"`},
		"nested config":           {file: `{"config":"other.json"}`, want: `unknown field "config"`},
		"wrong type":              {file: `{"max_sessions":[3]}`, want: `field "max_sessions": want a string, a number or a boolean, got an array`},
		"object for a key":        {file: `{"management_key":{"k":"never-printed"}}`, want: `field "management_key": want a string, a number or a boolean, got an object`},
		"boolean for a number":    {file: `{"max_sessions":true}`, want: `field "max_sessions": invalid value true`},
		"malformed value":         {file: `{"shutdown_timeout":5}`, want: `field "shutdown_timeout": invalid value 5`},
		"out of range field":      {file: `{"max_sessions":0}`, want: `field "max_sessions" of config file`},
		"empty management key":    {file: `{"management_key":""}`, want: `field "management_key" of config file`},
		"not an object":           {file: `[1]`, want: "not a JSON object"},
		"trailing data":           {file: `{} {}`, want: "trailing data"},
		"unknown startup field":   {file: `{"startup":{"scenarios":[],"nope":1}}`, want: `field "startup.nope": unknown field`},
		"invalid startup":         {file: `{"startup":{"journal":{"capacity":-1}}}`, want: `field "startup.journal.capacity"`},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var args []string
			if tc.file != "" {
				args = []string{"-config", writeConfig(t, tc.file)}
			}
			_, err := parseArgs(args, env(tc.vars), io.Discard)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.NotContains(t, err.Error(), "never-printed", "an error never quotes what may be a key")
		})
	}
}

// An empty variable counts as unset, as LLMTEST_MANAGEMENT_KEY always did.
func TestEmptyVariablesAreUnset(t *testing.T) {
	t.Parallel()
	s, err := parseArgs(nil, env(map[string]string{"LLMTEST_MAX_SESSIONS": "", envManagementKey: ""}), io.Discard)
	require.NoError(t, err)
	assert.Equal(t, session.DefaultBounds().MaxSessions, s.bounds.MaxSessions)
	assert.True(t, s.keyGenerated)
}

// The help names the configuration file, the environment variables and
// every new flag.
func TestRunHelpDocumentsSettings(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	require.NoError(t, run(context.Background(), []string{"-h"}, env(nil), &out, io.Discard))
	for _, want := range []string{"-config", "LLMTEST_", "LLMTEST_CONFIG", "-version", "-log", "-evict-idle",
		"-artifacts-dir", "-fake-clock", "-health-check", "startup"} {
		assert.Contains(t, out.String(), want)
	}
}

// -fake-clock runs the manager on a fake clock from the given time: the
// sessions' creation times are the fake clock's.
func TestRunFakeClock(t *testing.T) {
	t.Parallel()
	in := start(t, []string{"-fake-clock", "2026-05-20T01:00:00Z"}, nil, true)
	createSession(t, in.url, in.key, "{}")
	r := do(t, http.MethodGet, in.url+"/admin-api/sessions", bearer(in.key), "")
	require.Equal(t, http.StatusOK, r.status, string(r.body))
	assert.Contains(t, string(r.body), `"created_at":"2026-05-20T01:00:00Z"`)
	assert.Contains(t, string(r.body), `"last_accessed_at":"2026-05-20T01:00:00Z"`)
	in.stop(t)

	s, err := parseArgs([]string{"-fake-clock", "now"}, env(nil), io.Discard)
	require.NoError(t, err)
	require.NotNil(t, s.clock)
	assert.WithinDuration(t, time.Now(), s.clock.Now(), time.Hour) // a sanity check, not a timing one
}

// A fake clock that starts where the admin API could not write its time,
// past the year 9999 or before the year 0 in UTC, is refused at start,
// naming the flag; the last writable instant is taken.
func TestFakeClockStartsWhereItsTimeCanBeWritten(t *testing.T) {
	t.Parallel()
	for _, start := range []string{"9999-12-31T23:59:59-01:00", "0000-01-01T00:00:00+01:00"} {
		_, err := parseArgs([]string{"-fake-clock", start}, env(nil), io.Discard)
		require.Error(t, err, start)
		assert.Contains(t, err.Error(), "-fake-clock", start)
		assert.Contains(t, err.Error(), "0000-01-01 to 9999-12-31 in UTC", start)
	}
	s, err := parseArgs([]string{"-fake-clock", "9999-12-31T23:59:59.999999999Z"}, env(nil), io.Discard)
	require.NoError(t, err)
	assert.Equal(t, clock.Latest(), s.clock.Now())
}

// A startup configuration larger than -max-config-bytes, or reserving more
// than -max-reserved-bytes, is refused at start, naming startup: the
// server used to start with it and then refuse every session.
func TestRunRefusesAStartupPastTheBounds(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 4096)
	path := writeConfig(t, `{"management_key":"file-key","startup":{"scenarios":[
		{"name":"greeting","match":{},"replies":[{"text":"`+long+`"}]}]}}`)
	for _, args := range [][]string{
		{"-config", path, "-addr", "127.0.0.1:0", "-max-config-bytes", "2048"},
		{"-config", path, "-addr", "127.0.0.1:0", "-max-reserved-bytes", "1048576"},
	} {
		var stderr strings.Builder
		// A server that starts anyway serves until the deadline, and then
		// returns no error.
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		err := run(ctx, args, env(nil), io.Discard, &stderr)
		cancel()
		require.Error(t, err, "%v", args)
		assert.Contains(t, err.Error(), "startup configuration", "%v", args)
		assert.Contains(t, err.Error(), strings.TrimLeft(args[len(args)-1], "-"), "%v: names the bound", args)
	}
}
