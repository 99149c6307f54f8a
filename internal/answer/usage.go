package answer

import (
	"context"

	"github.com/llmtestserver/llmtestserver/internal/tokens"
)

// Counter counts texts in Model's encoding until Ctx is done; from then on
// it counts nothing and Err holds Ctx's cause.
type Counter struct {
	Ctx   context.Context
	Model string
	Err   error
}

// Count returns the tokens of text, or 0 once the context is done.
func (c *Counter) Count(text string) int {
	if c.Err != nil || text == "" {
		return 0
	}
	n, err := tokens.CountContext(c.Ctx, c.Model, text)
	c.Err = err
	return n
}
