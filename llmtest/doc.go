// Package llmtest gives every Go test its own fake LLM provider.
//
// A test starts a server, opens an isolated session on it, points the official
// SDK at the session, scripts what the model answers and asserts on what its
// code really sent:
//
//	srv := llmtest.NewServer(t)
//	sess := srv.NewSession(t, session.RequireBearerToken("provider-key"))
//	sess.Chat("greeting").Responds("Hello from this test")
//
//	client := openai.NewClient(
//		option.WithBaseURL(sess.BaseURL()),
//		option.WithAPIKey("provider-key"),
//		option.WithHTTPClient(sess.HTTPClient()))
//	// ... run the code under test with client ...
//	last, _ := sess.Journal().Last()
//
// The same session answers Anthropic's SDK, from the same scenarios; its
// base URL is the server's root, as that SDK appends /v1 itself:
//
//	client := anthropic.NewClient(
//		option.WithBaseURL(sess.AnthropicBaseURL()),
//		option.WithAPIKey("provider-key"),
//		option.WithHTTPClient(sess.HTTPClient()))
//
// Many parallel tests share one server without seeing each other: each
// session owns its configuration, scenario queues and journal, and the
// session's HTTP client adds the headers that select it. The server and every
// session are closed by t.Cleanup.
//
// The same server runs standalone as cmd/llmtestserver, for tests written in
// other languages; they create sessions over HTTP with POST
// /admin-api/sessions.
package llmtest
