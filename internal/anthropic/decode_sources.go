package anthropic

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/url"

	"github.com/llmtestserver/llmtestserver/internal/apierr"
	"github.com/llmtestserver/llmtestserver/internal/provider"
)

// imageMediaTypes are the media types of a base64 image, in the order of
// the real refusal: "messages.36.content.2.image.source.base64.media_type:
// Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'"
// (anthropics/claude-code#8184).
var imageMediaTypes = []string{"image/jpeg", "image/png", "image/gif", "image/webp"}

// decodeImageSource checks an image block's source (path is
// "….image.source"), a union of base64, url and file sources as in the
// SDK's ImageBlockParamSourceUnion, and returns it raw.
func decodeImageSource(path string, block map[string]json.RawMessage) (json.RawMessage, *apierr.Error) {
	raw, m, t, err := source(path, block, "base64", "url", "file")
	if err != nil {
		return nil, err
	}
	in := path + "." + t
	switch t {
	case "base64":
		mt, err := requiredStr(in+".media_type", m)
		if err != nil {
			return nil, err
		}
		if err := literal(in+".media_type", mt, imageMediaTypes...); err != nil {
			return nil, err
		}
		data, err := requiredStr(in+".data", m)
		if err != nil {
			return nil, err
		}
		if data == "" {
			// The real wording (anthropics/claude-code#12750).
			return nil, fieldError(in, "image cannot be empty")
		}
		img, ok := decodeBase64(data)
		if !ok {
			// The real wording (anthropics/anthropic-sdk-typescript#603).
			return nil, fieldError(in, "invalid base64 data")
		}
		if !looksLike(img, mt) {
			// The real wording (anthropics/claude-code#15746, #13131).
			return nil, fieldError(in+".data", "Image does not match the provided media type "+mt)
		}
	case "url":
		if err := checkURL(in+".url", m); err != nil {
			return nil, err
		}
	case "file":
		if _, err := requiredStr(in+".file_id", m); err != nil {
			return nil, err
		}
	}
	return raw, nil
}

// decodeDocumentSource checks a document block's source, a union of
// base64 (PDF), text, content, url and file sources as in the SDK's
// DocumentBlockParamSourceUnion. The wordings are pydantic's, and the
// invalid base64 one the image's (inferred).
func decodeDocumentSource(path string, block map[string]json.RawMessage) (json.RawMessage, *apierr.Error) {
	raw, m, t, err := source(path, block, "base64", "text", "content", "url", "file")
	if err != nil {
		return nil, err
	}
	in := path + "." + t
	switch t {
	case "base64", "text":
		want := map[string]string{"base64": "application/pdf", "text": "text/plain"}[t]
		mt, err := requiredStr(in+".media_type", m)
		if err != nil {
			return nil, err
		}
		if err := literal(in+".media_type", mt, want); err != nil {
			return nil, err
		}
		data, err := requiredStr(in+".data", m)
		if err != nil {
			return nil, err
		}
		if _, ok := decodeBase64(data); t == "base64" && !ok {
			return nil, fieldError(in, "invalid base64 data")
		}
	case "content":
		c, ok := m["content"]
		if !ok {
			return nil, missing(in + ".content")
		}
		if k := provider.JSONKind(c); k != "string" && k != "array" {
			return nil, fieldError(in+".content", "Input should be a valid string or a valid list of content blocks")
		}
	case "url":
		if err := checkURL(in+".url", m); err != nil {
			return nil, err
		}
	case "file":
		if _, err := requiredStr(in+".file_id", m); err != nil {
			return nil, err
		}
	}
	return raw, nil
}

// source reads a block's required source object and its type among tags.
func source(path string, block map[string]json.RawMessage, tags ...string) (json.RawMessage, map[string]json.RawMessage, string, *apierr.Error) {
	raw, ok := block["source"]
	if !ok {
		return nil, nil, "", missing(path)
	}
	m, err := object(path, raw)
	if err != nil {
		return nil, nil, "", err
	}
	t, err := tag(path, m, tags...)
	if err != nil {
		return nil, nil, "", err
	}
	return raw, m, t, nil
}

// checkURL checks a source's url: an absolute http or https URL, with
// pydantic's HttpUrl wordings (inferred: no real refusal is quoted; a
// javascript: or data: URL is never fetched).
func checkURL(path string, m map[string]json.RawMessage) *apierr.Error {
	s, err := requiredStr(path, m)
	if err != nil {
		return err
	}
	u, perr := url.Parse(s)
	if perr != nil || u.Scheme == "" {
		return fieldError(path, "Input should be a valid URL, relative URL without a base")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fieldError(path, "URL scheme should be 'http' or 'https'")
	}
	if u.Host == "" {
		return fieldError(path, "Input should be a valid URL, empty host")
	}
	return nil
}

// decodeBase64 decodes standard base64, padded or not.
func decodeBase64(s string) ([]byte, bool) {
	if b, err := base64.StdEncoding.DecodeString(s); err == nil {
		return b, true
	}
	b, err := base64.RawStdEncoding.DecodeString(s)
	return b, err == nil
}

// looksLike reports whether img starts as an image of media type mt does:
// the API decodes the image, and refuses one whose bytes are of another
// format (or of none).
func looksLike(img []byte, mt string) bool {
	switch mt {
	case "image/jpeg":
		return bytes.HasPrefix(img, []byte{0xFF, 0xD8, 0xFF})
	case "image/png":
		return bytes.HasPrefix(img, []byte("\x89PNG\r\n\x1a\n"))
	case "image/gif":
		return bytes.HasPrefix(img, []byte("GIF87a")) || bytes.HasPrefix(img, []byte("GIF89a"))
	case "image/webp":
		return len(img) >= 12 && bytes.Equal(img[:4], []byte("RIFF")) && bytes.Equal(img[8:12], []byte("WEBP"))
	}
	return false
}
