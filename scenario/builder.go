package scenario

import (
	"fmt"
	"time"
)

// Sink receives what a Builder scripts. Sessions implement it. Both methods
// create the scenario called name, matching match, when the sink has none of
// that name yet; AddReplies appends replies to its queue, UpdateScenario
// changes its settings and keeps the replies it has left.
type Sink interface {
	AddReplies(name string, match Match, replies ...Reply)
	UpdateScenario(name string, match Match, change func(*Scenario))
}

// Builder scripts one named scenario fluently. Every call takes effect at
// once, so a reply scripted mid-test answers the next matching request:
//
//	sess.Chat("weather").
//		When(scenario.ToolOffered("get_weather")).
//		Reply(scenario.CallTool("get_weather", `{"city":"Paris"}`)).
//		Then("It is sunny in Paris.")
type Builder struct {
	sink  Sink
	name  string
	base  Match // what the builder's origin implies, such as the endpoint
	last  *Reply
	match Match
}

// NewBuilder returns a Builder that scripts the scenario name, matching
// requests with base, into sink.
func NewBuilder(sink Sink, name string, base Match) *Builder {
	return &Builder{sink: sink, name: name, base: base, match: base}
}

// When narrows the scenario to requests that also match m.
//
// It panics if m is invalid, such as a bad regular expression: that is a
// mistake in the test, reported where it was made.
func (b *Builder) When(m Match) *Builder {
	if err := m.validate("match"); err != nil {
		panic("scenario: " + b.name + ": When: " + err.Error())
	}
	b.match = m
	if !b.base.isZero() {
		b.match = All(b.base, m)
	}
	b.sink.UpdateScenario(b.name, b.match, func(s *Scenario) { s.Match = b.match })
	return b
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

// Refuses queues a refusal.
func (b *Builder) Refuses(message string) *Builder { return b.Reply(Refuse(message)) }

// Fails queues an HTTP error with the given status and code.
func (b *Builder) Fails(status int, code, message string) *Builder {
	return b.Reply(Fail(status, code, message))
}

// Reply queues replies as they are. It panics if a reply is invalid, such
// as tool-call arguments that are not JSON: that is a mistake in the test,
// reported where it was made.
func (b *Builder) Reply(replies ...Reply) *Builder {
	if len(replies) == 0 {
		return b
	}
	for i := range replies {
		if err := replies[i].Validate(); err != nil {
			panic(fmt.Sprintf("scenario: %s: reply: %v", b.name, err))
		}
	}
	b.sink.AddReplies(b.name, b.match, replies...)
	b.last = &replies[len(replies)-1]
	return b
}

// Times makes the previous reply answer n requests in all. Without a
// previous reply it does nothing.
func (b *Builder) Times(n int) *Builder {
	if b.last == nil || n <= 1 {
		return b
	}
	copies := make([]Reply, n-1)
	for i := range copies {
		copies[i] = *b.last
	}
	b.sink.AddReplies(b.name, b.match, copies...)
	return b
}

// Repeat keeps the last reply: once the others are used, it answers every
// matching request.
func (b *Builder) Repeat() *Builder {
	b.sink.UpdateScenario(b.name, b.match, func(s *Scenario) { s.Repeat = true })
	return b
}

// PerConversation gives every conversation its own copy of the queue, so
// parallel conversations each get the whole sequence.
func (b *Builder) PerConversation() *Builder {
	b.sink.UpdateScenario(b.name, b.match, func(s *Scenario) { s.PerConversation = true })
	return b
}
