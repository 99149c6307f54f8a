// Package anthropic holds a runnable example of llmtestserver with
// Anthropic's Go SDK, github.com/anthropics/anthropic-sdk-go/v2. It is a
// module of its own so that the SDK never enters the module graph of a user
// of llmtestserver.
//
// The SDK appends /v1 to its base URL itself, so a client is pointed at
// the session's AnthropicBaseURL, not at its BaseURL:
//
//	client := anthropic.NewClient(
//		option.WithBaseURL(sess.AnthropicBaseURL()),
//		option.WithAPIKey("provider-key"),
//		option.WithHTTPClient(sess.HTTPClient()))
package anthropic
