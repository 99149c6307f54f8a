package llmtest_test

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/session"
)

func TestDefaultBoundsAdmit32DefaultSessions(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	for range 32 {
		srv.NewSession(t)
	}
	_, err := srv.OpenSession()
	if !errors.Is(err, session.ErrCapacityExceeded) {
		t.Fatalf("33rd session: err = %v, want ErrCapacityExceeded", err)
	}
	r := e2e.Call(t, srv.Client(), http.MethodPost, srv.URL()+"/admin-api/sessions", "{}", e2e.Bearer(srv.ManagementKey())...)
	r.WantError(t, http.StatusConflict, "session_capacity_exceeded")
}

func TestAdmissionByReservation(t *testing.T) {
	t.Parallel()
	small, err := session.NewConfig(session.WithJournal(10, 1<<20), session.WithHistory(0), session.WithVideos(0))
	if err != nil {
		t.Fatal(err)
	}
	per := small.Reservation()
	// The default runtime, on the same configuration, takes its share.
	srv := llmtest.NewServer(t,
		llmtest.WithBounds(session.Bounds{MaxSessions: 100, MaxReservedBytes: 4 * per, MaxConfigBytes: 1 << 20}),
		llmtest.WithDefaults(session.WithConfig(small)))
	a := srv.NewSession(t)
	srv.NewSession(t)
	srv.NewSession(t)
	if _, err := srv.OpenSession(); !errors.Is(err, session.ErrCapacityExceeded) {
		t.Fatalf("4th session: err = %v, want ErrCapacityExceeded before the session count runs out", err)
	}
	e2e.Call(t, srv.Client(), http.MethodPost, srv.URL()+"/admin-api/sessions", "{}", e2e.Bearer(srv.ManagementKey())...).
		WantError(t, http.StatusConflict, "session_capacity_exceeded")

	// Growing a session past the budget fails and changes nothing.
	if err := a.Configure(session.WithJournal(10, 2<<20)); !errors.Is(err, session.ErrCapacityExceeded) {
		t.Fatalf("grow: err = %v, want ErrCapacityExceeded", err)
	}
	if got := srv.Manager().Reserved(); got != 4*per {
		t.Errorf("reserved after refused growth = %d, want %d", got, 4*per)
	}
	// Shrinking frees room for another session.
	if err := a.Configure(session.WithJournal(10, 1<<19), session.WithHistory(0), session.WithVideos(0)); err != nil {
		t.Fatalf("shrink: %v", err)
	}
	if got, want := srv.Manager().Reserved(), 4*per-(1<<19); got != want {
		t.Errorf("reserved after shrinking = %d, want %d", got, want)
	}
	// Closing releases a whole reservation.
	a.Close()
	srv.NewSession(t)
}

// Parallel creation never admits more sessions than the bound, and parallel
// deletion gives every byte back.
func TestAdmissionIsRaceFree(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.WithBounds(session.Bounds{MaxSessions: 8, MaxReservedBytes: 1 << 40, MaxConfigBytes: 1 << 20}))
	var (
		mu       sync.Mutex
		admitted []*session.Session
		wg       sync.WaitGroup
	)
	for range 64 {
		wg.Go(func() {
			s, err := srv.OpenSession()
			if err != nil {
				if !errors.Is(err, session.ErrCapacityExceeded) {
					t.Errorf("OpenSession: %v", err)
				}
				return
			}
			mu.Lock()
			admitted = append(admitted, s)
			mu.Unlock()
		})
	}
	wg.Wait()
	if len(admitted) != 8 || srv.Manager().Len() != 8 {
		t.Fatalf("admitted %d sessions (manager counts %d), want exactly 8", len(admitted), srv.Manager().Len())
	}
	for _, s := range admitted {
		wg.Go(func() {
			s.Close()
		})
	}
	wg.Wait()
	startup := srv.Manager().Startup()
	if n, r := srv.Manager().Len(), srv.Manager().Reserved(); n != 0 || r != startup.Reservation() {
		t.Errorf("after closing all: %d sessions, %d bytes reserved; want 0, the default runtime's %d", n, r, startup.Reservation())
	}
}

// Refused configurations, over HTTP and in Go, leave the configuration,
// the scenario queues, the journal and the reservation exactly as they were.
func TestRefusedConfigurationChangesNothing(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.WithBounds(session.Bounds{MaxSessions: 4, MaxReservedBytes: 512 << 20, MaxConfigBytes: 4096}))
	sess := srv.NewSession(t, session.RequireAPIKey("key"))
	sess.Chat("greeting").Responds("first").Responds("second")
	client := e2e.ClientFor(sess, "key")
	if _, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4.1-mini", "Hi")); err != nil {
		t.Fatal(err)
	}
	before, _ := sess.Config()
	reserved := srv.Manager().Reserved()
	sel := e2e.Join(e2e.SelectorOf(sess), e2e.Bearer("key"))
	url := srv.URL() + "/admin-api/config"

	tests := []struct {
		name, body, code, param string
	}{
		{"malformed JSON", `{"journal":`, "invalid_configuration", ""},
		{"unknown field", `{"jurnal":{"capacity":3}}`, "invalid_configuration", "jurnal"},
		{"wrong type", `{"journal":{"capacity":"many"}}`, "invalid_configuration", "journal.capacity"},
		{"zero journal", `{"journal":{"capacity":0,"max_bytes":100}}`, "invalid_configuration", "journal.capacity"},
		{"negative history", `{"history":{"capacity":-1}}`, "invalid_configuration", "history.capacity"},
		{"scenario without replies", `{"scenarios":[{"name":"x","match":{},"replies":[]}]}`, "invalid_configuration", "scenarios[0].replies"},
		{"duplicate scenario names", `{"scenarios":[{"name":"x","match":{},"replies":[{"text":"a"}]},{"name":"x","match":{},"replies":[{"text":"b"}]}]}`, "invalid_configuration", "scenarios[1].name"},
		{"negative delay", `{"scenarios":[{"name":"x","match":{},"replies":[{"text":"a","delay_ms":-5}]}]}`, "invalid_configuration", "scenarios[0].replies[0].delay_ms"},
		{"trailing data", `{} {}`, "invalid_configuration", ""},
		{"oversized", fmt.Sprintf(`{"api_key":%q}`, strings.Repeat("k", 5000)), "configuration_too_large", ""},
		{"over budget", `{"journal":{"capacity":1000,"max_bytes":1073741824}}`, "session_capacity_exceeded", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := e2e.Call(t, srv.Client(), http.MethodPut, url, tt.body, sel...)
			status := http.StatusBadRequest
			if tt.code == "session_capacity_exceeded" {
				status = http.StatusConflict
			}
			r.WantError(t, status, tt.code)
			if _, _, param, _ := r.APIError(t); param != tt.param {
				t.Errorf("param = %q, want %q", param, tt.param)
			}
			after, _ := sess.Config()
			if fmt.Sprint(after) != fmt.Sprint(before) {
				t.Errorf("configuration changed:\nbefore %+v\nafter  %+v", before, after)
			}
			if got := srv.Manager().Reserved(); got != reserved {
				t.Errorf("reserved = %d, want %d", got, reserved)
			}
			if n := sess.Journal().Len(); n != 1 {
				t.Errorf("journal has %d entries, want the 1 it had", n)
			}
		})
	}
	if err := sess.Configure(session.WithJournal(0, 10)); !errors.Is(err, session.ErrInvalidConfig) {
		t.Errorf("Configure in Go with a zero journal: err = %v, want ErrInvalidConfig", err)
	}
	// The queue is where it was: the second reply comes next.
	resp, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4.1-mini", "Hi"))
	if err != nil || resp.Choices[0].Message.Content != "second" {
		t.Fatalf("after refused configurations: %v, %+v; want the second reply", err, resp)
	}
	// A refused creation admits nothing.
	n := srv.Manager().Len()
	e2e.Call(t, srv.Client(), http.MethodPost, srv.URL()+"/admin-api/sessions", `{"models":[""]}`, e2e.Bearer(srv.ManagementKey())...).
		WantError(t, http.StatusBadRequest, "invalid_configuration")
	e2e.Call(t, srv.Client(), http.MethodPost, srv.URL()+"/admin-api/sessions", `{"api_key":"`+strings.Repeat("k", 5000)+`"}`, e2e.Bearer(srv.ManagementKey())...).
		WantError(t, http.StatusBadRequest, "configuration_too_large")
	if srv.Manager().Len() != n || srv.Manager().Reserved() != reserved {
		t.Error("a refused creation changed the session count or the reservation")
	}
}

func TestJournalRetentionBound(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t)
	sess := srv.NewSession(t, session.WithJournal(3, 1<<20))
	for i := range 5 {
		sess.Chat("count").Responds(fmt.Sprintf("reply %d", i))
	}
	client := e2e.ClientFor(sess, "unused")
	for i := range 5 {
		if _, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4.1-mini", fmt.Sprintf("question %d", i))); err != nil {
			t.Fatal(err)
		}
	}
	entries := sess.Journal().Entries()
	if len(entries) != 3 {
		t.Fatalf("journal keeps %d entries, want 3", len(entries))
	}
	for i, e := range entries {
		if want := fmt.Sprintf("question %d", i+2); e.UserText != want || e.Seq != uint64(i+3) {
			t.Errorf("entry %d = #%d %q, want #%d %q", i, e.Seq, e.UserText, i+3, want)
		}
	}
	if got := sess.Journal().Evicted(); got != 2 {
		t.Errorf("Evicted() = %d, want 2", got)
	}
}
