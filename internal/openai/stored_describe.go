package openai

import "time"

// The stored records describe themselves for the listing of a session's
// history (runtime.Described): their kind is the object name the API
// gives them, their creation time the one their object shows.

// StoredKind implements runtime.Described.
func (r *StoredResponse) StoredKind() string { return "response" }

// StoredCreated implements runtime.Described.
func (r *StoredResponse) StoredCreated() time.Time { return time.Unix(r.Answer.CreatedAt, 0).UTC() }

// StoredKind implements runtime.Described.
func (c *StoredChat) StoredKind() string { return "chat.completion" }

// StoredCreated implements runtime.Described.
func (c *StoredChat) StoredCreated() time.Time { return time.Unix(c.Answer.Created, 0).UTC() }

// StoredKind implements runtime.Described.
func (c *StoredConversation) StoredKind() string { return "conversation" }

// StoredCreated implements runtime.Described.
func (c *StoredConversation) StoredCreated() time.Time { return time.Unix(c.CreatedAt, 0).UTC() }
