package anthropic

import (
	"bytes"
	"encoding/base64"
)

// validSignature reports whether sig is the signature the server gave a
// thinking block of this text (see signature in messages.go): the real API
// refuses a replayed block whose signature it did not make, or whose text
// was edited since ("messages.1.content.0: Invalid `signature` in
// `thinking` block", anthropics/claude-code#10627, #42373; any edit or
// re-serialisation fails it, a maintainer says in
// anthropics/anthropic-sdk-python#1598). A block shown with
// thinking.display "omitted" is replayed with an empty text and the
// signature omittedSignature made, which vouches for itself.
func validSignature(thinking, sig string) bool {
	if thinking == "" {
		b, err := base64.StdEncoding.DecodeString(sig)
		return err == nil && len(b) == 64 && bytes.Equal(b[:32], omittedTag(b[32:]))
	}
	return sig == signature(thinking)
}
