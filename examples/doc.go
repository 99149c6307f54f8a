// Package examples holds runnable examples of llmtestserver with the
// official OpenAI Go SDK, github.com/openai/openai-go/v3. It has no API of
// its own: the examples live in its test files, run with go test, and show
// in its documentation.
//
// A test starts a server, opens an isolated session, scripts the model's
// answers and points an unmodified SDK client at the session:
//
//	srv := llmtest.NewServer(t)
//	sess := srv.NewSession(t, session.RequireAPIKey("provider-key"))
//	sess.Chat("greeting").Responds("Hello from this test")
//
//	client := openai.NewClient(
//		option.WithBaseURL(sess.BaseURL()),
//		option.WithAPIKey("provider-key"),
//		option.WithHTTPClient(sess.HTTPClient()))
//
// Examples cannot take a *testing.T, so they use the plain constructors
// llmtest.New and Server.OpenSession and close what they open themselves.
package examples
