// Package httpx is the HTTP core every provider shares: it selects the
// session a request is for, registers the request as in flight on its
// runtime, checks the provider key through the request's codec, hands the
// request to the codec's route, and delivers what the route answers (a
// JSON body or a paced event stream) before journaling it. A POST that
// carries an Idempotency-Key is answered once per key and body: retries get
// the captured answer again (see idempotency.go). It fires the transport
// faults a reply scripts (a drop, a cut, a malformed or error event after
// some events) the same way for every codec, the events in the codec's
// framing (internal/provider.FailingStream), and aborts the connection of
// a drop or a cut only once the request is on record. Answers to requests
// checked against rate limits carry the codec's rate-limit headers. The
// entry gets what delivery saw (see sent.go): the events of a stream, the
// time to the first byte on the runtime's clock, and the message of an
// error the client was sent. It
// knows no provider: codecs (internal/provider.Codec) say how keys are
// presented and errors rendered.
package httpx
