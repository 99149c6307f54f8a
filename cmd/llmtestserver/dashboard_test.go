package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The binary serves the dashboard at / by default, behind the management
// key; -dashboard=false, or LLMTEST_DASHBOARD=false, leaves / the
// provider's 404.
func TestRunDashboard(t *testing.T) {
	t.Parallel()
	in := start(t, nil, nil, true)
	r := do(t, http.MethodGet, in.url+"/", nil, "")
	assert.Equal(t, http.StatusUnauthorized, r.status)
	assert.Equal(t, `Basic realm="llmtestserver"`, r.header.Get("WWW-Authenticate"))
	r = do(t, http.MethodGet, in.url+"/", bearer(in.key), "")
	require.Equal(t, http.StatusOK, r.status)
	assert.True(t, strings.HasPrefix(r.header.Get("Content-Type"), "text/html"), r.header.Get("Content-Type"))
	in.stop(t)

	for _, off := range []struct {
		args []string
		vars map[string]string
	}{
		{args: []string{"-dashboard=false"}},
		{vars: map[string]string{"LLMTEST_DASHBOARD": "false"}},
	} {
		in := start(t, off.args, off.vars, true)
		r := do(t, http.MethodGet, in.url+"/", bearer(in.key), "")
		assert.Equal(t, http.StatusNotFound, r.status, "%v %v", off.args, off.vars)
		in.stop(t)
	}
}
