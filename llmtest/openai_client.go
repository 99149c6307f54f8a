package llmtest

import (
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/llmtestserver/llmtestserver/session"
)

// PlaceholderAPIKey is the API key OpenAIClient sends to a session that
// requires none: openai-go sends whatever key it has, and a fixed word
// keeps a key from the environment (OPENAI_API_KEY) out of the request.
const PlaceholderAPIKey = "llmtest"

// OpenAIClient returns an openai-go client bound to sess: its base URL
// (Session.BaseURL), its transport (Session.HTTPClient, which adds the
// session headers), and its provider key (the API key the session
// requires, or PlaceholderAPIKey when it requires none). opts are applied
// after those, so they win: option.WithMaxRetries(0) for a test of one
// attempt, option.WithAPIKey("wrong") for a test of the 401, or
// option.WithHTTPClient(sess.Conversation("alice").HTTPClient()) for a
// declared conversation.
//
// The key is read once, here: a later Configure that changes the API
// key needs a new client. The environment's OPENAI_BASE_URL and
// OPENAI_API_KEY, which openai-go reads, are overridden, so a developer's
// real key never reaches the fake server.
//
// Clients of other SDKs (anthropic-sdk-go, go-openai) take the same three
// settings by hand; see the package documentation.
func OpenAIClient(sess *session.Session, opts ...option.RequestOption) openai.Client {
	key := PlaceholderAPIKey
	if cfg, err := sess.Config(); err == nil && cfg.APIKey != "" {
		key = cfg.APIKey
	}
	return openai.NewClient(append([]option.RequestOption{
		option.WithBaseURL(sess.BaseURL()),
		option.WithAPIKey(key),
		option.WithHTTPClient(sess.HTTPClient()),
	}, opts...)...)
}
