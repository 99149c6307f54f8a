// Package tokens counts and splits text with the tokenizer of a model's
// encoding. Vocabularies ship inside the binary and load lazily, on first
// use of each encoding; nothing is downloaded.
package tokens

import (
	"strings"
	"sync"

	"github.com/tiktoken-go/tokenizer"
)

// Encoding names a tokenizer vocabulary.
type Encoding = tokenizer.Encoding

// The encodings the server uses.
const (
	O200kBase  = tokenizer.O200kBase
	Cl100kBase = tokenizer.Cl100kBase
)

// encodingPrefixes maps model name prefixes to encodings, longest prefix
// first where they overlap. Models that match nothing use o200k_base, the
// encoding of every current OpenAI model.
var encodingPrefixes = []struct {
	prefix   string
	encoding Encoding
}{
	{"gpt-4o", O200kBase},
	{"gpt-4.1", O200kBase},
	{"gpt-4.5", O200kBase},
	{"gpt-5", O200kBase},
	{"chatgpt-4o", O200kBase},
	{"o1", O200kBase},
	{"o3", O200kBase},
	{"o4", O200kBase},
	{"gpt-4", Cl100kBase},
	{"gpt-3.5", Cl100kBase},
	{"text-embedding-", Cl100kBase},
}

// EncodingFor returns the encoding model uses.
func EncodingFor(model string) Encoding {
	for _, p := range encodingPrefixes {
		if strings.HasPrefix(model, p.prefix) {
			return p.encoding
		}
	}
	return O200kBase
}

var codecs sync.Map // Encoding -> func() (tokenizer.Codec, error)

// codec loads the vocabulary of enc once per process.
func codec(enc Encoding) tokenizer.Codec {
	load, ok := codecs.Load(enc)
	if !ok {
		load, _ = codecs.LoadOrStore(enc, sync.OnceValues(func() (tokenizer.Codec, error) {
			return tokenizer.Get(enc)
		}))
	}
	c, err := load.(func() (tokenizer.Codec, error))()
	if err != nil {
		// The encodings above are compiled into the tokenizer module; failing
		// to load one is a build defect, not an input error.
		panic("tokens: loading " + string(enc) + ": " + err.Error())
	}
	return c
}

// Count returns the number of tokens of text in model's encoding. Counts are
// cached process-wide: each distinct text is tokenized once.
func Count(model, text string) int {
	if text == "" {
		return 0
	}
	return cachedCount(EncodingFor(model), text)
}

// Split cuts text into its tokens, in order; joined they give text back.
// Results are cached process-wide; the caller must not modify the slice.
func Split(model, text string) []string {
	if text == "" {
		return nil
	}
	return cachedSplit(EncodingFor(model), text)
}
