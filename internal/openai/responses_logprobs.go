package openai

import (
	"encoding/json"
	"slices"
)

// includeTextLogprobs is the include value that asks the Responses API for
// the log probabilities of the output text's tokens.
const includeTextLogprobs = "message.output_text.logprobs"

// responseLogprobs is what an answer to req renders of log probabilities:
// nil unless include asks for them, else top_logprobs alternatives per
// token (0 to 20, the request's).
func responseLogprobs(req *ResponsesRequest) *Logprobs {
	if req == nil || !slices.Contains(req.Include, includeTextLogprobs) {
		return nil
	}
	top := 0
	if req.TopLogprobs != nil {
		top = int(*req.TopLogprobs)
	}
	return &Logprobs{Top: top}
}

// textLogprobs is the logprobs array of the answer's output_text part: the
// same deterministic entries as Chat Completions gives, one per token
// (see appendTokenLogprobs), and [] when not asked for.
func (a *ResponseAnswer) textLogprobs() json.RawMessage {
	if a.Logprobs == nil {
		return json.RawMessage("[]")
	}
	return appendTokenLogprobs(nil, a.LogprobTokens, 0, a.Logprobs.Top)
}

// textPieces cuts the answer's text into deltas of per tokens, with the
// logprobs array of each: the tokens are the answer's own, so the deltas'
// entries join into the part's.
func (a *ResponseAnswer) textPieces(split func(string) []string, per int) (pieces []string, logprobs []json.RawMessage) {
	if a.Logprobs == nil {
		pieces = chunkPieces(a.Text, split, per)
		logprobs = make([]json.RawMessage, len(pieces))
		for i := range logprobs {
			logprobs[i] = json.RawMessage("[]")
		}
		return pieces, logprobs
	}
	own := func(string) []string { return a.LogprobTokens }
	p := chunkTokens(a.Text, own, per, true)
	for i := range p.pieces {
		s := p.span(i)
		logprobs = append(logprobs, appendTokenLogprobs(nil, p.tokens[s.from:s.to], s.from, a.Logprobs.Top))
	}
	return p.pieces, logprobs
}
