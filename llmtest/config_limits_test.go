package llmtest_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// scenarioDoc is a POST /admin-api/scenarios body with one scenario name
// answering text.
func scenarioDoc(name, text string) string {
	return fmt.Sprintf(`{"scenarios":[{"name":%q,"match":{},"replies":[{"text":%q}]}]}`, name, text)
}

// Posting scenarios is checked like PUT /admin-api/config: posts that would
// take the configuration past the 1 MiB limit are refused with 400
// configuration_too_large, and nothing changes.
func TestScenarioPostsStayWithinTheConfigurationLimit(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t)
	text := strings.Repeat("x", 300<<10)
	for i := range 3 {
		if r := postScenarios(t, sess, scenarioDoc(fmt.Sprint("s", i), text)); r.Status != http.StatusNoContent {
			t.Fatalf("post %d: %d %s", i, r.Status, r.Body)
		}
	}
	before, reserved := sess.Pending(), srv.Manager().Reserved()
	for i := range 10 {
		r := postScenarios(t, sess, scenarioDoc(fmt.Sprint("more", i), text))
		r.WantError(t, http.StatusBadRequest, "configuration_too_large")
	}
	// Appending to an existing scenario is priced too.
	postScenarios(t, sess, scenarioDoc("s0", text)).WantError(t, http.StatusBadRequest, "configuration_too_large")
	cfg, err := sess.Config()
	if err != nil {
		t.Fatal(err)
	}
	if got := sess.Pending(); got != before || len(cfg.Scenarios) != 3 || srv.Manager().Reserved() != reserved {
		t.Errorf("refused posts changed the session: %d pending (want %d), %d scenarios (want 3), reserved %d (want %d)",
			got, before, len(cfg.Scenarios), srv.Manager().Reserved(), reserved)
	}
	if size := cfg.Size(); size > srv.Manager().Bounds().MaxConfigBytes {
		t.Errorf("configuration is %d bytes, over the %d limit", size, srv.Manager().Bounds().MaxConfigBytes)
	}
}

// Posting scenarios charges what keeping them costs, and is refused with
// 409 session_capacity_exceeded when that does not fit the budget.
func TestScenarioPostsAreChargedInTheReservation(t *testing.T) {
	t.Parallel()
	bounds := session.DefaultBounds()
	def := session.DefaultConfig()
	bounds.MaxReservedBytes = 2*def.Reservation() + 64<<10 // the default runtime's share, and one session's
	srv := llmtest.NewServer(t, llmtest.WithBounds(bounds))
	sess := srv.NewSession(t)
	base := sess.Reservation()
	if r := postScenarios(t, sess, scenarioDoc("small", "fits")); r.Status != http.StatusNoContent {
		t.Fatalf("small post: %d %s", r.Status, r.Body)
	}
	charged := sess.Reservation()
	cfg, _ := sess.Config()
	if charged <= base || charged != cfg.Reservation() || srv.Manager().Reserved() != charged+def.Reservation() {
		t.Errorf("after a post the session reserves %d (before %d, its configuration says %d, the manager %d)",
			charged, base, cfg.Reservation(), srv.Manager().Reserved())
	}
	// 2,000 empty replies are 6 KB of JSON but cost far more to keep.
	many := `{"scenarios":[{"name":"many","match":{},"replies":[` + strings.Repeat(`{},`, 1999) + `{}]}]}`
	postScenarios(t, sess, many).WantError(t, http.StatusConflict, "session_capacity_exceeded")
	if got := sess.Reservation(); got != charged || sess.Pending() != 1 {
		t.Errorf("a refused post changed the reservation to %d (want %d) or the queue (%d pending)", got, charged, sess.Pending())
	}
}

// Builders are checked like configurations: a call that would take the
// configuration past the limit, or the reservation past the budget, panics
// at its call site and changes nothing.
func TestBuilderPanicsPastTheConfigurationLimit(t *testing.T) {
	t.Parallel()
	bounds := session.DefaultBounds()
	def := session.DefaultConfig()
	bounds.MaxReservedBytes = 2*def.Reservation() + 1<<20 // the default runtime's share, and one session's
	srv := llmtest.NewServer(t, llmtest.WithBounds(bounds))
	sess := srv.NewSession(t)
	text := strings.Repeat("x", 600<<10)
	sess.Chat("big").Responds(text)
	wantPanic := func(what, mention string, f func()) {
		t.Helper()
		defer func() {
			p := recover()
			if p == nil || !strings.Contains(fmt.Sprint(p), mention) {
				t.Errorf("%s: panic %v, want one mentioning %q", what, p, mention)
			}
		}()
		f()
	}
	reserved := sess.Reservation()
	wantPanic("a second large reply", "configuration too large", func() { sess.Chat("big").Responds(text) })
	wantPanic("a new scenario", "configuration too large", func() { sess.Chat("other").Responds(text) })
	wantPanic("many copies", "capacity exceeded", func() { sess.Chat("small").Responds("x").Times(5000) })
	if got := sess.Pending(); got != 2 { // big's reply, and small's first
		t.Errorf("%d replies pending, want 2: refused calls must add nothing", got)
	}
	cfg, _ := sess.Config()
	if got := sess.Reservation(); got != cfg.Reservation() || got <= reserved {
		t.Errorf("reservation = %d, want its configuration's %d, above %d", got, cfg.Reservation(), reserved)
	}
}

// Creation and PUT /admin-api/config measure a configuration the same way,
// as its compact JSON without HTML escaping: 200 KB of "<" fit both, 1.1 MB
// fit neither.
func TestCreationAndConfigureMeasureAlike(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	doc := func(n int) string {
		return `{"scenarios":[{"name":"lt","match":{},"replies":[{"text":"` + strings.Repeat("<", n) + `"}]}]}`
	}
	c := e2e.CreateOverHTTP(t, srv, doc(200_000))
	sel := []string{session.HeaderSession, c.ID, session.HeaderSessionKey, c.Key}
	if r := e2e.Call(t, srv.Client(), http.MethodPut, srv.URL()+"/admin-api/config", doc(200_000), sel...); r.Status != http.StatusNoContent {
		t.Errorf("PUT of the document that created the session: %d %s", r.Status, r.Body)
	}
	big := doc(1_100_000)
	e2e.Call(t, srv.Client(), http.MethodPost, srv.URL()+"/admin-api/sessions", big, e2e.Bearer(srv.ManagementKey())...).
		WantError(t, http.StatusBadRequest, "configuration_too_large")
	e2e.Call(t, srv.Client(), http.MethodPut, srv.URL()+"/admin-api/config", big, sel...).
		WantError(t, http.StatusBadRequest, "configuration_too_large")
}

// A configuration holding Go functions is measured too: its encodable
// parts, and each function at a fixed cost.
func TestGoFunctionConfigurationsAreMeasured(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	big := scenario.Scenario{Name: "func", Match: scenario.Func(func(*scenario.Request) bool { return true }),
		Replies: []scenario.Reply{scenario.Text(strings.Repeat("x", 2<<20))}}
	if _, err := srv.Manager().Create(session.WithScenario(big)); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("Create with a 2 MiB scenario holding a Go function: err = %v, want configuration too large", err)
	}
}

// A near-limit configuration of 340,000 empty replies holds each reply
// once, and its heap stays within what its reservation charges for it.
func TestManyRepliesCostWithinTheirReservation(t *testing.T) {
	if testing.Short() {
		t.Skip("measures the heap")
	}
	srv := llmtest.NewServer(t)
	body := `{"scenarios":[{"name":"many","match":{},"replies":[` + strings.Repeat(`{},`, 339_999) + `{}]}]}`
	before := e2e.LiveHeap()
	c := e2e.CreateOverHTTP(t, srv, body)
	body = ""
	after := e2e.LiveHeap()
	def := session.DefaultConfig()
	charged := c.ReservationBytes - def.Reservation()
	grown := after - before
	t.Logf("340,000 empty replies: heap +%.1f MiB, charged %.1f MiB", float64(grown)/(1<<20), float64(charged)/(1<<20))
	if grown > charged {
		t.Errorf("the configuration grew the heap by %d bytes, over the %d its reservation charges for it", grown, charged)
	}
	sess, ok := srv.Manager().Lookup(c.ID, c.Key)
	if !ok || sess.Pending() != 340_000 {
		t.Fatalf("session has %v pending replies, want 340000", sess)
	}
}
