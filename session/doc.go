// Package session manages the isolated sessions of an llmtestserver.
//
// A [Session] owns its own configuration, scenario queues and request journal;
// nothing it does is seen by another session. Tests normally get sessions
// from llmtest.Server.NewSession, and point an SDK at them:
//
//	sess := srv.NewSession(t, session.RequireBearerToken("provider-key"), session.OnlyModels("gpt-4.1-mini"))
//	client := openai.NewClient(
//		option.WithBaseURL(sess.BaseURL()),
//		option.WithAPIKey("provider-key"),
//		option.WithHTTPClient(sess.HTTPClient()))
//
// Anthropic's SDK takes sess.AnthropicBaseURL() instead, the server's root.
// The session's HTTP client adds the X-Llm-Test-Server-Session and
// X-Llm-Test-Server-Session-Key headers to every request; they select and
// authorize the session, independently of the provider API key.
//
// A [Manager] admits sessions within its [Bounds]: a number of sessions and
// a budget of reserved bytes, where each session reserves what its [Config]
// allows it to keep (see [Config.Reservation]). A [Config] is plain data, and
// as JSON exactly what the admin API accepts.
package session
