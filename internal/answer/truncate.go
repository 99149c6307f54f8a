package answer

import (
	"strings"

	"github.com/llmtestserver/llmtestserver/internal/provider"
	"github.com/llmtestserver/llmtestserver/internal/tokens"
)

// cut is what truncate kept of an answer that passed the request's
// maximum output tokens.
type cut struct {
	// done reports that the answer was cut.
	done bool
	// thinking and text are the tokens kept of each; together the limit.
	thinking, text int
}

// truncate cuts a to the request's maximum output tokens (limit; 0 means
// none), at token boundaries of model's encoding: the reasoning first, as
// the model writes it first, then the text (or JSON document). A cut answer
// keeps no tool calls and no refusal, which the model never reached; the
// caller leaves them out. Tool calls of an answer whose text fits are never
// cut and not counted against the limit: arguments cut half-way are
// something no test scripts on purpose, and a scripted call is meant to
// arrive.
func truncate(c *Counter, limit int, a *provider.Answer) cut {
	if limit <= 0 || len(a.Thinking)+len(a.Text) <= limit {
		return cut{} // every token is at least a byte long
	}
	thinking, text := c.Count(a.Thinking), c.Count(a.Text)
	if c.Err != nil || thinking+text <= limit {
		return cut{}
	}
	if thinking >= limit {
		kept, ok := keep(c, a.Thinking, limit)
		if !ok {
			return cut{}
		}
		a.Thinking, a.Text = kept, ""
		return cut{done: true, thinking: limit}
	}
	kept, ok := keep(c, a.Text, limit-thinking)
	if !ok {
		return cut{}
	}
	a.Text = kept
	return cut{done: true, thinking: thinking, text: limit - thinking}
}

// keep returns the first n tokens of text, and false when the request's
// context ended while it was cut.
func keep(c *Counter, text string, n int) (string, bool) {
	pieces, err := tokens.SplitContext(c.Ctx, c.Model, text)
	if err != nil {
		c.Err = err
		return "", false
	}
	return strings.Join(pieces[:min(n, len(pieces))], ""), true
}
