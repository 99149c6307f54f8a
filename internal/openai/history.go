package openai

import "github.com/llmtestserver/llmtestserver/internal/runtime"

// The session's history as the codec keeps it: stored responses, stored
// chat completions and conversations side by side.

// lookup returns the record id of rt's history if it is a T: the history
// keeps stored responses, conversations and stored chat completions side by
// side, and an ID of one kind never answers for another.
func lookup[T runtime.Stored](rt *runtime.Runtime, id string) (T, bool) {
	s, ok := rt.Lookup(id)
	if !ok {
		var zero T
		return zero, false
	}
	r, ok := s.(T)
	return r, ok
}
