// Package journal records what a session's clients really sent and what they
// got back, so tests can assert on it.
//
// Every provider request that reaches a session is recorded as one [Entry]:
// how it was sent (endpoint, method, path, the normalized [Request] with its
// system prompt, messages, tools and knobs, the body's first bytes, the
// headers and the SDK's [Client] identity), how it was answered (status,
// reply text, refusal, tool calls, response ID, error code and message,
// usage, stream events and time to first byte), and by what (the scenario,
// the reply's index and the test line that scripted it, or for a miss the
// scenarios [Tried], nearest first). Credentials never enter the journal:
// the headers that carry them read [Redacted], and neither the session key
// nor any bearer token is stored. The journal is bounded by a number of
// entries and a number of bytes; when either bound would be passed the
// oldest entries go first and are counted in [Journal.Evicted].
//
// A test asks the journal what it needs: [Journal.Find] and [Journal.Count]
// take a [Query] (provider, endpoint, model, scenario, conversation,
// generation, status or its class, error code, fault; a zero field
// matches anything), [Journal.Conversation] gives one conversation's
// entries in turn order, and [Journal.Counts] tallies entries by field.
// [Entry.String] is an entry's one-line form, and [Entry.WithoutTimes]
// sets its times apart so that assert.Equal compares the rest. The
// questions agent tests ask have answers as plain values:
// [Journal.SystemPrompts], [Journal.ToolsOffered], [Journal.PromptCacheKeys],
// [Journal.MaxRetries] and [Journal.TotalTokens].
//
// An entry also tells how the request was answered when something was
// meant to go wrong: [Entry.Fault] names the scripted fault that fired
// ("drop" with status 0, "hang" with 499, "cut", "malformed",
// "error_event", "http_error"), [Entry.IdempotencyKey] is the request's
// Idempotency-Key, and [Entry.Replay] marks an answer replayed for it.
// [Report.Faults] counts the fired faults by kind; they do not make a
// report unclean, since the test scripted them.
package journal
