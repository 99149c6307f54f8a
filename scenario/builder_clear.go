package scenario

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
func (b *Builder) Clear() *Builder {
	b.sink.ClearReplies(b.name)
	b.last = nil
	return b
}
