package llmtest_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/llmtestserver/llmtestserver/internal/e2e"
	"github.com/llmtestserver/llmtestserver/llmtest"
	"github.com/llmtestserver/llmtestserver/scenario"
	"github.com/llmtestserver/llmtestserver/session"
)

// nestedRegexScenario answers requests through regular expressions nested in
// All, Any and Not, the matchers every session copies from the startup
// configuration.
func nestedRegexScenario() scenario.Scenario {
	return scenario.Scenario{
		Name: "nested",
		Match: scenario.All(
			scenario.UserRegex(`^ask \d+$`),
			scenario.Any(scenario.UserRegex(`^ask [0-4]`), scenario.UserRegex(`^ask [5-9]`)),
			scenario.Not(scenario.UserRegex(`never`)),
		),
		Replies: []scenario.Reply{scenario.Text("nested answer")},
		Repeat:  true,
	}
}

// TestConcurrentSessionsShareNoMatcherState creates sessions from a startup
// configuration with nested regular expressions on many goroutines at once,
// each then matching requests: under -race, any matcher that sessions share
// and write (compiling a pattern lazily, or again on validation) is a
// reported race.
func TestConcurrentSessionsShareNoMatcherState(t *testing.T) {
	const sessions = 32
	srv := llmtest.NewServer(t,
		llmtest.WithDefaults(session.WithScenario(nestedRegexScenario())),
		llmtest.WithBounds(session.Bounds{MaxSessions: sessions, MaxReservedBytes: 1 << 40, MaxConfigBytes: 1 << 20}))

	var wg sync.WaitGroup
	errs := make(chan error, sessions)
	for i := range sessions {
		wg.Go(func() {
			sess, err := srv.OpenSession()
			if err != nil {
				errs <- err
				return
			}
			defer sess.Close()
			client := e2e.ClientFor(sess, "")
			for j := range 3 {
				prompt := fmt.Sprintf("ask %d", (i+j)%10)
				resp, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4.1-mini", prompt))
				if err != nil {
					errs <- fmt.Errorf("session %d, %q: %w", i, prompt, err)
					return
				}
				if got := resp.Choices[0].Message.Content; got != "nested answer" {
					errs <- fmt.Errorf("session %d, %q: got %q, want the nested answer", i, prompt, got)
					return
				}
			}
			// A request the nested Not refuses must miss.
			if _, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4.1-mini", "never")); err == nil {
				errs <- fmt.Errorf("session %d: a request the match excludes was answered", i)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestConcurrentSessionsFromOneScenarioValue gives one scenario value, with
// nested regular expressions, to sessions created on many goroutines at
// once, as parallel tests sharing a package-level scenario do: validating
// each session's configuration must not write to the caller's value.
func TestConcurrentSessionsFromOneScenarioValue(t *testing.T) {
	const sessions = 32
	srv := llmtest.NewServer(t,
		llmtest.WithBounds(session.Bounds{MaxSessions: sessions, MaxReservedBytes: 1 << 40, MaxConfigBytes: 1 << 20}))
	shared := nestedRegexScenario()

	var wg sync.WaitGroup
	errs := make(chan error, sessions)
	for i := range sessions {
		wg.Go(func() {
			sess, err := srv.OpenSession(session.WithScenario(shared))
			if err != nil {
				errs <- err
				return
			}
			defer sess.Close()
			client := e2e.ClientFor(sess, "")
			resp, err := client.Chat.Completions.New(t.Context(), e2e.UserTurn("gpt-4.1-mini", fmt.Sprintf("ask %d", i%10)))
			if err != nil {
				errs <- fmt.Errorf("session %d: %w", i, err)
				return
			}
			if got := resp.Choices[0].Message.Content; got != "nested answer" {
				errs <- fmt.Errorf("session %d: got %q, want the nested answer", i, got)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
