package scenario

import "time"

// Sink receives what a Builder scripts. Sessions implement it; AddReplies
// appends replies to the scenario called name, creating it with match when the
// sink has no scenario of that name yet.
type Sink interface {
	AddReplies(name string, match Match, replies ...Reply)
}

// Builder scripts one named scenario fluently. Every call takes effect at
// once, so a reply scripted mid-test answers the next matching request.
type Builder struct {
	sink  Sink
	name  string
	match Match
}

// NewBuilder returns a Builder that scripts the scenario name, matching
// requests with match, into sink.
func NewBuilder(sink Sink, name string, match Match) *Builder {
	return &Builder{sink: sink, name: name, match: match}
}

// Responds queues an answer with the given text.
func (b *Builder) Responds(text string) *Builder {
	return b.Reply(Reply{Text: text})
}

// RespondsAfter queues an answer with the given text that is held back for
// delay before the response starts.
func (b *Builder) RespondsAfter(delay time.Duration, text string) *Builder {
	return b.Reply(Reply{Text: text, Delay: delay})
}

// Reply queues replies as they are.
func (b *Builder) Reply(replies ...Reply) *Builder {
	b.sink.AddReplies(b.name, b.match, replies...)
	return b
}
