package session

import "net/http"

// Conversation is a view of a session for one declared conversation: its
// clients add the conversation header to every request, so the server files
// the requests under that conversation whatever their content. Parallel
// conversations with the same opening stay apart this way, and
// per-conversation scenarios give each its own sequence of replies.
type Conversation struct {
	session *Session
	name    string
}

// Conversation returns the view of s for the conversation called name.
func (s *Session) Conversation(name string) *Conversation {
	return &Conversation{session: s, name: name}
}

// Name returns the conversation's name.
func (c *Conversation) Name() string { return c.name }

// Transport returns a RoundTripper that sends every request with the session
// headers and the conversation header over the server's shared transport.
func (c *Conversation) Transport() http.RoundTripper {
	return c.WrapTransport(c.session.m.cfg.Transport)
}

// WrapTransport is Session.WrapTransport for this conversation.
func (c *Conversation) WrapTransport(base http.RoundTripper) http.RoundTripper {
	t := c.session.WrapTransport(base).(*transport)
	t.conversation = c.name
	return t
}

// HTTPClient returns a client whose requests carry the session and
// conversation headers.
func (c *Conversation) HTTPClient() *http.Client {
	return &http.Client{Transport: c.Transport()}
}

// WrapClient is Session.WrapClient for this conversation.
func (c *Conversation) WrapClient(client *http.Client) *http.Client {
	if client == nil {
		client = http.DefaultClient
	}
	wrapped := *client
	wrapped.Transport = c.WrapTransport(client.Transport)
	return &wrapped
}
