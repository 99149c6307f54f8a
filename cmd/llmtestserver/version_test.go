package main

import (
	"context"
	"io"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// -version prints one line with the version and the Go version, and
// serves nothing.
func TestRunVersion(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	// Even with settings that could not serve: the version needs none.
	require.NoError(t, run(context.Background(), []string{"-version", "-addr", "256.0.0.1:1"}, env(nil), &out, io.Discard))
	line := out.String()
	assert.True(t, strings.HasPrefix(line, "llmtestserver "), line)
	assert.Contains(t, line, " "+runtime.Version()+" ")
	assert.Equal(t, 1, strings.Count(line, "\n"))
}

func TestVersionOf(t *testing.T) {
	t.Parallel()
	vcs := func(settings ...debug.BuildSetting) *debug.BuildInfo {
		return &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: settings}
	}
	for name, tc := range map[string]struct {
		set  string
		info *debug.BuildInfo
		want string
	}{
		"set by -ldflags -X":   {"v1.2.3", &debug.BuildInfo{Main: debug.Module{Version: "v0.9.0"}}, "v1.2.3"},
		"module version":       {"", &debug.BuildInfo{Main: debug.Module{Version: "v0.9.0"}}, "v0.9.0"},
		"vcs revision":         {"", vcs(debug.BuildSetting{Key: "vcs.revision", Value: "abc123"}), "abc123"},
		"modified tree":        {"", vcs(debug.BuildSetting{Key: "vcs.revision", Value: "abc123"}, debug.BuildSetting{Key: "vcs.modified", Value: "true"}), "abc123-dirty"},
		"nothing known":        {"", vcs(), "(devel)"},
		"no build info":        {"", nil, "(devel)"},
		"empty module version": {"", &debug.BuildInfo{}, "(devel)"},
	} {
		assert.Equal(t, tc.want, versionOf(tc.set, tc.info), name)
	}
}
