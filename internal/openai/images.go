package openai

import (
	"encoding/base64"
	"net/url"
	"strings"
)

// Image inputs, as the Chat Completions and Responses APIs check them.

// badImageURL says why an image URL is neither an http(s) URL nor a
// base64 data URL with an image MIME type, in the API's words (seen for a
// value without the data: prefix and for empty bytes), or "" when it is
// good.
func badImageURL(s string) string {
	const expected = "Expected a base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,aW1nIGJ5dGVzIGhlcmU='), but got "
	if u, err := url.Parse(s); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		return ""
	}
	rest, ok := strings.CutPrefix(s, "data:")
	if !ok {
		return expected + "a value without the 'data:' prefix."
	}
	meta, data, ok := strings.Cut(rest, ",")
	if !ok || !strings.HasPrefix(meta, "image/") || !strings.HasSuffix(meta, ";base64") {
		// Inferred wording for a data URL of another kind.
		return expected + "a data URL without an image MIME type and base64 encoding."
	}
	if data == "" {
		return expected + "empty base64-encoded bytes."
	}
	if _, err := base64.StdEncoding.DecodeString(data); err != nil {
		if _, err := base64.RawStdEncoding.DecodeString(data); err != nil {
			return expected + "invalid base64-encoded bytes." // inferred wording
		}
	}
	return ""
}
