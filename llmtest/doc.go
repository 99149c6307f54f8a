// Package llmtest gives every Go test its own fake LLM provider.
//
// A test starts a server, opens an isolated session on it, points the official
// SDK at the session, scripts what the model answers and asserts on what its
// code really sent:
//
//	srv := llmtest.NewServer(t)
//	sess := srv.NewSession(t, session.RequireAPIKey("provider-key"))
//	sess.Chat("greeting").Responds("Hello from this test")
//
//	client := llmtest.OpenAIClient(sess) // base URL, session headers, "provider-key"
//	// ... run the code under test with client ...
//	last, _ := sess.Journal().Last()
//	require.Equal(t, []string{"You are..."}, sess.Journal().SystemPrompts())
//
// The journal answers what agent tests ask with plain values that
// testify's require and assert compare (journal.Journal.SystemPrompts,
// ToolsOffered, PromptCacheKeys, MaxRetries, TotalTokens), and
// CheckSameCacheKey and CheckMaxRetries fail the test naming the entries
// at fault.
//
// The same session answers Anthropic's SDK, from the same scenarios; its
// base URL is the server's root, as that SDK appends /v1 itself, and
// outside this module its client takes the three settings by hand:
//
//	client := anthropic.NewClient(
//		option.WithBaseURL(sess.AnthropicBaseURL()),
//		option.WithAPIKey("provider-key"),
//		option.WithHTTPClient(sess.HTTPClient()))
//
// So does Google's genai for Gemini (generateContent, its stream,
// countTokens, embeddings, models and cached contents, on the Developer
// API's paths and Vertex AI's); genai appends its API version itself, and
// a client that brings its own HTTP client needs no Google credentials:
//
//	client, err := genai.NewClient(ctx, &genai.ClientConfig{
//		APIKey:      "provider-key",
//		Backend:     genai.BackendGeminiAPI,
//		HTTPClient:  sess.HTTPClient(),
//		HTTPOptions: genai.HTTPOptions{BaseURL: sess.GeminiBaseURL()},
//	})
//
// The nested modules examples/anthropic and examples/gemini hold runnable
// examples of both.
//
// Many parallel tests share one server without seeing each other: each
// session owns its configuration, scenario queues and journal, and the
// session's HTTP client adds the headers that select it. The server and every
// session are closed by t.Cleanup.
//
// # In memory, and testing/synctest
//
// A server started WithInMemory (or any server, when the environment sets
// LLMTEST_TRANSPORT=memory) opens no listener: the session clients
// (HTTPClient, Transport, WrapClient), Server.Client and Server.Transport
// call its handler in memory, streaming included, with the same headers,
// bodies and errors as over loopback. Its URL is InMemoryURL,
// "http://llmtest.invalid", which never resolves: a client not built from
// the server's transport fails at once instead of reaching something else.
//
// Inside a testing/synctest bubble, start the server inside the bubble.
// Every delay, stream pacing and client timeout then runs on the bubble's
// virtual clock, which advances as soon as everything in the bubble waits,
// so a test of "retry after a 20 s Retry-After" takes no real 20 s:
//
//	synctest.Test(t, func(t *testing.T) {
//		srv := llmtest.NewServer(t, llmtest.WithInMemory())
//		sess := srv.NewSession(t)
//		sess.Chat("busy").
//			Reply(scenario.Reply{Error: &scenario.Error{Kind: scenario.ErrorRateLimit,
//				Headers: map[string]string{"Retry-After": "20"}}}).
//			Then("answered")
//		client := openai.NewClient(option.WithBaseURL(sess.BaseURL()),
//			option.WithAPIKey("k"), option.WithHTTPClient(sess.HTTPClient()))
//		// openai-go waits the 20 s, on the bubble's clock, and retries.
//	})
//
// Do not share one server between the bubble and the outside: its
// channels, timers and goroutines must all belong to the bubble, and
// synctest panics when the outside uses a channel made inside. A loopback
// server does not work in a bubble either: a goroutine waiting on a socket
// is not durably blocked, so the bubble's clock never advances.
//
// Make the SDK's first request of a test binary outside any bubble, from
// TestMain, when bubble tests run in parallel with tests outside. openai-go
// and anthropic-sdk-go build their JSON encoders once per type, behind a
// sync.WaitGroup that a second goroutine meeting the type waits on, and Go
// 1.26 (seen on 1.26.8) crashes with a nil pointer dereference in
// internal/synctest when a WaitGroup first used inside a bubble is waited
// on outside it. One plain request of each kind the bubble tests make is
// enough: it builds those encoders outside.
//
// # Failures and time
//
// What goes wrong is scripted like any answer. Faults are replies
// (scenario.Drop, scenario.Hang, Reply.CutAfter, Reply.MalformedAfter,
// Reply.FailsAfter), so "drop twice, then answer" is one scenario that the
// SDK's own retries run against:
//
//	sess.Chat("flaky").Drops().Drops().Responds("finally")
//
// Session options add rate limits with the provider's 429s and headers
// (session.WithRateLimits), seeded chaos rules (session.WithChaos),
// Idempotency-Key replays (session.WithIdempotency) and the context-window
// check (on unless session.IgnoreContextWindow). sess.Assertions().Faults
// counts the faults fired. Generated IDs are unique to each session;
// session.WithIDSeed makes them reproducible for golden files.
//
// WithClock runs a server on a clock.Fake, so that delays, pacing and
// rate-limit windows move only when the test calls Advance; only the
// server runs on it, while the SDK's retry sleeps and client timeouts keep
// real time. When those must run on virtual time too, use a
// testing/synctest bubble and an in-memory server, as above.
//
// # Assertions, golden transcripts and CI artifacts
//
// Every function that takes a t takes a TB, which *testing.T, *testing.B
// and *testing.F satisfy and which testify's require and assert accept,
// so a helper of the test's own can take an llmtest.TB and hand it to
// require:
//
//	func requireUser(t llmtest.TB, sess *session.Session, want string) {
//		t.Helper()
//		last, ok := sess.Journal().Last()
//		require.True(t, ok)
//		require.Equal(t, want, last.UserText)
//	}
//
// CheckGolden compares a session's Transcript with a golden file, as Go
// projects do, and fails with the first line that differs; run the test
// with -llmtest.update (or LLMTEST_UPDATE=1, for go test ./..., where
// packages that do not import llmtest reject the flag) to write the file
// instead. A transcript holds no timings; open golden sessions with
// session.WithIDSeed so that generated IDs repeat:
//
//	sess := srv.NewSession(t, session.WithIDSeed(1))
//	// ... run the agent ...
//	llmtest.CheckGolden(t, sess, "testdata/plan_trip.golden")
//
// When a test fails, the cleanup of each session NewSession opened writes
// the session's journal to the directory LLMTEST_ARTIFACTS_DIR names (or
// WithArtifactsDir, which wins), as <dir>/<test name>/<session ID>.jsonl,
// for a CI job to keep: a header line with the format's version
// (JournalArtifactVersion), then one journal.Entry per line in the JSON of
// GET /admin-api/journal. ReadJournalArtifact reads one back. Passing
// tests write nothing.
//
// The same server runs standalone as cmd/llmtestserver, for tests written in
// other languages; they create sessions over HTTP with POST
// /admin-api/sessions.
package llmtest
