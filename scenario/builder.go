package scenario

import (
	"fmt"
	"time"

	"github.com/llmtestserver/llmtestserver/internal/friend"
)

// sink receives what a Builder scripts: a session. Its AddReplies and
// UpdateScenario create the scenario called name, matching match, when the
// sink has none of that name yet; AddReplies appends replies to its queue,
// UpdateScenario changes its settings and keeps the replies it has left,
// ClearReplies drops them. A Builder calls UpdateScenario only once its
// AddReplies has created the scenario, so no scenario without replies
// reaches the sink.
type sink = friend.ScenarioSink[Match, Reply, Scenario]

// Only sessions make builders, through package friend: a builder is always
// bound to the session it scripts.
func init() { friend.RegisterBuilder(newBuilder) }

// Builder scripts one named scenario fluently. From the first reply on,
// every call takes effect at once, so a reply scripted mid-test answers the
// next matching request:
//
//	sess.Chat("weather").
//		When(scenario.ToolOffered("get_weather")).
//		Reply(scenario.CallTool("get_weather", `{"city":"Paris"}`)).
//		Then("It is sunny in Paris.")
//
// A scenario exists only once it has a reply: When, Repeat and
// PerConversation called before the builder's first reply take effect with
// that reply, so a session's configuration never holds a scenario without
// replies and always applies again as it is.
//
// A builder for a name that is already scripted, such as a second
// sess.Chat("weather"), continues that scenario rather than starting a new
// one: its replies are appended to the scenario's queue, after those left;
// its When, once it takes effect, replaces the scenario's match with the
// builder's own base narrowed by this builder's When calls (the conditions
// an earlier builder added are not kept); Repeat and PerConversation set
// their flag and never clear it. Without When, the scenario keeps its match.
// This is the Go counterpart of posting a scenario of an existing name to
// POST /admin-api/scenarios, which also appends the replies, but replaces
// the match and the flags in every case.
//
// Every reply a builder queues records in Reply.ScriptedAt the file:line
// of the test's call that queued it (the first caller outside this
// module's non-test code, so a call through a session or llmtest helper
// names the test, not the helper), which the journal and failure messages
// name.
//
// A Builder is not safe for concurrent use; the scenarios it scripts are.
type Builder struct {
	sink  sink
	name  string
	base  Match   // what the builder's origin implies, such as the endpoint
	when  []Match // the conditions When added, in order
	match Match   // base narrowed by every condition in when
	last  *Reply

	// scripted says the builder has added a reply, so the scenario exists
	// and changes apply at once. Until then, the settings asked for wait
	// here and go with the first reply.
	scripted                          bool
	narrowed, repeat, perConversation bool
}

// newBuilder returns a Builder that scripts the scenario name, matching
// requests with base, into sink. The builder keeps its own copy of base.
//
// It panics if base is invalid, such as a bad regular expression: that is a
// mistake in the test, reported where it was made.
func newBuilder(sink sink, name string, base Match) *Builder {
	base = base.clone()
	if err := base.validate("match"); err != nil {
		panic("scenario: " + name + ": " + err.Error())
	}
	return &Builder{sink: sink, name: name, base: base, match: base}
}

// When narrows the scenario to requests that also match m: every call adds
// a condition, so When(UserContains("a")).When(Model("m")) matches requests
// that satisfy both, and the builder's base (such as the embeddings endpoint
// of Session.Embeddings) always holds too.
//
// It panics if m is invalid, such as a bad regular expression: that is a
// mistake in the test, reported where it was made.
func (b *Builder) When(m Match) *Builder {
	m = m.clone()
	if err := m.validate("match"); err != nil {
		panic("scenario: " + b.name + ": When: " + err.Error())
	}
	b.when = append(b.when, m)
	b.match = narrow(b.base, b.when)
	b.narrowed = true
	b.update()
	return b
}

// narrow returns the match that requires base and every condition in when,
// in a new All list (the sink gets a deep copy of it in any case).
func narrow(base Match, when []Match) Match {
	conds := make([]Match, 0, len(when)+1)
	if !base.isZero() {
		conds = append(conds, base)
	}
	conds = append(conds, when...)
	if len(conds) == 1 {
		return conds[0]
	}
	return All(conds...)
}

// Responds queues an answer with the given text.
func (b *Builder) Responds(text string) *Builder { return b.Reply(Text(text)) }

// Then queues the answer that follows the previous one; it reads better
// after a first reply.
func (b *Builder) Then(text string) *Builder { return b.Reply(Text(text)) }

// RespondsAfter queues an answer with the given text that is held back for
// delay before the response starts.
func (b *Builder) RespondsAfter(delay time.Duration, text string) *Builder {
	return b.Reply(Reply{Text: text, Delay: delay})
}

// RespondsJSON queues a structured-output answer: v encoded as JSON.
func (b *Builder) RespondsJSON(v any) *Builder { return b.Reply(JSON(v)) }

// CallsTool queues a request to run the function name with the JSON
// arguments.
func (b *Builder) CallsTool(name, arguments string) *Builder {
	return b.Reply(CallTool(name, arguments))
}

// ThinksThenResponds adds a text reply preceded by the model's reasoning.
func (b *Builder) ThinksThenResponds(thinking, text string) *Builder {
	return b.Reply(Think(thinking, text))
}

// Refuses queues a refusal.
func (b *Builder) Refuses(message string) *Builder { return b.Reply(Refuse(message)) }

// Fails queues an HTTP error with the given status and code.
func (b *Builder) Fails(status int, code, message string) *Builder {
	return b.Reply(Fail(status, code, message))
}

// Drops queues a dropped connection: the client sees an EOF before any
// byte. "Fail twice, then answer" reads .Drops().Drops().Responds("ok").
func (b *Builder) Drops() *Builder { return b.Reply(Drop()) }

// Hangs queues a reply that sends nothing until the client gives up.
func (b *Builder) Hangs() *Builder { return b.Reply(Hang()) }

// Reply queues replies as they are, each with its ScriptedAt set to the
// test's line that called the builder (see callSite) unless the reply
// names its own, as a test's helper that scripts from a table may. It
// panics if a reply is invalid, such as tool-call arguments that are not
// JSON: that is a mistake in the test, reported where it was made.
func (b *Builder) Reply(replies ...Reply) *Builder {
	if len(replies) == 0 {
		return b
	}
	for i := range replies {
		if err := replies[i].Validate(); err != nil {
			panic(fmt.Sprintf("scenario: %s: reply: %v", b.name, err))
		}
	}
	// A copy: the caller's slice is not the builder's to write into.
	replies = append([]Reply(nil), replies...)
	at := callSite()
	for i := range replies {
		if replies[i].ScriptedAt == "" {
			replies[i].ScriptedAt = at
		}
	}
	b.sink.AddReplies(b.name, b.match.clone(), replies...)
	b.last = &replies[len(replies)-1]
	if !b.scripted {
		b.scripted = true
		if b.narrowed || b.repeat || b.perConversation {
			b.update()
		}
	}
	return b
}

// Times makes the previous reply answer n requests in all; the copies
// keep the ScriptedAt of the reply they copy. Without a previous reply it
// does nothing.
func (b *Builder) Times(n int) *Builder {
	if b.last == nil || n <= 1 {
		return b
	}
	copies := make([]Reply, n-1)
	for i := range copies {
		copies[i] = *b.last
	}
	b.sink.AddReplies(b.name, b.match.clone(), copies...)
	return b
}

// Repeat keeps the last reply: once the others are used, it answers every
// matching request.
func (b *Builder) Repeat() *Builder {
	b.repeat = true
	b.update()
	return b
}

// PerConversation gives every conversation its own copy of the queue, so
// parallel conversations each get the whole sequence.
func (b *Builder) PerConversation() *Builder {
	b.perConversation = true
	b.update()
	return b
}

// update hands the sink the match and flags the builder has asked for, once
// the scenario has a reply; before that they wait for the first one.
func (b *Builder) update() {
	if !b.scripted {
		return
	}
	match, narrowed, repeat, perConv := b.match.clone(), b.narrowed, b.repeat, b.perConversation
	b.sink.UpdateScenario(b.name, match, func(s *Scenario) {
		if narrowed {
			s.Match = match
		}
		if repeat {
			s.Repeat = true
		}
		if perConv {
			s.PerConversation = true
		}
	})
}
