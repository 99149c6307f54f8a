// Package session manages the isolated sessions of an llmtestserver.
//
// A [Session] owns its own configuration, scenario queues and request journal;
// nothing it does is seen by another session. Tests normally get sessions
// from llmtest.Server.NewSession, and point an SDK at them:
//
//	sess := srv.NewSession(t, session.RequireAPIKey("provider-key"), session.OnlyModels("gpt-4.1-mini"))
//	client := llmtest.OpenAIClient(sess) // or, by hand:
//	client = openai.NewClient(
//		option.WithBaseURL(sess.BaseURL()),
//		option.WithAPIKey("provider-key"),
//		option.WithHTTPClient(sess.HTTPClient()))
//
// Anthropic's SDK takes sess.AnthropicBaseURL() instead, the server's root,
// and Google's genai sess.GeminiBaseURL() (HTTPOptions.BaseURL), the root
// too.
// The session's HTTP client adds the X-Llm-Test-Server-Session and
// X-Llm-Test-Server-Session-Key headers to every request; they select and
// authorize the session, independently of the provider API key.
//
// Besides scenarios, a [Config] holds the session-wide settings that make
// a provider misbehave: per-model rate limits with the provider's 429s and
// rate-limit headers ([WithRateLimits], [WithModelRateLimits],
// [RateLimitsConfig]), chaos rules that fault some requests from a seed
// ([WithChaos], [ChaosConfig]), the bounds of the answers kept for
// Idempotency-Key replays ([WithIdempotency], [IdempotencyConfig]), and the
// context-window check, on unless [IgnoreContextWindow]. Rate limits and
// every other time-based behaviour run on the Manager's clock
// ([ManagerConfig].Clock). Reset clears the buckets, the chaos rules'
// counts, the kept answers and the fault counters.
//
// The journal keeps the first bytes of each request body
// ([WithJournalBody]) and its headers, credentials and the headers
// [RedactHeaders] names redacted.
//
// [Session.Fork] copies a session, configuration and state, into a new
// isolated one (build a base session once, fork it for each parallel
// subtest); a fork starts its own journal. A builder's Clear drops what a
// scenario has left, and [Session.Reset] makes every scripted reply
// available again.
//
// A [Manager] admits sessions within its [Bounds]: a number of sessions and
// a budget of reserved bytes, where each session reserves what its [Config]
// allows it to keep (see [Config.Reservation]); a fork reserves what its
// parent does, and the default runtime, which answers requests without
// session headers, takes its share like a session. [Manager.Sessions]
// lists the working set, most recently used first. Sessions live until
// they are deleted; a long-running shared server may call
// [Manager.EvictIdle] to delete those idle for too long, never one with a
// request in flight. A [Config] is plain data, and as JSON exactly what
// the admin API accepts.
package session
