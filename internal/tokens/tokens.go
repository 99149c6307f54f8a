// Package tokens counts and splits text with the tokenizer of a model's
// encoding. Vocabularies ship inside the binary and load lazily, on first
// use of each encoding; nothing is downloaded.
package tokens

import (
	"context"
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
	n, _ := CountContext(context.Background(), model, text)
	return n
}

// CountContext is Count for request paths: it stops as soon as ctx is done,
// between pieces of at most a few hundred bytes, and returns what ctx was
// cancelled with (context.Cause). Counting takes time linear in the length
// of text whatever it holds.
func CountContext(ctx context.Context, model, text string) (int, error) {
	if text == "" {
		return 0, nil
	}
	return cachedCount(ctx, EncodingFor(model), text)
}

// Split cuts text into its tokens, in order; joined they give text back.
// Results are cached process-wide; the caller must not modify the slice.
func Split(model, text string) []string {
	p, _ := SplitContext(context.Background(), model, text)
	return p
}

// SplitContext is Split for request paths: it stops as soon as ctx is done
// and then returns nil and what ctx was cancelled with (context.Cause).
func SplitContext(ctx context.Context, model, text string) ([]string, error) {
	if text == "" {
		return nil, nil
	}
	return cachedSplit(ctx, EncodingFor(model), text)
}

// Splitter returns SplitContext for one model and context, as the
// renderers of streams take it: it cuts a text into model's tokens until
// ctx is done, and into nothing (nil) from then on.
func Splitter(ctx context.Context, model string) func(string) []string {
	return func(text string) []string {
		p, err := SplitContext(ctx, model, text)
		if err != nil {
			return nil
		}
		return p
	}
}

// count tokenizes text piece by piece (see chunks), checking ctx between
// pieces, and returns the number of tokens.
func count(ctx context.Context, enc Encoding, text string) (int, error) {
	c := codec(enc)
	n := 0
	var err error
	chunks(text, func(piece string) bool {
		if ctx.Err() != nil {
			err = context.Cause(ctx)
			return false
		}
		k, _ := c.Count(piece) // only ErrorModeStrict, which we never set, fails
		n += k
		return true
	})
	return n, err
}

// split tokenizes text piece by piece, as count does, and returns the tokens.
func split(ctx context.Context, enc Encoding, text string) ([]string, error) {
	c := codec(enc)
	var out []string
	var err error
	chunks(text, func(piece string) bool {
		if ctx.Err() != nil {
			err = context.Cause(ctx)
			return false
		}
		_, p, _ := c.Encode(piece)
		out = append(out, p...)
		return true
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
