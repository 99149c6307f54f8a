// Package clock is the time a server runs on: the real clock by default,
// or a Fake a test moves forward by hand.
//
// Everything time-based in a server reads its clock: reply delays, time to
// first token and token pacing, rate-limit windows and Retry-After,
// prompt-cache lifetimes, the created timestamps of answers and the times
// of journal entries. Give a server a Fake with llmtest.WithClock to test,
// without sleeping, what code does when a provider is slow or rate-limits
// it:
//
//	clk := clock.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
//	srv := llmtest.NewServer(t, llmtest.WithClock(clk))
//	...
//	clk.Advance(time.Minute) // the rate-limit window frees
//
// Only the server runs on the Fake: an SDK's own retry sleeps and an
// http.Client's timeout keep real time. To put both on virtual time, run
// the test in a testing/synctest bubble with a server in memory mode (see
// the llmtest package), where the real clock is the bubble's.
package clock
