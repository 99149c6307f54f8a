package openai

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"
)

// compactionTokens is what a compaction item counts for: the output tokens
// of the compaction pass that made it, and the input tokens it stands for
// when a later request sends it back. The real count depends on the
// summary the API encrypted, which this server does not write; a few
// tokens is inferred.
const compactionTokens = 8

// compactionKey signs the encrypted_content of the compaction items the
// server makes, so that it can tell them from forged ones later. It is
// fixed rather than drawn per process, so that seeded sessions replay the
// same bytes and a compaction item survives a server restart; secrecy does
// not matter on a test server.
var compactionKey = []byte("llmtestserver compaction v1")

// compactionContent is the opaque encrypted_content of compaction item id:
// "gAAAAAB" and URL-safe base64, as the API's Fernet-like tokens look,
// over the item ID and a signature of it.
func compactionContent(id string) string {
	mac := hmac.New(sha256.New, compactionKey)
	mac.Write([]byte(id))
	return "gAAAAAB" + base64.URLEncoding.EncodeToString(append([]byte(id+"\x00"), mac.Sum(nil)...))
}

// madeCompaction reports whether content is an encrypted_content this
// server made (see compactionContent).
func madeCompaction(content string) bool {
	rest, ok := strings.CutPrefix(content, "gAAAAAB")
	if !ok {
		return false
	}
	raw, err := base64.URLEncoding.DecodeString(rest)
	if err != nil {
		return false
	}
	id, _, found := strings.Cut(string(raw), "\x00")
	return found && hmac.Equal([]byte(content), []byte(compactionContent(id)))
}

// decodeCompactionItem checks a compaction item of a request's input
// (openai-go's ResponseCompactionItemParam): encrypted_content is required
// and must be one this server made. The refusal of another is the API's
// for encrypted content it cannot decrypt (code invalid_encrypted_content,
// param null, the content shortened to its first and last four
// characters, as codex users' reports quote it); that a compaction item
// the API did not make gets it is inferred.
func decodeCompactionItem(o rawObject) *Error {
	content, err := o.required("encrypted_content")
	if err != nil {
		return err
	}
	if madeCompaction(content) {
		return nil
	}
	short := content
	if len(content) > 8 {
		short = content[:4] + "..." + content[len(content)-4:]
	}
	return invalidRequest(http.StatusBadRequest, "invalid_encrypted_content", "",
		"The encrypted content %s could not be verified. Reason: Encrypted content could not be decrypted or parsed.", short)
}

// compactionOverhead is the input tokens the compaction items among items
// stand for (see compactionTokens): the API reads their encrypted context,
// which no normalized message shows.
func compactionOverhead(items ...[]Item) int {
	n := 0
	for _, list := range items {
		for _, it := range list {
			if it.Type == "compaction" {
				n += compactionTokens
			}
		}
	}
	return n
}
