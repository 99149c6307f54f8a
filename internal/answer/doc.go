// Package answer conducts every conversational request, once for every
// provider. A codec supplies only what differs (see Turn): it decodes and
// validates a body, says what its model refuses, cuts its prompt into
// segments with its cache rule, words its too-long error, shapes and
// renders its answer, and says what it keeps once the answer is
// delivered. Serve runs the steps in one order for every codec:
//
//  1. read the body within the server's limit;
//  2. decode it (the codec's Decoder), refusing what the real API refuses;
//  3. record what the request carries in the journal;
//  4. check that the session serves the model, then the codec's rules for
//     the model (Turn.Rules);
//  5. count the prompt (Turn.Prompt) and check it against the model's
//     context window (Turn.TooLong), before any reply is reserved;
//  6. the guard: the session's rate limits, then its chaos rules;
//  7. reserve the reply of the first scenario that answers, resolve a Go
//     responder and settle the reply: its delay, a hang, a scripted HTTP
//     error, and its fault and in-stream error handed to the HTTP core;
//  8. cut the reply at the request's stop sequences;
//  9. build the neutral provider.Answer: the model override, the
//     structured-output schema check, the contradictions between the reply
//     and the request's tool_choice, tools and parallel_tool_calls,
//     tool-call IDs, the cut at the request's maximum output tokens, the
//     finish kind, the journal's answer fields, and the usage with what the
//     prompt cache holds;
//  10. render it as the codec's JSON body or event stream (Turn.Render). An
//     error scripted inside the stream fails it after its events through
//     the codec's provider.FailingStream, after no event as after many;
//  11. once the answer is delivered whole, the codec's hook (Turn.Delivered):
//     storing a response, appending a turn to a conversation, keeping a
//     message thread's turn; and however the request ends once decoded,
//     a Turn that is a Settler lets go of what it holds (the message
//     thread turn it claimed), through provider.Response.Finally.
//
// Count runs steps 1 to 5 for the routes that count a prompt's tokens.
// RecordRequest, ModelNotFound, Limit and Scripted are the same steps for
// the routes that are not conversational but are journaled alike, count
// against rate limits or take scripted replies (embeddings).
package answer
