package llmtest_test

import (
	"net/http"
	"testing"

	"github.com/llmtestserver/llmtestserver/llmtest"
)

// skipInMemory skips a test that is about sockets (raw bytes on a
// connection, net/http's own limits) when srv runs in memory, as the whole
// suite does under LLMTEST_TRANSPORT=memory.
func skipInMemory(t *testing.T, srv *llmtest.Server, why string) {
	t.Helper()
	if srv.TransportMode() == llmtest.InMemory {
		t.Skip("in memory: " + why)
	}
}

// callerTransport is a transport a caller would own, which reaches srv in
// either mode: a fresh http.Transport over loopback, the server's own in
// memory, where nothing else reaches it.
func callerTransport(t *testing.T, srv *llmtest.Server) http.RoundTripper {
	if srv.TransportMode() == llmtest.InMemory {
		return srv.Transport()
	}
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return tr
}
