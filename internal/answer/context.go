package answer

import (
	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// Tokens is the prompt's tokens as the usage counts them: its segments'
// and the overhead.
func (p *Prompt) Tokens() int {
	n := p.Overhead
	for _, s := range p.Segments {
		n += s.Tokens
	}
	return n
}

// CheckContext refuses, with the error exceeded words, a request whose
// prompt p plus the maxOutput tokens it asks room for (0: none) pass the
// model's context window; exceeded gets the prompt's tokens. A window of 0
// (a model the codec's catalog does not know), a prompt that could not be
// counted, and a session that ignores context windows are never refused.
// Codecs call it before the reply is reserved (from Find's refuse), so
// that a refused request leaves the session as it was, and hand the same
// p to Build, so that the prompt is counted once.
func CheckContext(x *provider.Exchange, p *Prompt, maxOutput, window int, exceeded func(prompt int) *apierr.Error) *apierr.Error {
	if window <= 0 || p.Err != nil || x.Runtime.Settings().IgnoreContextWindow {
		return nil
	}
	if n := p.Tokens(); n+max(maxOutput, 0) > window {
		return exceeded(n)
	}
	return nil
}
