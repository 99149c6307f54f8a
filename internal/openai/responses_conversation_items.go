package openai

import (
	"net/http"

	"github.com/llmtestserver/llmtestserver/internal/runtime"
)

// openConversation returns the conversation a Responses request names
// (nil when it names none), or the API's 404 when the session does not
// keep it. Its items are the prompt's prefix: scenarios see them before
// the request's input, and usage counts them.
func openConversation(rt *runtime.Runtime, id string) (*StoredConversation, *Error) {
	if id == "" {
		return nil, nil
	}
	c, ok := lookup[*StoredConversation](rt, id)
	if !ok {
		return nil, ConversationNotFound(id)
	}
	return c, nil
}

// fits refuses input that the conversation can never take: input that by
// itself, in a conversation of nothing else, would keep more than the
// history's max bytes. The refusal comes before any reply is reserved, so
// the session is unchanged. Input that fits only without the
// conversation's oldest items is answered, and those items are dropped
// once the turn is appended (appendTurn).
func (c *StoredConversation) fits(rt *runtime.Runtime, input []Item) *Error {
	if c == nil {
		return nil
	}
	maxBytes := rt.Settings().HistoryMaxBytes
	if c.only(input).Size() > maxBytes {
		return ConversationTooLarge(c.ID, "input", maxBytes)
	}
	return nil
}

// appendTurn adds a delivered response's input and output items to
// conversation id, as the API does once a response that names a
// conversation completes. The items are copied. A conversation deleted
// meanwhile gets nothing; one that would outgrow the history's max bytes
// drops its oldest items until it fits.
func appendTurn(rt *runtime.Runtime, id string, input, output []Item) {
	items := CloneItems(append(append([]Item(nil), input...), output...))
	rt.Update(id, func(old runtime.Stored, maxBytes int64) runtime.Stored {
		c, ok := old.(*StoredConversation)
		if !ok {
			return nil
		}
		return c.with(items).trimmedTo(maxBytes)
	})
}

// conversationExclusive answers conversation beside previous_response_id,
// as a probe of the live API recorded it: param null, code
// mutually_exclusive_parameters, and a message with an empty quoted name
// and previous_response_id abbreviated, as the API abbreviates long names
// in its type errors.
func conversationExclusive() *Error {
	return invalidRequest(http.StatusBadRequest, "mutually_exclusive_parameters", "",
		"Mutually exclusive parameters: ''. Ensure you are only providing one of: 'pre..._id' or 'conversation'.")
}

// thenDeliver returns a Delivered hook that runs first and then second;
// either may be nil.
func thenDeliver(first, second func()) func() {
	switch {
	case first == nil:
		return second
	case second == nil:
		return first
	}
	return func() { first(); second() }
}
