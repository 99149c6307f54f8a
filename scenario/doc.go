// Package scenario describes what the fake model answers.
//
// A [Scenario] is a name, a [Match] and an ordered queue of [Reply] values.
// The server offers every provider request, normalized into a [Request], to a
// session's scenarios in order; the first scenario that matches and still has
// a reply answers it, and that reply is used up. An exhausted scenario is
// skipped; one marked Repeat keeps answering with its last reply. A request
// that no scenario answers gets 400 llm_test_server_no_scenario, which the
// SDKs do not retry, with a message naming the request and why each scenario
// was passed over.
//
// # Scripting
//
// Scenarios are plain data: the same values script a session in Go through a
// [Builder] and travel as JSON in the configuration the admin API accepts.
// They see only the normalized [Request], so one scenario answers Chat
// Completions and the Responses API alike; embeddings are answered by
// scenarios that name that endpoint, and computed otherwise.
//
//	sess.Chat("weather").
//		When(scenario.ToolOffered("get_weather")).
//		CallsTool("get_weather", `{"city":"Paris"}`).
//		Then("It is sunny in Paris.")
//
// is the Go form of
//
//	{"name": "weather",
//	 "match": {"tool_offered": "get_weather"},
//	 "replies": [{"tool_calls": [{"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}]},
//	             {"text": "It is sunny in Paris."}]}
//
// Replies are text, tool calls (several run in parallel), JSON for structured
// outputs (checked against the request's schema; a mismatch is reported in
// the session's assertions), refusals and HTTP errors such as a 429 with
// Retry-After. Each may override the finish reason, the usage and the model,
// and may be held back by a delay. [Func] predicates and [Respond] responders
// are Go functions: they work in-process only, and a configuration holding
// one cannot be encoded as JSON ([ErrInProcessOnly]).
//
// A reply is taken when a request chooses it. If the response cannot be
// delivered (the client gave up first), the reply goes back to the head of
// its queue, so the client's retry gets it. [Builder.Clear] drops what a
// scenario has left.
//
// Every reply a [Builder] queues records the test's file:line that
// scripted it ([Reply.ScriptedAt]), which the journal and the failure
// messages name, and [Match.Explain] says which of a match's conditions a
// request fails, with what the request had: the explanation of a miss.
//
// # Faults and pacing
//
// A reply can also fail at the transport, the same way for every provider
// (see [FaultKind]): [Drop] closes the connection before any byte, [Hang]
// sends nothing until the client gives up, [Reply.CutAfter] aborts the
// connection after some events, [Reply.MalformedAfter] sends an event
// that is not JSON, and [Reply.FailsAfter] (or [FailStreamAfter]) sends
// the provider's error event after some events. A fault that fires counts
// as delivered, so a retry gets the next reply:
//
//	sess.Chat("flaky").Drops().Reply(scenario.Text("partial").CutAfter(3)).Responds("whole")
//
// In JSON these are a reply's "fault" ({"kind", "after_events"}) and
// "error" with "in_stream" and "after_events". [Reply.Paced] (JSON
// "stream") paces one reply's stream on the server's clock, in place of
// the session's stream settings. [Request.MaxOutputTokens] is the
// request's output limit, at which the server cuts a longer reply.
//
// # Jobs
//
// Some requests start long work that the client polls: a video, a batch,
// a background response. Their reply's [JobPlan] (Reply.Job; "job" in
// JSON, with queued_ms, running_ms, steps, ends and keep_ms) times the job
// on the session's clock and says how it ends: completed with the reply,
// failed with its error ([FailJob]), or expired; without one the job
// queues a second and runs four. Videos and batches are answered only by
// scenarios that name [EndpointVideos] or [EndpointBatches]; a batch's
// lines are answered one by one by the scenarios of their own endpoints,
// as if each were sent alone. Nothing runs in the background: a job's
// state is read off the clock when the client asks, so a fake clock or a
// testing/synctest bubble runs it in no real time.
//
// # Conversations
//
// Every request belongs to a conversation, identified in this order:
// explicitly by the request itself (the Responses API's chain); by the
// conversation header that a per-conversation client sends
// (sess.Conversation("alice").HTTPClient()); or else by its opening, the
// system/developer text and the first user message. A conversation that
// comes back with fewer messages than its previous request started again from
// its opening: a new generation. The turn is the number of user messages.
// [Request] and the journal show identity, generation and turn.
//
// Queues are shared by the whole session unless a scenario is
// PerConversation: then every conversation (and generation) consumes its own
// copy, so parallel conversations in one session each get the whole sequence,
// deterministically.
package scenario
