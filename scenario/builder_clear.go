package scenario

// Clearer is the part of a Sink that drops a scenario's replies: sessions
// implement it. ClearReplies drops what the scenario called name has left
// and keeps the scenario, in its place and with its match and flags; a
// name the sink does not have is left alone.
type Clearer interface {
	ClearReplies(name string)
}

// Clear drops the replies the scenario has left, so that it answers nothing
// until the builder, or another for the same name, queues new ones:
//
//	fork := srv.Fork(t, base)
//	fork.Chat("greeting").Clear().Responds("Bonjour")
//
// The scenario keeps its place among the others, its match and its flags.
// What it drops is gone for good: Reset makes the replies used before
// Clear available again, and those queued after it, but not the dropped
// ones. A per-conversation scenario has every reply left for the
// conversations to come, and so loses them all. Times after Clear repeats
// nothing until a reply is queued again.
//
// It panics if the builder's sink cannot drop replies (it does not
// implement Clearer): a session's builders always can.
func (b *Builder) Clear() *Builder {
	c, ok := b.sink.(Clearer)
	if !ok {
		panic("scenario: " + b.name + ": Clear: the builder's sink cannot drop replies")
	}
	c.ClearReplies(b.name)
	b.last = nil
	return b
}
