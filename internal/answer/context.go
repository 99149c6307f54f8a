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
		n = addTokens(n, s.Tokens)
	}
	return n
}

// checkContext refuses, with the error tooLong words, a request whose
// prompt p plus the maxOutput tokens it asks room for (0: none) pass the
// model's context window (p.Window); tooLong gets the prompt's tokens. A
// window of 0 (a model the codec's catalog does not know) and a session
// that ignores context windows are never refused.
func checkContext(x *provider.Exchange, p *Prompt, maxOutput int, tooLong func(prompt int) *apierr.Error) *apierr.Error {
	if p.Window <= 0 || x.Runtime.Settings().IgnoreContextWindow {
		return nil
	}
	if n := p.Tokens(); addTokens(n, max(maxOutput, 0)) > p.Window {
		return tooLong(n)
	}
	return nil
}
