package anthropic

// validSignature reports whether sig is the signature the server gave a
// thinking block of this text (see signature in messages.go): the real API
// refuses a replayed block whose signature it did not make, or whose text
// was edited since ("messages.1.content.0: Invalid `signature` in
// `thinking` block", anthropics/claude-code#10627, #42373; any edit or
// re-serialisation fails it, a maintainer says in
// anthropics/anthropic-sdk-python#1598). A block shown with
// thinking.display "omitted" is replayed with an empty text: its signature
// must then be that of the empty text, or this must learn the other form.
func validSignature(thinking, sig string) bool {
	return sig == signature(thinking)
}
