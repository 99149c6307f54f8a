package e2e

// The models the tests talk to, each named for the tests that use it so
// that a test of one API can change its model without touching another's.
const (
	// ReplyModel is the chat model of the tests of scripted replies.
	ReplyModel = "gpt-4.1-mini"
	// ResponsesModel is the model the Responses tests talk to.
	ResponsesModel = "gpt-4.1-mini"
	// EmbeddingModel is the embedding model the tests use: 1536
	// dimensions natively, cl100k_base tokens.
	EmbeddingModel = "text-embedding-3-small"
	// ConversationModel is the model of the conversation-tracking tests.
	ConversationModel = "gpt-4.1-mini"
	// ConversationSystem is the system message that opens their
	// conversations.
	ConversationSystem = "You are a terse planning assistant."
)

// ScriptedVector reports whether v is the two-dimensional vector the
// embeddings scenarios of the match tests script (scenario.Vectors of
// {1, 0}), rather than a computed one.
func ScriptedVector(v []float64) bool { return len(v) == 2 && v[0] == 1 && v[1] == 0 }
